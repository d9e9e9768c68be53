import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { OwnerSessions, ownerLockOf } from "./owner-sessions";
import { DEFAULT_RUN_ONCE_SETTINGS } from "./settings";
import { STORED_STATE, SqlIdempotencyStore, leaseAndRetention } from "./sql-store";
import type { SqlClient, SqlDatabase } from "./sql-store";
import type { Claim, ClaimTerms, KeyRecord, KeyScope, Logger } from "./types";

/** The channel on which a settled key (completed or released) announces its id. */
export const KEY_SETTLED_CHANNEL = "idempotency_key_settled";

/** How long a claim waits before trying again when the key's lock is held but its row is gone (a moment's state). */
const LOCKED_ABSENT_RETRY_MS = 5;

/** PostgreSQL's store: awaited keys NOTIFY when settled, and owners' advisory locks reveal dead owners at once. */
export class PostgresIdempotencyStore<Tx extends SqlClient> extends SqlIdempotencyStore<Tx> {
  override readonly detectsDeadOwners = true;
  readonly #owners: OwnerSessions;
  readonly #onStatement: () => void;

  /** `maxWaitMs`: a claim's wait for a free owner session; `sessionName`: their application_name; `onStatement`: told of each statement they send. */
  constructor(
    db: SqlDatabase<Tx>,
    url: string,
    options: {
      logger: Pick<Logger, "warn">;
      maxWaitMs?: number;
      sessionName?: string;
      onStatement?: () => void;
    },
  ) {
    super(db);
    this.#onStatement = options.onStatement ?? (() => undefined);
    this.#owners = new OwnerSessions(url, options.logger, {
      maxWaitMs: options.maxWaitMs ?? DEFAULT_RUN_ONCE_SETTINGS.waitMs,
      name: options.sessionName ?? "run-once owner",
      onStatement: options.onStatement,
    });
  }

  /** Lock, then insert, in one statement; an asynchronous commit is safe, as later synchronous ones flush it first. */
  override async claim(
    scope: KeyScope,
    terms: ClaimTerms,
  ): Promise<{ claimed: Claim } | { existing: KeyRecord }> {
    const claim = { id: randomUUID(), token: randomUUID() };
    const { lockedUntil, expiresAt } = leaseAndRetention(terms);
    const lock = ownerLockOf(scope);
    const { locked, claim: won } = await this.#owners.attempt(lock, async (client) => {
      // Named, so each owner session parses and plans it once (a third of its time otherwise).
      const { rows } = await client.query<{ locked: boolean; inserted: number }>({
        name: "run-once claim",
        text: `WITH "lock" AS MATERIALIZED (
           SELECT pg_try_advisory_lock($1::bigint) AS "locked",
                  set_config('synchronous_commit', 'off', true) AS "asynchronousCommit"),
         "inserted" AS (
           INSERT INTO "IdempotencyKey"
             ("id", "scope", "path", "key", "fingerprint", "state", "token",
              "lockedUntil", "expiresAt", "createdAt")
           SELECT $2, $3, $4, $5, $6, 'IN_PROGRESS', $7, $8::timestamp, $9::timestamp, $10::timestamp
           FROM "lock" WHERE "locked"
           ON CONFLICT ("scope", "path", "key") DO NOTHING
           RETURNING "id")
         SELECT "locked", (SELECT COUNT(*) FROM "inserted")::int AS "inserted" FROM "lock"`,
        values: [
          lock,
          claim.id,
          scope.caller,
          scope.path,
          scope.key,
          terms.fingerprint,
          claim.token,
          lockedUntil.toISOString(),
          expiresAt.toISOString(),
          terms.now.toISOString(),
        ],
      });
      const row = rows[0]!;
      return { locked: row.locked, claim: row.inserted === 1 ? claim : null };
    });
    if (won) return { claimed: won };
    const existing = await this.read(scope);
    if (existing) return { existing };
    // Locked by someone with no row: a claim that lost its insert, a prober, or an owner that just released.
    if (!locked) await sleep(LOCKED_ABSENT_RETRY_MS);
    return this.claim(scope, terms);
  }

  /** Wins only with the key's lock, so only from an owner that is gone (or a key that settled, which it then leaves). */
  override async takeOver(scope: KeyScope, existing: KeyRecord, terms: ClaimTerms): Promise<Claim | null> {
    const token = randomUUID();
    const { lockedUntil, expiresAt } = leaseAndRetention(terms);
    const { claim } = await this.#owners.attempt(ownerLockOf(scope), async (client) => {
      const { rows } = await client.query<{ locked: boolean; taken: number }>(
        `WITH "lock" AS MATERIALIZED (SELECT pg_try_advisory_lock($1::bigint) AS "locked"),
         "taken" AS (
           UPDATE "IdempotencyKey"
           SET "token" = $2, "fingerprint" = $3, "state" = 'IN_PROGRESS',
               "outcome" = NULL, "completedAt" = NULL, "awaited" = false,
               "lockedUntil" = $4::timestamp, "expiresAt" = $5::timestamp
           FROM "lock"
           WHERE "lock"."locked" AND "id" = $6 AND "token" = $7 AND "state" = $8
           RETURNING "id")
         SELECT "locked", (SELECT COUNT(*) FROM "taken")::int AS "taken" FROM "lock"`,
        [
          ownerLockOf(scope),
          token,
          terms.fingerprint,
          lockedUntil.toISOString(),
          expiresAt.toISOString(),
          existing.id,
          existing.token,
          STORED_STATE[existing.state],
        ],
      );
      const row = rows[0]!;
      return { locked: row.locked, claim: row.taken === 1 ? { id: existing.id, token } : null };
    });
    return claim;
  }

  /** On the owner's session, which is idle while the operation works; once it failed, the row still says whose the key is. */
  override async renew(claim: Claim, lockedUntil: Date): Promise<boolean> {
    const client = this.#owners.clientOf(claim);
    if (!client) return super.renew(claim, lockedUntil);
    this.#onStatement();
    const { rowCount } = await client.query(
      `UPDATE "IdempotencyKey" SET "lockedUntil" = $1::timestamp
       WHERE "id" = $2 AND "token" = $3 AND "state" = 'IN_PROGRESS'`,
      [lockedUntil.toISOString(), claim.id, claim.token],
    );
    return rowCount === 1;
  }

  override relinquish(claim: Claim): Promise<void> {
    return this.#owners.release(claim);
  }

  /** Closes the owners' sessions. */
  close(): Promise<void> {
    return this.#owners.close();
  }

  /** Marks this generation awaited so its settling notifies; false if changed or being completed (SKIP LOCKED). */
  async markAwaited(record: KeyRecord): Promise<boolean> {
    const marked = await this.db.$executeRaw`
      UPDATE "IdempotencyKey" SET "awaited" = true
      WHERE "id" IN (
        SELECT "id" FROM "IdempotencyKey"
        WHERE "id" = ${record.id} AND "token" = ${record.token} AND "state" = 'IN_PROGRESS'
        FOR UPDATE SKIP LOCKED)`;
    return marked === 1;
  }

  protected override async announceSettled(keyId: string, tx?: Tx): Promise<void> {
    await (tx ?? this.db).$executeRaw`SELECT pg_notify(${KEY_SETTLED_CHANNEL}, ${keyId})`;
  }
}
