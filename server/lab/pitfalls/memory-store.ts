import { randomUUID } from "node:crypto";
import { LeaseLostError } from "run-once";
import type { KeyScope } from "run-once";
import type { Claim, ClaimTerms, IdempotencyStore, KeyRecord } from "run-once/store";
import type { SqlDatabase } from "run-once/sql";
import type { Tx } from "../../db/client";

interface MemoryKey extends KeyRecord {
  scope: KeyScope;
}

/** The pitfall "in-memory store behind a load balancer": a Map per process, which no other instance sees. */
export class MemoryIdempotencyStore implements IdempotencyStore<Tx> {
  readonly detectsDeadOwners = false;
  readonly #keys = new Map<string, MemoryKey>();

  constructor(private readonly db: SqlDatabase<Tx>) {}

  claim(scope: KeyScope, terms: ClaimTerms): ReturnType<IdempotencyStore<Tx>["claim"]> {
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
  complete(claim: Claim, outcome: KeyRecord["outcome"] & object, at: { now: Date; ttlMs: number }) {
    const key = this.#owned(claim);
    if (!key) return Promise.reject(new LeaseLostError());
    key.state = "completed";
    key.outcome = outcome;
    key.expiresAt = new Date(at.now.getTime() + at.ttlMs);
    return Promise.resolve({ expiresAt: key.expiresAt });
  }

  release(claim: Claim): Promise<boolean> {
    const key = this.#owned(claim);
    if (key) this.#keys.delete(idOf(key.scope));
    return Promise.resolve(key !== undefined);
  }

  sweep(expiredBefore: Date, abandonedBefore: Date): Promise<number> {
    let swept = 0;
    for (const [id, key] of this.#keys) {
      const gone =
        key.state === "completed"
          ? key.expiresAt.getTime() < expiredBefore.getTime()
          : key.lockedUntil.getTime() < abandonedBefore.getTime();
      if (gone && this.#keys.delete(id)) swept++;
    }
    return Promise.resolve(swept);
  }

  #own(scope: KeyScope, terms: ClaimTerms, id: string): MemoryKey {
    const key: MemoryKey = {
      id,
      scope,
      fingerprint: terms.fingerprint,
      state: "in_progress",
      token: randomUUID(),
      lockedUntil: new Date(terms.now.getTime() + terms.leaseMs),
      expiresAt: new Date(terms.now.getTime() + terms.ttlMs),
      outcome: null,
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
function recordOf({ scope: _scope, ...record }: MemoryKey): KeyRecord {
  return record;
}
