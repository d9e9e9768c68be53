import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import type { Logger } from "../logger";
import type { KeyWatcher } from "./key-watcher";
import { KEY_SETTLED_CHANNEL } from "./postgres-store";

/** A notification this recent still counts: it may have come between the caller's read and its wait. */
const RECENT_MS = 2_000;
/** Waits are cut to this, so that a notification lost to a reconnect costs a second at most. */
const MAX_WAIT_MS = 1_000;

/**
 * Wakes waiters on PostgreSQL's LISTEN/NOTIFY: one listening connection per
 * process, and every key's waiters (one per process, since duplicates in a
 * process share a wait) wake when its settling transaction commits.
 */
export class PostgresKeyWatcher implements KeyWatcher {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #recent = new Map<string, number>();
  #listening: Promise<pg.Client> | undefined;

  constructor(
    private readonly url: string,
    private readonly logger: Pick<Logger, "warn">,
  ) {}

  async wait(keyId: string, _attempt: number, maxMs: number): Promise<void> {
    const budget = Math.max(0, Math.min(maxMs, MAX_WAIT_MS));
    try {
      await this.#listen();
    } catch (error) {
      this.logger.warn({ err: error }, "cannot LISTEN for settled keys; polling instead");
      await sleep(budget);
      return;
    }
    const notifiedAt = this.#recent.get(keyId);
    if (notifiedAt !== undefined && Date.now() - notifiedAt < RECENT_MS) return;

    await new Promise<void>((resolve) => {
      const waiters = this.#waiters.get(keyId) ?? new Set();
      this.#waiters.set(keyId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(keyId);
        resolve();
      };
      const timer = setTimeout(done, budget);
      waiters.add(done);
    });
  }

  /** Opens the listening connection; a failure is reported by the next wait, which then polls. */
  async listen(): Promise<void> {
    await this.#listen().catch(() => undefined);
  }

  async close(): Promise<void> {
    const listening = this.#listening;
    this.#listening = undefined;
    if (listening) await (await listening).end().catch(() => undefined);
  }

  #listen(): Promise<pg.Client> {
    this.#listening ??= this.#connect().catch((error: unknown) => {
      this.#listening = undefined;
      throw error;
    });
    return this.#listening;
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    const reset = (error?: Error) => {
      if (error)
        this.logger.warn({ err: error }, "the LISTEN connection failed; reconnecting on the next wait");
      this.#listening = undefined;
      client.end().catch(() => undefined);
    };
    client.on("error", reset);
    client.on("notification", (message) => {
      if (message.channel !== KEY_SETTLED_CHANNEL || !message.payload) return;
      this.#settled(message.payload);
    });
    await client.connect();
    await client.query(`LISTEN ${KEY_SETTLED_CHANNEL}`);
    return client;
  }

  #settled(keyId: string) {
    const now = Date.now();
    this.#recent.set(keyId, now);
    for (const [id, at] of this.#recent) if (now - at >= RECENT_MS) this.#recent.delete(id);
    for (const wake of this.#waiters.get(keyId) ?? []) wake();
  }
}
