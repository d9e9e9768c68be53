import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { KEY_SETTLED_CHANNEL } from "./postgres-store";
import type { PostgresIdempotencyStore } from "./postgres-store";
import type { SqlClient } from "./sql-store";
import type { KeyWatcher } from "./store";
import type { KeyRecord, Logger } from "./types";

/** A notification this recent still counts: it may have come between the caller's read and its wait. */
const RECENT_MS = 2_000;
/** Waits are cut to this, so that a notification lost to a reconnect costs a second at most. */
const MAX_WAIT_MS = 1_000;
/** Connecting, and closing, never take longer than this: a waiter's bound must hold, and so must a shutdown. */
const CONNECTION_TIMEOUT_MS = 3_000;
/** Key generations remembered as marked awaited; beyond it the oldest are marked again if waited on. */
const ANNOUNCED_CAPACITY = 1_000;

/** Wakes waiters by LISTEN/NOTIFY; it listens before marking a key awaited, so no notification slips by. */
export class PostgresKeyWatcher implements KeyWatcher {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #notifiedAt = new Map<string, number>();
  /** Key id → the token whose generation this process has marked awaited. */
  readonly #announced = new Map<string, string>();
  #listening: Promise<pg.Client> | undefined;

  constructor(
    private readonly url: string,
    private readonly store: Pick<PostgresIdempotencyStore<SqlClient>, "markAwaited">,
    private readonly logger: Pick<Logger, "warn">,
  ) {}

  async wait(record: KeyRecord, _attempt: number, maxMs: number): Promise<void> {
    const budget = Math.max(0, Math.min(maxMs, MAX_WAIT_MS));
    const deadline = Date.now() + budget;
    try {
      await this.#listen();
    } catch (error) {
      this.logger.warn({ err: error }, "cannot LISTEN for settled keys; polling instead");
      await sleep(Math.max(0, deadline - Date.now()));
      return;
    }
    if (this.#announced.get(record.id) !== record.token) {
      // False: the key settled or changed owner since it was read; the caller re-reads it now.
      if (!(await this.store.markAwaited(record))) return;
      this.#remember(record);
    }
    const notifiedAt = this.#notifiedAt.get(record.id);
    if (notifiedAt !== undefined && Date.now() - notifiedAt < RECENT_MS) return;
    await this.#notification(record.id, Math.max(0, deadline - Date.now()));
  }

  async close(): Promise<void> {
    const listening = this.#listening;
    this.#listening = undefined;
    if (!listening) return;
    const client = await listening.catch(() => undefined);
    await Promise.race([client?.end().catch(() => undefined), sleep(CONNECTION_TIMEOUT_MS)]);
  }

  #notification(keyId: string, maxMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const waiters = this.#waiters.get(keyId) ?? new Set();
      this.#waiters.set(keyId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(keyId);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      waiters.add(done);
    });
  }

  #remember(record: KeyRecord) {
    this.#announced.delete(record.id);
    this.#announced.set(record.id, record.token);
    for (const oldest of this.#announced.keys()) {
      if (this.#announced.size <= ANNOUNCED_CAPACITY) break;
      this.#announced.delete(oldest);
    }
  }

  #listen(): Promise<pg.Client> {
    this.#listening ??= this.#connect().catch((error: unknown) => {
      this.#listening = undefined;
      throw error;
    });
    return this.#listening;
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      query_timeout: CONNECTION_TIMEOUT_MS,
    });
    const reset = (error?: Error) => {
      if (error)
        this.logger.warn({ err: error }, "the LISTEN connection failed; reconnecting on the next wait");
      this.#listening = undefined;
      client.end().catch(() => undefined);
    };
    client.on("error", reset);
    client.on("notification", (message) => {
      if (message.channel === KEY_SETTLED_CHANNEL && message.payload) this.#settled(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_SETTLED_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  #settled(keyId: string) {
    const now = Date.now();
    this.#notifiedAt.set(keyId, now);
    this.#announced.delete(keyId);
    for (const [id, at] of this.#notifiedAt) if (now - at >= RECENT_MS) this.#notifiedAt.delete(id);
    for (const wake of this.#waiters.get(keyId) ?? []) wake();
  }
}
