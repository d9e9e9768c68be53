import { randomUUID } from "node:crypto";
import { LeaseLostError } from "./errors";
import type { IdempotencyStore } from "./store";
import type { Claim, ClaimTerms, KeyRecord, KeyScope, KeyState, StoredOutcome } from "./types";

/** What the store needs of a database handle: Prisma's raw-query methods, or anything of the same shape. */
export interface SqlClient {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
}

/** A database that can also run an interactive transaction, as PrismaClient does. */
export interface SqlDatabase<Tx extends SqlClient> extends SqlClient {
  $transaction<T>(work: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T>;
}

/** The column's values: the table's enum, as Prisma's schemas write it. */
export const STORED_STATE = { in_progress: "IN_PROGRESS", completed: "COMPLETED" } as const satisfies Record<
  KeyState,
  string
>;

interface KeyRow {
  id: string;
  fingerprint: string;
  state: (typeof STORED_STATE)[KeyState];
  token: string;
  lockedUntil: unknown;
  expiresAt: unknown;
  outcome: string | null;
}

/** The store on "IdempotencyKey" in SQLite and PostgreSQL, in raw SQL: one round trip per transition. */
export class SqlIdempotencyStore<Tx extends SqlClient> implements IdempotencyStore<Tx> {
  /** On SQLite nothing outlives a dead owner's process that another could ask about, so the lease decides. */
  readonly detectsDeadOwners: boolean = false;

  constructor(protected readonly db: SqlDatabase<Tx>) {}

  /** ON CONFLICT DO NOTHING turns a duplicate into an empty answer rather than an error. */
  async claim(scope: KeyScope, terms: ClaimTerms): Promise<{ claimed: Claim } | { existing: KeyRecord }> {
    const claimed = { id: randomUUID(), token: randomUUID() };
    const { lockedUntil, expiresAt } = leaseAndRetention(terms);
    const inserted = await this.db.$executeRaw`
      INSERT INTO "IdempotencyKey"
        ("id", "scope", "path", "key", "fingerprint", "state", "token",
         "lockedUntil", "expiresAt", "createdAt")
      VALUES
        (${claimed.id}, ${scope.caller}, ${scope.path}, ${scope.key}, ${terms.fingerprint}, 'IN_PROGRESS',
         ${claimed.token}, ${lockedUntil}, ${expiresAt}, ${terms.now})
      ON CONFLICT ("scope", "path", "key") DO NOTHING`;
    if (inserted === 1) return { claimed };
    const existing = await this.read(scope);
    // The holder vanished between our insert and this read: the key is absent again.
    return existing ? { existing } : this.claim(scope, terms);
  }

  async read(scope: KeyScope): Promise<KeyRecord | null> {
    const rows = await this.db.$queryRaw<KeyRow[]>`
      SELECT "id", "fingerprint", "state", "token", "lockedUntil", "expiresAt", "outcome"
      FROM "IdempotencyKey"
      WHERE "scope" = ${scope.caller} AND "path" = ${scope.path} AND "key" = ${scope.key}`;
    const row = rows[0];
    return row ? toRecord(row) : null;
  }

  /** On the token and the state: a late owner keeps its token, so the token alone would let it overwrite. */
  async takeOver(_scope: KeyScope, existing: KeyRecord, terms: ClaimTerms): Promise<Claim | null> {
    const token = randomUUID();
    const { lockedUntil, expiresAt } = leaseAndRetention(terms);
    const taken = await this.db.$executeRaw`
      UPDATE "IdempotencyKey"
      SET "token" = ${token}, "fingerprint" = ${terms.fingerprint}, "state" = 'IN_PROGRESS',
          "outcome" = NULL, "completedAt" = NULL, "awaited" = false,
          "lockedUntil" = ${lockedUntil}, "expiresAt" = ${expiresAt}
      WHERE "id" = ${existing.id} AND "token" = ${existing.token} AND "state" = ${STORED_STATE[existing.state]}`;
    return taken === 1 ? { id: existing.id, token } : null;
  }

  async renew(claim: Claim, lockedUntil: Date): Promise<boolean> {
    const renewed = await this.db.$executeRaw`
      UPDATE "IdempotencyKey" SET "lockedUntil" = ${lockedUntil}
      WHERE "id" = ${claim.id} AND "token" = ${claim.token} AND "state" = 'IN_PROGRESS'`;
    return renewed === 1;
  }

  async relinquish(_claim: Claim): Promise<void> {}

  transaction<T>(
    work: (tx: Tx) => Promise<T>,
    options: { maxWaitMs: number; timeoutMs?: number },
  ): Promise<T> {
    return this.db.$transaction(work, { maxWait: options.maxWaitMs, timeout: options.timeoutMs });
  }

  async complete(
    claim: Claim,
    outcome: StoredOutcome,
    at: { now: Date; ttlMs: number },
    tx: Tx,
  ): Promise<{ expiresAt: Date }> {
    const expiresAt = new Date(at.now.getTime() + at.ttlMs);
    const rows = await tx.$queryRaw<Array<{ awaited: unknown }>>`
      UPDATE "IdempotencyKey"
      SET "state" = 'COMPLETED', "outcome" = ${JSON.stringify(outcome)},
          "completedAt" = ${at.now}, "expiresAt" = ${expiresAt}
      WHERE "id" = ${claim.id} AND "token" = ${claim.token} AND "state" = 'IN_PROGRESS'
      RETURNING "awaited"`;
    if (rows.length !== 1) throw new LeaseLostError();
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

  /** Tells waiters on an awaited key that it settled, in its transaction; waiters poll on SQLite, so nothing here. */
  protected async announceSettled(_keyId: string, _tx?: Tx): Promise<void> {}

  async sweep(expiredBefore: Date, abandonedBefore: Date): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM "IdempotencyKey"
      WHERE ("state" = 'COMPLETED' AND "expiresAt" < ${expiredBefore})
         OR ("state" = 'IN_PROGRESS' AND "lockedUntil" < ${abandonedBefore})`;
  }
}

export function leaseAndRetention(terms: ClaimTerms) {
  const now = terms.now.getTime();
  return { lockedUntil: new Date(now + terms.leaseMs), expiresAt: new Date(now + terms.ttlMs) };
}

/** SQLite returns booleans as 0/1 (or 0n/1n), PostgreSQL as booleans. */
const isTrue = (value: unknown) => value === true || value === 1 || value === 1n;

/** Dates come back as Date objects or ISO strings, depending on the driver. */
const toDate = (value: unknown) => (value instanceof Date ? value : new Date(value as string));

function toRecord(row: KeyRow): KeyRecord {
  return {
    ...row,
    state: row.state === STORED_STATE.completed ? "completed" : "in_progress",
    lockedUntil: toDate(row.lockedUntil),
    expiresAt: toDate(row.expiresAt),
    outcome: row.outcome === null ? null : (JSON.parse(row.outcome) as StoredOutcome),
  };
}
