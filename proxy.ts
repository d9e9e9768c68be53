import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";
import { createDb } from "~/server/db/client";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { paymentProviderEndpoint } from "~/app/_lib/payment-provider-endpoint";
import { env } from "~/server/env";
import {
  SESSION_COOKIE,
  newSessionId,
  sessionCookieOptions,
  sessionIdFromCookies,
  signSessionId,
} from "~/server/session";
import { loadServerSecret, secretLoader } from "~/server/server-secret";

// The proxy runs apart from the API's services (Next bundles each entry on its
// own), so it reads the secret through a connection of its own, once.
const sessionSecret = secretLoader(async () => {
  const db = createDb(resolveDatabaseUrl(env.DATABASE_URL));
  try {
    return await loadServerSecret(db, "session", env.SESSION_SECRET);
  } finally {
    await db.$disconnect();
  }
});

/**
 * What a page may load and who may frame it: its own origin, and the provider's card field (known only at run time).
 * 'unsafe-inline': prerendered pages cannot carry a per-request nonce; in development React's overlay needs 'unsafe-eval'.
 * @see https://nextjs.org/docs/app/guides/content-security-policy#without-nonces
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  `frame-src ${new URL(paymentProviderEndpoint().url).origin}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  // No other site may frame the shop and trick a click on Pay (clickjacking).
  "frame-ancestors 'none'",
].join("; ");

/** Every answer carries the policy, the proxy's own refusals included. */
export async function proxy(request: NextRequest) {
  const response = await withSession(request);
  response.headers.set("Content-Security-Policy", contentSecurityPolicy);
  return response;
}

/** Gives a visitor without a signed cookie a session, set on this very request too (curl without a cookie jar). */
async function withSession(request: NextRequest): Promise<NextResponse> {
  // Next answers a path it cannot decode with a bare 500; it is the client's mistake.
  if (!isDecodable(request.nextUrl.pathname)) {
    return new NextResponse("Bad request: the path is not valid percent-encoded UTF-8.\n", { status: 400 });
  }
  const secret = await sessionSecret();
  if (sessionIdFromCookies(request.headers.get("cookie"), secret)) return NextResponse.next();

  const cookie = signSessionId(newSessionId(), secret);
  request.cookies.set(SESSION_COOKIE, cookie);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(SESSION_COOKIE, cookie, sessionCookieOptions());
  // A shared cache that kept this response would hand the session to everyone after.
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
