import { randomUUID } from "node:crypto";
import type { Db, Tx } from "../db/client";
import { Prisma } from "../db/generated/sqlite/client";
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

  async claim(scope: KeyScope, terms: ClaimTerms): Promise<ClaimResult> {
    const claimed = { id: randomUUID(), token: randomUUID() };
    try {
      await this.db.idempotencyKey.create({
        data: {
          ...claimed,
          scope: scope.caller,
          path: scope.path,
          key: scope.key,
          fingerprint: terms.fingerprint,
          state: "IN_PROGRESS",
          ...leaseAndRetention(terms),
        },
        select: { id: true },
      });
      return { claimed };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
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
    const { count } = await (tx ?? this.db).idempotencyKey.updateMany({
      where: { id: claim.id, token: claim.token, state: "IN_PROGRESS" },
      data: {
        state: "COMPLETED",
        outcome: JSON.stringify(outcome),
        completedAt: at.now,
        expiresAt,
      },
    });
    if (count !== 1) {
      throw new DomainError(
        "IDEMPOTENCY_LEASE_LOST",
        "This attempt ran past its lease and another attempt took the key over; nothing of this attempt was committed. Retry with the same key to get the outcome.",
      );
    }
    return { expiresAt };
  }

  async release(claim: Claim): Promise<boolean> {
    const { count } = await this.db.idempotencyKey.deleteMany({
      where: { id: claim.id, token: claim.token, state: "IN_PROGRESS" },
    });
    return count === 1;
  }

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

export function leaseAndRetention(terms: ClaimTerms) {
  const now = terms.now.getTime();
  return {
    lockedUntil: new Date(now + terms.leaseMs),
    expiresAt: new Date(now + terms.ttlMs),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
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
