import { randomBytes } from "node:crypto";
import type { Db } from "./db/client";

const SECRET_NAME = "session";

/**
 * The key that signs session ids (session.ts). SESSION_SECRET sets it.
 * Without it, the first process that needs a key generates one and stores it
 * in the database, and every later process reads that row: all instances on
 * one database (npm run instances) accept each other's cookies, which a
 * random key per process would not, and restarts keep sessions. Whoever can
 * read the database can then forge a session id, but could read every order
 * there anyway; SESSION_SECRET keeps the key out of it.
 */
export async function loadSessionSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  // Insert-if-absent, then read: of processes starting together, one insert wins and all read it.
  await db.$executeRaw`INSERT INTO "ServerSecret" ("name", "value")
    VALUES (${SECRET_NAME}, ${randomBytes(32).toString("base64url")}) ON CONFLICT ("name") DO NOTHING`;
  const { value } = await db.serverSecret.findUniqueOrThrow({ where: { name: SECRET_NAME } });
  return value;
}

/** Loads the secret on first use and keeps it; a failed load (a database not up yet) is tried again. */
export function sessionSecretLoader(load: () => Promise<string>): () => Promise<string> {
  let secret: Promise<string> | undefined;
  return () =>
    (secret ??= load().catch((error: unknown) => {
      secret = undefined;
      throw error;
    }));
}
