import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * SHA-256 of the RFC 8785 (JSON Canonicalization Scheme) form of the procedure
 * path and its parsed input: keys sorted at every depth, no whitespace, and
 * ECMAScript number and string encoding, so inputs that differ only in key
 * order or formatting have the same fingerprint.
 */
export function fingerprint(path: string, input: unknown): string {
  const canonical = canonicalize({ path, input: input ?? null });
  return createHash("sha256")
    .update(canonical ?? "")
    .digest("hex");
}
