import { randomUUID } from "node:crypto";
import type { Tx } from "../db/client";
import type { PrismaClient as PostgresqlClient } from "../db/generated/postgresql/client";
import type { KeyScope } from "./key";
import type { StoredOutcome } from "./outcome";
import { PrismaIdempotencyStore, leaseAndRetention } from "./prisma-store";
import type { Claim, ClaimResult, ClaimTerms } from "./store";

/** The channel on which a settled key (completed or released) announces its id. */
export const KEY_SETTLED_CHANNEL = "idempotency_key_settled";

/**
 * The store on PostgreSQL, which can do two things better: the claim is
 * INSERT ... ON CONFLICT DO NOTHING (Prisma's createMany with skipDuplicates),
 * so a duplicate costs no failed statement; and settling a key sends a
 * NOTIFY, delivered when its transaction commits, so that waiters in other
 * processes wake at once instead of polling (see PostgresKeyWatcher).
 */
export class PostgresIdempotencyStore extends PrismaIdempotencyStore {
  override async claim(scope: KeyScope, terms: ClaimTerms): Promise<ClaimResult> {
    const claimed = { id: randomUUID(), token: randomUUID() };
    // skipDuplicates exists only in the PostgreSQL client's types.
    const { count } = await (this.db as unknown as PostgresqlClient).idempotencyKey.createMany({
      data: {
        ...claimed,
        scope: scope.caller,
        path: scope.path,
        key: scope.key,
        fingerprint: terms.fingerprint,
        state: "IN_PROGRESS",
        ...leaseAndRetention(terms),
      },
      skipDuplicates: true,
    });
    if (count === 1) return { claimed };
    const existing = await this.read(scope);
    return existing ? { existing } : this.claim(scope, terms);
  }

  override async complete(
    claim: Claim,
    outcome: StoredOutcome,
    at: { now: Date; ttlMs: number },
    tx?: Tx,
  ): Promise<{ expiresAt: Date }> {
    const completed = await super.complete(claim, outcome, at, tx);
    await (tx ?? this.db).$executeRaw`SELECT pg_notify(${KEY_SETTLED_CHANNEL}, ${claim.id})`;
    return completed;
  }

  override async release(claim: Claim): Promise<boolean> {
    const released = await super.release(claim);
    if (released) await this.db.$executeRaw`SELECT pg_notify(${KEY_SETTLED_CHANNEL}, ${claim.id})`;
    return released;
  }
}
