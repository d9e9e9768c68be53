import { randomUUID } from "node:crypto";
import { LeaseLostError } from "run-once";
import type {
  Claim,
  ClaimResult,
  ClaimTerms,
  IdempotencyStore,
  KeyRecord,
  KeyScope,
  KeyTally,
  KeyView,
  StoredOutcome,
} from "run-once";
import type { SqlDatabase } from "run-once/sql";
import type { Tx } from "../../db/client";

interface MemoryKey extends KeyRecord {
  scope: KeyScope;
  replayCount: number;
}

/**
 * The pitfall "in-memory store behind a load balancer": keys in a Map of this
 * process. Each transition is atomic within the process (no await between its
 * read and its write), so one instance alone runs a key once; a second
 * instance has a Map of its own and never sees the first one's keys. The
 * side effects are still written in the shop's database transactions.
 */
export class MemoryIdempotencyStore implements IdempotencyStore<Tx> {
  readonly detectsDeadOwners = false;
  readonly #keys = new Map<string, MemoryKey>();

  constructor(private readonly db: SqlDatabase<Tx>) {}

  claim(scope: KeyScope, terms: ClaimTerms): Promise<ClaimResult> {
    const existing = this.#keys.get(idOf(scope));
    if (existing) return Promise.resolve({ existing: recordOf(existing) });
    const key = this.#own(scope, terms, randomUUID());
    return Promise.resolve({ claimed: { id: key.id, token: key.token } });
  }

  read(scope: KeyScope): Promise<KeyRecord | null> {
    const key = this.#keys.get(idOf(scope));
    return Promise.resolve(key ? recordOf(key) : null);
  }

  takeOver(scope: KeyScope, existing: KeyRecord, terms: ClaimTerms): Promise<Claim | null> {
    const current = this.#keys.get(idOf(scope));
    if (current?.token !== existing.token) return Promise.resolve(null);
    const key = this.#own(scope, terms, current.id);
    return Promise.resolve({ id: key.id, token: key.token });
  }

  renew(claim: Claim, lockedUntil: Date): Promise<boolean> {
    const key = this.#owned(claim);
    if (key) key.lockedUntil = lockedUntil;
    return Promise.resolve(key !== undefined);
  }

  relinquish(): Promise<void> {
    return Promise.resolve();
  }

  transaction<T>(work: (tx: Tx) => Promise<T>, options: { maxWaitMs: number }): Promise<T> {
    return this.db.$transaction(work, { maxWait: options.maxWaitMs });
  }

  /** Completed in memory as the transaction's work ends: a Map cannot join the database's commit. */
  complete(
    claim: Claim,
    outcome: StoredOutcome,
    at: { now: Date; ttlMs: number },
  ): Promise<{ expiresAt: Date }> {
    const key = this.#owned(claim);
    if (!key) return Promise.reject(new LeaseLostError());
    key.state = "COMPLETED";
    key.outcome = outcome;
    key.expiresAt = new Date(at.now.getTime() + at.ttlMs);
    return Promise.resolve({ expiresAt: key.expiresAt });
  }

  release(claim: Claim): Promise<boolean> {
    const key = this.#owned(claim);
    if (key) this.#keys.delete(idOf(key.scope));
    return Promise.resolve(key !== undefined);
  }

  countReplays(id: string, count: number): Promise<void> {
    for (const key of this.#keys.values()) if (key.id === id) key.replayCount += count;
    return Promise.resolve();
  }

  sweep(expiredBefore: Date, abandonedBefore: Date): Promise<number> {
    let swept = 0;
    for (const [id, key] of this.#keys) {
      const gone =
        key.state === "COMPLETED"
          ? key.expiresAt.getTime() < expiredBefore.getTime()
          : key.lockedUntil.getTime() < abandonedBefore.getTime();
      if (gone && this.#keys.delete(id)) swept++;
    }
    return Promise.resolve(swept);
  }

  view(caller: string, path: string, keys: string[]): Promise<KeyView[]> {
    const views = keys.flatMap((name) => {
      const key = this.#keys.get(idOf({ caller, path, key: name }));
      if (!key) return [];
      const state = key.state === "COMPLETED" ? ("completed" as const) : ("in_progress" as const);
      return [
        {
          key: name,
          state,
          replayCount: key.replayCount,
          lockedUntil: key.lockedUntil,
          expiresAt: key.expiresAt,
        },
      ];
    });
    return Promise.resolve(views);
  }

  tally(caller: string): Promise<KeyTally> {
    const tally: KeyTally = { inProgress: 0, completed: 0, replays: 0 };
    for (const key of this.#keys.values()) {
      if (key.scope.caller !== caller) continue;
      if (key.state === "COMPLETED") tally.completed++;
      else tally.inProgress++;
      tally.replays += key.replayCount;
    }
    return Promise.resolve(tally);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #own(scope: KeyScope, terms: ClaimTerms, id: string): MemoryKey {
    const key: MemoryKey = {
      id,
      scope,
      fingerprint: terms.fingerprint,
      state: "IN_PROGRESS",
      token: randomUUID(),
      lockedUntil: new Date(terms.now.getTime() + terms.leaseMs),
      expiresAt: new Date(terms.now.getTime() + terms.ttlMs),
      outcome: null,
      replayCount: 0,
    };
    this.#keys.set(idOf(scope), key);
    return key;
  }

  #owned(claim: Claim): MemoryKey | undefined {
    for (const key of this.#keys.values()) if (key.id === claim.id && key.token === claim.token) return key;
    return undefined;
  }
}

function idOf(scope: KeyScope): string {
  return JSON.stringify([scope.caller, scope.path, scope.key]);
}

/** A copy, so that a reader holds what it saw, as it would from a database. */
function recordOf(key: MemoryKey): KeyRecord {
  return {
    id: key.id,
    fingerprint: key.fingerprint,
    state: key.state,
    token: key.token,
    lockedUntil: key.lockedUntil,
    expiresAt: key.expiresAt,
    outcome: key.outcome,
  };
}
