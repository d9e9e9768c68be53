import { createHash } from "node:crypto";
import pg from "pg";
import { scopeId } from "./key";
import type { Claim, KeyScope, Logger } from "./types";

/** Owners at work at once per process; a claim beyond it waits for a connection (bounded by `maxWaitMs`). */
const MAX_OWNER_SESSIONS = 16;
/** An idle connection is closed after this, so that a quiet process holds none. */
const IDLE_MS = 10_000;
/** Named, like the claim: parsed and planned once per session, not once per call. */
const UNLOCK = { name: "run-once unlock", text: "SELECT pg_advisory_unlock($1::bigint)" };

/** A scope's advisory lock, from its SHA-256: two scopes sharing one only wait for each other, never wrong. */
export function ownerLockOf(scope: KeyScope): string {
  return createHash("sha256").update(scopeId(scope)).digest().readBigInt64BE(0).toString();
}

/** Owners' sessions holding their keys' advisory locks, so PostgreSQL knows at once when an owner dies. */
export class OwnerSessions {
  readonly #pool: pg.Pool;
  /** Claim token → the connection holding its lock. */
  readonly #held = new Map<string, { client: pg.PoolClient; lock: string }>();

  constructor(
    url: string,
    private readonly logger: Pick<Logger, "warn">,
    private readonly options: { maxWaitMs: number; name: string; onStatement?: () => void },
  ) {
    this.#pool = new pg.Pool({
      connectionString: url,
      max: MAX_OWNER_SESSIONS,
      idleTimeoutMillis: IDLE_MS,
      connectionTimeoutMillis: options.maxWaitMs,
      application_name: options.name,
    });
    // On 'connect', before connect() resumes: an unheard termination read with the ready message ends the process.
    this.#pool.on("connect", (client) => client.on("error", (error) => this.#failed(client, error)));
    // An idle connection that fails is dropped by the pool; without a listener the error would end the process.
    this.#pool.on("error", (error) => this.logger.warn({ err: error }, "an idle owner session failed"));
  }

  /** Runs `attempt` (lock and write) on its own connection: a win keeps it until release(), a lock alone is undone. */
  async attempt(
    lock: string,
    attempt: (client: pg.PoolClient) => Promise<{ locked: boolean; claim: Claim | null }>,
  ): Promise<{ locked: boolean; claim: Claim | null }> {
    const client = await this.#pool.connect();
    this.options.onStatement?.();
    const result = await attempt(client).catch((error: unknown) => {
      client.release(true);
      throw error;
    });
    if (result.claim) {
      this.#held.set(result.claim.token, { client, lock });
      return result;
    }
    await this.#unlockAndReturn(client, result.locked ? lock : null);
    return result;
  }

  /** The connection holding a claim's lock, for the owner's own statements (its heartbeat); none once it failed. */
  clientOf(claim: Claim): pg.PoolClient | undefined {
    return this.#held.get(claim.token)?.client;
  }

  /** Lets go of a claim's lock once its key is settled (or abandoned by a failure). */
  async release(claim: Claim): Promise<void> {
    const held = this.#held.get(claim.token);
    if (!held) return;
    this.#held.delete(claim.token);
    await this.#unlockAndReturn(held.client, held.lock);
  }

  async close(): Promise<void> {
    const held = [...this.#held.values()];
    this.#held.clear();
    await Promise.all(held.map(({ client, lock }) => this.#unlockAndReturn(client, lock)));
    await this.#pool.end();
  }

  /** A held connection that failed (the server closed it) took its lock along: its claim is no longer held. */
  #failed(client: pg.PoolClient, error: Error) {
    for (const [token, held] of this.#held) {
      if (held.client !== client) continue;
      this.#held.delete(token);
      this.logger.warn({ err: error }, "an owner session failed; its owner has lost the key's lock");
      client.release(true);
    }
  }

  async #unlockAndReturn(client: pg.PoolClient, lock: string | null) {
    try {
      if (lock !== null) {
        this.options.onStatement?.();
        await client.query({ ...UNLOCK, values: [lock] });
      }
      client.release();
    } catch (error) {
      this.logger.warn({ err: error }, "could not unlock an owner session; closing it, which unlocks");
      client.release(true);
    }
  }
}
