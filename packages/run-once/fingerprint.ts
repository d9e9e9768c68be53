import { createHash, createHmac } from "node:crypto";
import canonicalize from "canonicalize";

/** SHA-256 of the canonical JSON (RFC 8785) of path and input; an HMAC with a secret, so guesses cannot be tested. */
export function fingerprint(path: string, input: unknown, secret?: string): string {
  const canonical = canonicalize({ path, input: input ?? null }) ?? "";
  const hash = secret === undefined ? createHash("sha256") : createHmac("sha256", secret);
  return hash.update(canonical).digest("hex");
}
