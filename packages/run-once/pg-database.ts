import { createHash } from "node:crypto";
import pg from "pg";
import type { SqlClient, SqlDatabase } from "./sql-store";

/** PostgreSQL's OID of `timestamp without time zone`, the key table's timestamps. */
const TIMESTAMP_OID = 1114;
/** How long an interactive transaction may stay open by default, as Prisma's. */
const DEFAULT_TIMEOUT_MS = 5_000;

/** The key table's timestamps hold UTC (as Prisma writes them); pg would read them in the process's zone. */
function readTimestamp(text: string): Date {
  return new Date(`${text.replace(" ", "T")}Z`);
}

/** A statement's parameters as pg sends them: a Date as its UTC instant (pg's default is the process's zone). */
function parameter(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

const statementNames = new WeakMap<TemplateStringsArray, string>();

/**
 * A tagged template as a named statement: `$1, $2...` for its values, and a
 * name made of its text, so that each connection parses and plans it once
 * (a template's strings are one object per call site, so the name is too).
 */
function statementOf(strings: TemplateStringsArray, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(strings);
  const text = strings.reduce((sql, part, i) => `${sql}$${i}${part}`);
  if (!name) {
    name = `run-once ${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
    statementNames.set(strings, name);
  }
  return { name, text, values: values.map(parameter) };
}

/** The work returned, but a statement of it had failed (its error caught): PostgreSQL rolled all of it back. */
export class TransactionAbortedError extends Error {
  constructor() {
    super("A statement of the transaction failed, so PostgreSQL rolled it back instead of committing it");
    this.name = "TransactionAbortedError";
  }
}

/** One connection's raw statements, in Prisma's shape (see SqlClient). */
export class PgTransaction implements SqlClient {
  constructor(private readonly client: pg.ClientBase) {}

  async $queryRaw<T = unknown>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T> {
    const result = await this.client.query(statementOf(strings, values));
    return result.rows as T;
  }

  async $executeRaw(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    const result = await this.client.query(statementOf(strings, values));
    return result.rowCount ?? 0;
  }
}

/**
 * A PostgreSQL database on node-postgres, in the shape the stores take
 * (SqlDatabase): for operations whose side effects are written with pg rather
 * than Prisma. Each statement is a named (prepared) statement and costs one
 * round trip: through Prisma, the same statement costs several times as much
 * in the client (see bench/statement-cost.ts), and run-once's completion is a
 * statement in the side effect's transaction on every call.
 */
export class PgDatabase implements SqlDatabase<PgTransaction> {
  readonly #pool: pg.Pool;

  constructor(url: string, options: { max?: number; name?: string } = {}) {
    this.#pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? 10,
      application_name: options.name ?? "run-once",
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
    return this.#withClient((client) => new PgTransaction(client).$queryRaw<T>(strings, ...values));
  }

  $executeRaw(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    return this.#withClient((client) => new PgTransaction(client).$executeRaw(strings, ...values));
  }

  /**
   * `work` in a transaction on a connection of its own, committed if it
   * returns and rolled back if it throws. As Prisma's: a connection is waited
   * for at most `maxWait` ms, and a transaction still open after `timeout` ms
   * is rolled back (its connection is closed, which ends any statement).
   */
  async $transaction<T>(
    work: (tx: PgTransaction) => Promise<T>,
    options: { maxWait?: number; timeout?: number } = {},
  ): Promise<T> {
    const client = await this.#connect(options.maxWait);
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      client.release(new Error("transaction timed out"));
    }, options.timeout ?? DEFAULT_TIMEOUT_MS);
    try {
      await client.query("BEGIN");
      const result = await work(new PgTransaction(client));
      // A transaction that a failed statement aborted answers COMMIT with a rollback, not an error.
      const { command } = await client.query("COMMIT");
      if (command !== "COMMIT") throw new TransactionAbortedError();
      return result;
    } catch (error) {
      if (!expired) await client.query("ROLLBACK").catch(() => undefined);
      throw expired ? new Error("The transaction was open past its timeout and was rolled back") : error;
    } finally {
      clearTimeout(timer);
      if (!expired) client.release();
    }
  }

  end(): Promise<void> {
    return this.#pool.end();
  }

  async #withClient<T>(statement: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#connect();
    try {
      return await statement(client);
    } finally {
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
