import { z } from "zod";

export const IDEMPOTENCY_KEY_RULE = "an idempotency key is 1 to 255 printable ASCII characters (space to ~)";

/** The key's format, shared by the input field and the Idempotency-Key header. */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x20-\x7E]{1,255}$/, { message: IDEMPOTENCY_KEY_RULE });

/** Where a key lives: the same key from another caller or procedure is another key. */
export interface KeyScope {
  caller: string;
  path: string;
  key: string;
}

/** One string per scope, for in-process maps; JSON keeps the parts unambiguous. */
export function scopeId(scope: KeyScope): string {
  return JSON.stringify([scope.caller, scope.path, scope.key]);
}
