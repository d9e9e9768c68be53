import pg from "pg";
import type { SqlClient, SqlDatabase } from "./sql-store";

/** PostgreSQL's OID of `timestamp without time zone`, the key table's timestamps. */
const TIMESTAMP_OID = 1114;
/** How long an interactive transaction may stay open by default, as Prisma's. */
const DEFAULT_TIMEOUT_MS = 5_000;
/** How long a statement outside a transaction waits for a connection by default, as Prisma's pool. */
const DEFAULT_CONNECTION_WAIT_MS = 10_000;
/**
 * Statement texts prepared per connection at most: a text first seen beyond
 * it runs unnamed, so statements built at run time (a multi-row insert's
 * length) cannot prepare without end.
 */
const MAX_NAMED_STATEMENTS = 100;

/** The key table's timestamps hold UTC (as Prisma writes them); pg would read them in the process's zone. */
function readTimestamp(text: string): Date {
  return new Date(`${text.replace(" ", "T")}Z`);
}

/** A statement's parameters as pg sends them: a Date as its UTC instant (pg's default is the process's zone). */
function parameter(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** The work returned, but a statement of it had failed (its error caught): PostgreSQL rolled all of it back. */
export class TransactionAbortedError extends Error {
  constructor() {
    super("A statement of the transaction failed, so PostgreSQL rolled it back instead of committing it");
    this.name = "TransactionAbortedError";
  }
}

/** The transaction was open past its timeout: its statement in flight was cancelled, and all of it rolled back. */
export class TransactionTimeoutError extends Error {
  constructor(timeoutMs: number, options?: { cause: unknown }) {
    super(`The transaction was open past its timeout (${timeoutMs} ms) and was rolled back`, options);
    this.name = "TransactionTimeoutError";
  }
}

/** Names the statements of one database: each text once, up to MAX_NAMED_STATEMENTS. */
class StatementNames {
  readonly #names = new Map<string, string>();

  /** A tagged template as a statement: `$1, $2...` for its values, named if its text is. */
  statementOf(strings: TemplateStringsArray, values: unknown[]): pg.QueryConfig {
    const text = strings.reduce((sql, part, i) => `${sql}$${i}${part}`);
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < MAX_NAMED_STATEMENTS) {
      name = `run-once ${this.#names.size + 1}`;
      this.#names.set(text, name);
    }
    return { name, text, values: values.map(parameter) };
  }
}

/** One connection's raw statements, in Prisma's shape (see SqlClient); refused once its transaction is over. */
export class PgTransaction implements SqlClient {
  #over = false;

  constructor(
    private readonly client: pg.ClientBase,
    private readonly names: StatementNames,
  ) {}

