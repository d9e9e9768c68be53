import { createHash, createHmac } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * The fingerprint of a request: SHA-256 of the RFC 8785 (JSON Canonicalization
 * Scheme) form of the operation's path and its parsed input, so that inputs
 * differing only in key order or formatting match. With a secret it is an
 * HMAC, so a stored fingerprint cannot be used to test guesses of the input
 * (a card number is 10^5 guesses away once its last four digits are known).
 */
export function fingerprint(path: string, input: unknown, secret?: string): string {
  const canonical = canonicalize({ path, input: input ?? null }) ?? "";
  const hash = secret === undefined ? createHash("sha256") : createHmac("sha256", secret);
  return hash.update(canonical).digest("hex");
}
