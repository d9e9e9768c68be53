import { SqlIdempotencyStore } from "./sql-store";
import type { SqlClient } from "./sql-store";
import type { KeyRecord } from "./types";

/** The channel on which a settled key (completed or released) announces its id. */
export const KEY_SETTLED_CHANNEL = "idempotency_key_settled";

/**
 * The store on PostgreSQL, which can push: settling a key (completing or
 * releasing it) that a process in another instance waits on sends a NOTIFY,
 * delivered when its transaction commits, so the waiter wakes at once instead
 * of polling (see PostgresKeyWatcher). Only awaited keys notify: a NOTIFY
 * makes its transaction's commit take a lock shared by all notifying
 * transactions, which every charge would otherwise pay.
 */
export class PostgresIdempotencyStore<Tx extends SqlClient> extends SqlIdempotencyStore<Tx> {
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
