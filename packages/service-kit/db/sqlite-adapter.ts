import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import { Mutex } from "async-mutex";

/** Statements wait out open transactions (or run in them); BEGIN IMMEDIATE; a failed COMMIT rolls back. */
class SerializedSqliteAdapter implements SqlDriverAdapter {
  readonly provider = "sqlite";
  readonly adapterName: string;
  readonly #gate = new Mutex();

  constructor(private readonly inner: SqlDriverAdapter) {
    this.adapterName = inner.adapterName;
  }

  queryRaw(query: SqlQuery) {
    return this.#gate.runExclusive(() => this.inner.queryRaw(query));
  }

  executeRaw(query: SqlQuery) {
    return this.#gate.runExclusive(() => this.inner.executeRaw(query));
  }

  executeScript(script: string) {
    return this.#gate.runExclusive(() => this.inner.executeScript(script));
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    if (isolationLevel && isolationLevel !== "SERIALIZABLE") {
      throw new Error(`SQLite transactions are always SERIALIZABLE, not ${isolationLevel}`);
    }
    const release = await this.#gate.acquire();
    try {
      await this.inner.executeScript("BEGIN IMMEDIATE");
    } catch (error) {
      release();
      throw error;
    }
    return new SerializedSqliteTransaction(this.inner, release);
  }

  dispose() {
    return this.#gate.runExclusive(() => this.inner.dispose());
  }
}

/** Runs on the shared connection while holding the gate; Prisma sends COMMIT and ROLLBACK as statements. */
class SerializedSqliteTransaction implements Transaction {
  readonly provider = "sqlite";
  readonly adapterName: string;
  readonly options = { usePhantomQuery: false };
  #open = true;

  constructor(
    private readonly connection: SqlDriverAdapter,
    private readonly release: () => void,
  ) {
    this.adapterName = connection.adapterName;
  }

  queryRaw(query: SqlQuery) {
    return this.connection.queryRaw(query);
  }

  async executeRaw(query: SqlQuery) {
    if (query.sql.trim().toUpperCase() !== "COMMIT") return this.connection.executeRaw(query);
    try {
      return await this.connection.executeRaw(query);
    } catch (error) {
      await this.connection.executeScript("ROLLBACK").catch(() => undefined);
      this.end();
      throw error;
    }
  }

  async commit() {
    this.end();
  }

  async rollback() {
    this.end();
  }

  private end() {
    if (!this.#open) return;
    this.#open = false;
    this.release();
  }
}

/** The SQLite adapter factory: WAL for readers in other processes, foreign keys on. */
export class SqliteAdapterFactory implements SqlDriverAdapterFactory {
  readonly provider = "sqlite";
  readonly adapterName = "@prisma/adapter-better-sqlite3";
  readonly #inner: PrismaBetterSqlite3;

  constructor(url: string, busyTimeoutMs = 5_000) {
    this.#inner = new PrismaBetterSqlite3({ url, timeout: busyTimeoutMs });
  }

  async connect() {
    const connection = await this.#inner.connect();
    await connection.executeScript(
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
    );
    return new SerializedSqliteAdapter(connection);
  }
}
