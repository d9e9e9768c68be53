import { randomBytes } from "node:crypto";

/**
 * The anonymous session: an opaque, unguessable id in an HttpOnly cookie, set
 * on the first visit. Orders and idempotency keys belong to it. The id carries
 * no data, so changing the cookie only ever yields an empty session.
 */
export const SESSION_COOKIE = "checkout_session";

const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSessionId(): string {
  return randomBytes(32).toString("base64url");
}

export function isSessionId(value: string | undefined): value is string {
  return value !== undefined && SESSION_ID_PATTERN.test(value);
}

export function sessionCookieOptions() {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: process.env.NODE_ENV === "production",
    path: "/",
    maxAge: 60 * 60 * 24 * 365,
  };
}
