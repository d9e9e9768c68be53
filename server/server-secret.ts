import { randomBytes } from "node:crypto";
import type { Db } from "./db/client";

/** A server key from the environment, or generated once into the DB so all instances agree. */
export async function loadServerSecret(
  db: Db,
  /** Which: signing session ids, or keying request fingerprints. */
  name: "session" | "fingerprint",
  configured: string | undefined,
): Promise<string> {
  if (configured) return configured;
  // Insert-if-absent, then read: of processes starting together, one insert wins and all read it.
  await db.$executeRaw`INSERT INTO "ServerSecret" ("name", "value")
    VALUES (${name}, ${randomBytes(32).toString("base64url")}) ON CONFLICT ("name") DO NOTHING`;
  const { value } = await db.serverSecret.findUniqueOrThrow({ where: { name } });
  return value;
}

/** Loads a secret on first use and keeps it; a failed load (a database not up yet) is tried again. */
export function secretLoader(load: () => Promise<string>): () => Promise<string> {
  let secret: Promise<string> | undefined;
  return () =>
    (secret ??= load().catch((error: unknown) => {
      secret = undefined;
      throw error;
    }));
}
