import type { Db } from "../server/db/client";
import { env } from "../server/env";
import { SESSION_COOKIE, newSessionId, signSessionId } from "../server/session";
import { loadServerSecret } from "../server/server-secret";

interface SignedSession {
  /** The id that orders and keys are stored under. */
  id: string;
  /** The Cookie header that carries it, signed as a server on this database signs it. */
  cookie: string;
}

/** A new session that servers on this database accept, as if one of them had issued it. */
export async function newSignedSession(db: Db): Promise<SignedSession> {
  const id = newSessionId();
  return {
    id,
    cookie: `${SESSION_COOKIE}=${signSessionId(id, await loadServerSecret(db, "session", env.SESSION_SECRET))}`,
  };
}
