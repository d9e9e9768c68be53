import type { KeyScope } from "./types";

/** 1 to 255 printable ASCII characters, as the IETF Idempotency-Key draft and Stripe allow. */
export const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

export const KEY_RULE = "an idempotency key is 1 to 255 printable ASCII characters (space to ~)";

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** One string per scope, for in-process maps; JSON keeps the parts unambiguous. */
export function scopeId(scope: KeyScope): string {
  return JSON.stringify([scope.caller, scope.path, scope.key]);
}

/** A key's generation, as logs and pages show it: the owner token's first characters, changed by every claim and takeover. */
export function generationOf(token: string): string {
  return token.slice(0, 8);
}
