import type { KeyScope } from "./types";

/** One string per scope, for in-process maps; JSON keeps the parts unambiguous. */
export function scopeId(scope: KeyScope): string {
  return JSON.stringify([scope.caller, scope.path, scope.key]);
}

/** A key's generation, as logs and pages show it: the owner token's first characters, changed by every claim and takeover. */
export function generationOf(token: string): string {
  return token.slice(0, 8);
}
