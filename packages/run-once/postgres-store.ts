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

/**
 * The store on PostgreSQL, which can push and which knows its owners:
 *
 * - Settling a key (completing or releasing it) that a process in another
 *   instance waits on sends a NOTIFY, delivered when its transaction commits,
 *   so the waiter wakes at once instead of polling (see PostgresKeyWatcher).
 *   Only awaited keys notify: a NOTIFY makes its transaction's commit take a
 *   lock shared by all notifying transactions, which every charge would
 *   otherwise pay.
 * - An owner holds its key's advisory lock on a session of its own (see
 *   OwnerSessions) from the claim until the key is settled. The lock is taken
 *   in the claim's own statement, before its insert, so no row is ever
 *   visible without its live owner's lock. A takeover takes the lock the same
 *   way, and wins only if it gets it: when the owner's process dies, a
 *   retry takes over at once instead of waiting out the lease.
 */
export class PostgresIdempotencyStore<Tx extends SqlClient> extends SqlIdempotencyStore<Tx> {
  override readonly detectsDeadOwners = true;
  readonly #owners: OwnerSessions;

  /**
   * `maxWaitMs`: how long a claim waits for an owner's session when all are
   * taken (the default wait bound). `sessionName`: the owners' sessions'
   * application_name, as pg_stat_activity shows them.
   */
  constructor(
    db: SqlDatabase<Tx>,
    url: string,
    options: { logger: Pick<Logger, "warn">; maxWaitMs?: number; sessionName?: string },
  ) {
    super(db);
    this.#owners = new OwnerSessions(url, options.logger, {
      maxWaitMs: options.maxWaitMs ?? DEFAULT_RUN_ONCE_SETTINGS.waitMs,
      name: options.sessionName ?? "run-once owner",
    });
  }

  /**
   * One statement on the owner's session: the lock, then the insert if it was
   * locked. Skips Prisma: a raw round trip on the hot path of every call.
   *
   * Its commit does not wait for the WAL flush (synchronous_commit off, for
   * this statement's transaction only): the claim is visible to every session
   * at once, and any later synchronous commit flushes the WAL past it, so it
   * is durable before the completion (or any write the operation commits on
   * its way, such as a recovery point) can be. Only a crash of PostgreSQL
   * itself can lose it, and that crash also ends the owner's session and its
   * lock, which already lets a retry take the key over at once; an owner that
   * carries on after the restart finds no claim to complete (LeaseLostError).
   */
  override async claim(
    scope: KeyScope,
    terms: ClaimTerms,
  ): Promise<{ claimed: Claim } | { existing: KeyRecord }> {
    const claim = { id: randomUUID(), token: randomUUID() };
    const { lockedUntil, expiresAt } = leaseAndRetention(terms);
    const lock = ownerLockOf(scope);
    const { locked, claim: won } = await this.#owners.attempt(lock, async (client) => {
      // Named, so each owner session parses and plans it once (a third of its time otherwise); owner
      // sessions hold session locks, so they never sit behind a transaction pooler that would lose it.
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

  /**
   * Records that a process waits on this generation of the key (its token), so
   * that its completion notifies. False if the key is no longer the one read.
   * SKIP LOCKED: a row locked by its owner's completing transaction is not
   * waited for (that owner may stall before its commit, and a waiter's wait is
   * bounded); the waiter re-reads it instead.
   */
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
