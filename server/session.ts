import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** The anonymous session: its id signed in an HttpOnly cookie, so a caller cannot pick one. */
export const SESSION_COOKIE = "checkout_session";

/** `<id>.<signature>`, both 32 bytes in base64url, which a cookie carries without escaping. */
const SIGNED_ID_PATTERN = /^(?<sessionId>[A-Za-z0-9_-]{43})\.(?<signature>[A-Za-z0-9_-]{43})$/;

export function newSessionId(): string {
  return randomBytes(32).toString("base64url");
}

export function signSessionId(sessionId: string, secret: string): string {
  return `${sessionId}.${signatureOf(sessionId, secret)}`;
}

/** The first checkout_session cookie whose signature checks out: a foreign one must not hide ours. */
export function sessionIdFromCookies(cookieHeader: string | null, secret: string): string | null {
  for (const value of cookieValues(cookieHeader ?? "", SESSION_COOKIE)) {
    const { sessionId = "", signature = "" } = SIGNED_ID_PATTERN.exec(value)?.groups ?? {};
    // Both signatures are 43 characters here, as timingSafeEqual requires.
    if (sessionId && timingSafeEqual(Buffer.from(signature), Buffer.from(signatureOf(sessionId, secret)))) {
      return sessionId;
    }
  }
  return null;
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

function signatureOf(sessionId: string, secret: string): string {
  return createHmac("sha256", secret).update(sessionId).digest("base64url");
}

/** Every value of one cookie name, in order: the parsers at hand keep one per name, and not the same one. */
function cookieValues(cookieHeader: string, name: string): string[] {
  return cookieHeader
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${name}=`))
    .map((pair) => pair.slice(name.length + 1));
}
