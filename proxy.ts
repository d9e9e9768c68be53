import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";
import { createDb } from "~/server/db/client";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
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
 * Gives every visitor an anonymous session on the first request, or when its
 * cookie is not one the server signed. The new id goes into the request too,
 * so that this very request (a curl call without a cookie jar, say) already
 * has a session.
 */
export async function proxy(request: NextRequest) {
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
