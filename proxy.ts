import { NextResponse } from "next/server";
import type { NextRequest } from "next/server";
import { SESSION_COOKIE, isSessionId, newSessionId, sessionCookieOptions } from "~/server/session";

/**
 * Gives every visitor an anonymous session on the first request. The new id
 * goes into the request too, so that this very request (a curl call without
 * a cookie jar, say) already has a session.
 */
export function proxy(request: NextRequest) {
  if (isSessionId(request.cookies.get(SESSION_COOKIE)?.value)) return NextResponse.next();

  const sessionId = newSessionId();
  request.cookies.set(SESSION_COOKIE, sessionId);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(SESSION_COOKIE, sessionId, sessionCookieOptions());
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