  async $queryRaw<T = unknown>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T> {
    return (await this.#query(strings, values)).rows as T;
  }

  async $executeRaw(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    return (await this.#query(strings, values)).rowCount ?? 0;
  }

  /** Its connection goes back to the pool: a later statement would land in another caller's work. */
  end(): void {
    this.#over = true;
  }

  #query(strings: TemplateStringsArray, values: unknown[]) {
    if (this.#over) throw new Error("This transaction is over: its statements can no longer run");
    return this.client.query(this.names.statementOf(strings, values));
  }
}

/**
 * A PostgreSQL database on node-postgres, in the shape the stores take
 * (SqlDatabase): for operations whose side effects are written with pg rather
 * than Prisma. Each statement is a named (prepared) statement: through
 * Prisma, the same statement costs several times as much in the client, and
 * run-once's completion is a statement in the side effect's transaction on
 * every call. Its connections are in pg's pipeline mode: a statement is sent
 * at once, without waiting for the answers before it, and answers come in
 * order, so statements sent together share one round trip (the
 * single-transaction completion sends its claim with the work's statements).
 */
export class PgDatabase implements SqlDatabase<PgTransaction> {
  /** See SqlDatabase.pipelined: a transaction whose statement failed rejects (TransactionAbortedError). */
  readonly pipelined = true;
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #names = new StatementNames();

  constructor(url: string, options: { max?: number; name?: string; connectionWaitMs?: number } = {}) {
    this.#url = url;
    this.#pool = new pg.Pool({
      connectionString: url,
      pipeline: true,
      max: options.max ?? 10,
      application_name: options.name ?? "run-once",
      connectionTimeoutMillis: options.connectionWaitMs ?? DEFAULT_CONNECTION_WAIT_MS,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === TIMESTAMP_OID
            ? readTimestamp
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle connection that fails is dropped by the pool; without a listener the error would end the process.
    this.#pool.on("error", () => undefined);
  }

  $queryRaw<T = unknown>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T> {
    return this.#withClient((tx) => tx.$queryRaw<T>(strings, ...values));
  }

  $executeRaw(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    return this.#withClient((tx) => tx.$executeRaw(strings, ...values));
  }

  /**
   * `work` in a transaction on a connection of its own, committed if it
   * returns and rolled back if it throws. As Prisma's: a connection is waited
   * for at most `maxWait` ms, and a transaction still open after `timeout` ms
   * is ended: its statement in flight is cancelled, it is rolled back, and it
   * rejects with TransactionTimeoutError. Once the COMMIT is sent, the
   * timeout no longer applies: its outcome is the COMMIT's.
   */
  async $transaction<T>(
    work: (tx: PgTransaction) => Promise<T>,
    options: { maxWait?: number; timeout?: number } = {},
  ): Promise<T> {
    const client = await this.#connect(options.maxWait);
    const tx = new PgTransaction(client, this.#names);
    const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;
    let expired: Promise<void> | undefined;
    let failedRollback: Error | undefined;
    const timer = setTimeout(() => {
      tx.end();
      expired = this.#cancelAndRollBack(client);
    }, timeoutMs);
    try {
      // Awaited, though pipelined: statements sent behind a BEGIN that failed would run and commit one by one.
      await client.query("BEGIN");
      const result = await work(tx);
      clearTimeout(timer);
      if (expired) throw new TransactionTimeoutError(timeoutMs);
      // A transaction that a failed statement aborted answers COMMIT with a rollback, not an error.
      const { command } = await client.query("COMMIT");
      if (command !== "COMMIT") throw new TransactionAbortedError();
      return result;
    } catch (error) {
      clearTimeout(timer);
      if (expired) {
        await expired;
        throw error instanceof TransactionTimeoutError
          ? error
          : new TransactionTimeoutError(timeoutMs, { cause: error });
      }
      failedRollback = await client.query("ROLLBACK").then(
        () => undefined,
        (rollbackError: unknown) =>
          rollbackError instanceof Error ? rollbackError : new Error("ROLLBACK failed"),
      );
      throw error;
    } finally {
      tx.end();
      // Past its timeout, the connection is given back by its rollback; a connection whose rollback
      // failed may still be in the transaction, so it is closed rather than reused.
      if (!expired) client.release(failedRollback);
    }
  }

  end(): Promise<void> {
    return this.#pool.end();
  }

  /**
   * Ends a transaction past its timeout: cancels the statement it may be
   * running (closing the socket would not stop it on the server, nor free its
   * locks), rolls it back and gives the connection back, or closes it if the
   * rollback fails.
   */
  async #cancelAndRollBack(client: pg.PoolClient): Promise<void> {
    // processID is the server's backend of this connection (pg sets it at connect; its types leave it out).
    const backend = (client as unknown as { processID: number }).processID;
    const canceller = new pg.Client({ connectionString: this.#url });
    try {
      await canceller.connect();
      await canceller.query("SELECT pg_cancel_backend($1)", [backend]);
    } catch {
      // Without the cancel, the rollback below waits for the statement to end; the closing after it still holds.
    } finally {
      await canceller.end().catch(() => undefined);
    }
    try {
      await client.query("ROLLBACK");
      client.release();
    } catch (error) {
      client.release(error instanceof Error ? error : new Error("ROLLBACK failed"));
    }
  }

  async #withClient<T>(statement: (tx: PgTransaction) => Promise<T>): Promise<T> {
    const client = await this.#connect();
    const tx = new PgTransaction(client, this.#names);
    try {
      return await statement(tx);
    } finally {
      tx.end();
      client.release();
    }
  }

  async #connect(maxWaitMs?: number): Promise<pg.PoolClient> {
    if (maxWaitMs === undefined) return this.#pool.connect();
    // pg-pool bounds the wait per pool only (connectionTimeoutMillis); a transaction bounds its own.
    let timer: NodeJS.Timeout | undefined;
    const connecting = this.#pool.connect();
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no connection within ${maxWaitMs} ms`)), maxWaitMs);
    });
    try {
      return await Promise.race([connecting, timedOut]);
    } catch (error) {
      // A connection that arrives after the wait is given back.
      void connecting.then((client) => client.release()).catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
