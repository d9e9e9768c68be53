/**
 * How each driver says that the database is briefly out of reach, as seen
 * from Prisma 7 with @prisma/adapter-pg and @prisma/adapter-better-sqlite3,
 * and from pg itself (database-unavailable.test.ts makes each one for real).
 * Prisma wraps an adapter's error as a PrismaClientKnownRequestError whose
 * `meta.driverAdapterError.cause` keeps the adapter's `kind` and the
 * driver's code; pg's own errors carry a SQLSTATE `code`, or only a message.
 */
const UNAVAILABLE = {
  /** PostgreSQL: a connection exception (class 08), a session terminated (57P01-03), too many connections, a serialization failure or a deadlock. */
  sqlState: /^(08...|57P0[123]|53300|40001|40P01)$/,
  /** Prisma: can't reach (P1001), timed out (P1002, P1008: SQLite busy), closed (P1017), no free connection (P2024), no transaction in time (P2028), a write conflict or deadlock (P2034). */
  prisma: new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028", "P2034"]),
  /** The adapters' kinds (SocketTimeout is also SQLite's busy). */
  adapterKind: new Set([
    "DatabaseNotReachable",
    "ConnectionClosed",
    "SocketTimeout",
    "TooManyConnections",
    "TransactionWriteConflict",
  ]),
  /** Node's sockets, and SQLite busy or locked (better-sqlite3's codes, extended ones too). */
  driverCode: /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|SQLITE_BUSY.*|SQLITE_LOCKED.*)$/,
  /** pg's errors that carry no code: a dropped session, a client left unusable by it, a pool with no free connection. */
  pgMessage:
    /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect)$/,
};

interface DriverFacts {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
}

/** True when `error`, or an error it was caused by, says that the database is briefly unavailable: worth a retry, not a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (UNAVAILABLE.pgMessage.test(cause.message)) return true;
    if (factsOf(cause).some(saysUnavailable)) return true;
  }
  return false;
}

/** The error's own code, and the adapter's account of it (Prisma's `meta`, or a DriverAdapterError's `cause`). */
function factsOf(error: Error): DriverFacts[] {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: DriverFacts } } }).meta;
  const adapter = error.name === "DriverAdapterError" ? (error.cause as DriverFacts | undefined) : undefined;
  return [error as DriverFacts, meta?.driverAdapterError?.cause ?? {}, adapter ?? {}];
}

function saysUnavailable({ code, kind, originalCode }: DriverFacts): boolean {
  return (
    (typeof kind === "string" && UNAVAILABLE.adapterKind.has(kind)) ||
    [code, originalCode].some(
      (value) =>
        typeof value === "string" &&
        (UNAVAILABLE.prisma.has(value) ||
          UNAVAILABLE.sqlState.test(value) ||
          UNAVAILABLE.driverCode.test(value)),
    )
  );
}
