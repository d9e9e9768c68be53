import { randomUUID } from "node:crypto";
import type { Db, Tx } from "../db/client";
import type { IdempotencyKey } from "../db/generated/sqlite/client";
import { DomainError } from "../errors";
import type { KeyScope } from "./key";
import { parseStoredOutcome } from "./outcome";
import type { StoredOutcome } from "./outcome";
import type { Claim, ClaimResult, ClaimTerms, IdempotencyStore, KeyRecord } from "./store";

/**
 * The store on Prisma, for both providers. The claim is an insert against the
 * unique (scope, path, key) constraint; every later transition is one
 * conditional update or delete.
 */
export class PrismaIdempotencyStore implements IdempotencyStore {
  constructor(protected readonly db: Db) {}

  /**
   * One INSERT against the unique (scope, path, key) constraint, in SQL that
   * SQLite and PostgreSQL share: ON CONFLICT DO NOTHING turns a duplicate into
   * an empty answer rather than an error. (Prisma's create() would throw on a
   * duplicate, and createMany({ skipDuplicates }) is not offered on SQLite and
   * wraps the INSERT in a transaction on PostgreSQL: three round trips on the
   * path of every request.)
   */
  async claim(scope: KeyScope, terms: ClaimTerms): Promise<ClaimResult> {
    const claimed = { id: randomUUID(), token: randomUUID() };
    const { lockedUntil, expiresAt } = leaseAndRetention(terms);
    const inserted = await this.db.$queryRaw<Array<{ id: string }>>`
      INSERT INTO "IdempotencyKey"
        ("id", "scope", "path", "key", "fingerprint", "state", "token",
         "lockedUntil", "expiresAt", "replayCount", "createdAt")
      VALUES
        (${claimed.id}, ${scope.caller}, ${scope.path}, ${scope.key}, ${terms.fingerprint}, 'IN_PROGRESS',
         ${claimed.token}, ${lockedUntil}, ${expiresAt}, 0, ${terms.now})
      ON CONFLICT ("scope", "path", "key") DO NOTHING
      RETURNING "id"`;
    if (inserted.length === 1) return { claimed };
    const existing = await this.read(scope);
    // The holder vanished between our insert and this read (released or
    // swept): the key is absent again, so claim it afresh.
    return existing ? { existing } : this.claim(scope, terms);
  }

  async read(scope: KeyScope): Promise<KeyRecord | null> {
    const row = await this.db.idempotencyKey.findUnique({
      where: { scope_path_key: { scope: scope.caller, path: scope.path, key: scope.key } },
    });
    return row && toRecord(row);
  }

  async takeOver(existing: KeyRecord, terms: ClaimTerms): Promise<Claim | null> {
    const token = randomUUID();
    // Conditioned on the token *and* the state: an owner completing late keeps
    // its token, so the token alone would let us overwrite its outcome.
    const { count } = await this.db.idempotencyKey.updateMany({
      where: { id: existing.id, token: existing.token, state: existing.state },
      data: {
        token,
        fingerprint: terms.fingerprint,
        state: "IN_PROGRESS",
        outcome: null,
        completedAt: null,
        replayCount: 0,
        awaited: false,
        ...leaseAndRetention(terms),
      },
    });
    return count === 1 ? { id: existing.id, token } : null;
  }

  async complete(
    claim: Claim,
    outcome: StoredOutcome,
    at: { now: Date; ttlMs: number },
    tx?: Tx,
  ): Promise<{ expiresAt: Date }> {
    const expiresAt = new Date(at.now.getTime() + at.ttlMs);
    // In SQL, like the claim: this runs inside the charge's own transaction,
    // on every request's path, and Prisma's updateMany costs three times as much.
    const rows = await (tx ?? this.db).$queryRaw<Array<{ awaited: unknown }>>`
      UPDATE "IdempotencyKey"
      SET "state" = 'COMPLETED', "outcome" = ${JSON.stringify(outcome)},
          "completedAt" = ${at.now}, "expiresAt" = ${expiresAt}
      WHERE "id" = ${claim.id} AND "token" = ${claim.token} AND "state" = 'IN_PROGRESS'
      RETURNING "awaited"`;
    if (rows.length !== 1) {
      throw new DomainError(
        "IDEMPOTENCY_LEASE_LOST",
        "This attempt ran past its lease and another attempt took the key over; nothing of this attempt was committed. Retry with the same key to get the outcome.",
      );
    }
    if (isTrue(rows[0]?.awaited)) await this.announceSettled(claim.id, tx);
    return { expiresAt };
  }

  async release(claim: Claim): Promise<boolean> {
    const rows = await this.db.$queryRaw<Array<{ awaited: unknown }>>`
      DELETE FROM "IdempotencyKey"
      WHERE "id" = ${claim.id} AND "token" = ${claim.token} AND "state" = 'IN_PROGRESS'
      RETURNING "awaited"`;
    if (isTrue(rows[0]?.awaited)) await this.announceSettled(claim.id);
    return rows.length === 1;
  }

  /**
   * Tells the processes waiting on a key (marked awaited) that it settled, in
   * the settling transaction where there is one. Nothing to do where waiters
   * poll (SQLite); PostgreSQL pushes.
   */
  protected async announceSettled(_keyId: string, _tx?: Tx): Promise<void> {}

  async countReplays(id: string, count: number): Promise<void> {
    await this.db.idempotencyKey.updateMany({
      where: { id },
      data: { replayCount: { increment: count } },
    });
  }

  async sweepExpired(now: Date): Promise<number> {
    const { count } = await this.db.idempotencyKey.deleteMany({
      where: {
        expiresAt: { lt: now },
        OR: [{ state: "COMPLETED" }, { lockedUntil: { lt: now } }],
      },
    });
    return count;
  }
}

function leaseAndRetention(terms: ClaimTerms) {
  const now = terms.now.getTime();
  return {
    lockedUntil: new Date(now + terms.leaseMs),
    expiresAt: new Date(now + terms.ttlMs),
  };
}

/** SQLite returns booleans of raw queries as 0/1 (or 0n/1n), PostgreSQL as booleans. */
function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === 1n;
}

function toRecord(row: IdempotencyKey): KeyRecord {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    state: row.state,
    token: row.token,
    lockedUntil: row.lockedUntil,
    expiresAt: row.expiresAt,
    outcome: row.outcome === null ? null : parseStoredOutcome(row.outcome),
  };
}
