/** How each driver says the database is briefly out of reach (database-unavailable.*.test.ts). */
const UNAVAILABLE = {
  /** PostgreSQL: connection exception (08), session terminated (57P01-03), too many connections, serialization failure, deadlock. */
  sqlState: /^(08...|57P0[123]|53300|40001|40P01)$/,
  /** Prisma: can't reach, timed out (P1008: SQLite busy), closed, no free connection, no transaction in time, write conflict. */
  prisma: new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028", "P2034"]),
  adapterKind: new Set([
    "DatabaseNotReachable",
    "ConnectionClosed",
    "SocketTimeout",
    "TooManyConnections",
    "TransactionWriteConflict",
  ]),
  /** Node's sockets; SQLite busy or locked (better-sqlite3's codes). */
  driverCode: /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|SQLITE_BUSY.*|SQLITE_LOCKED.*)$/,
  /** pg's errors with no code: a dropped session, a client it left unusable, a pool with no free connection. */
  pgMessage:
    /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect)$/,
};

type DriverFacts = { code?: unknown; kind?: unknown; originalCode?: unknown } | undefined;

/** True when `error`, or an error it was caused by, says that the database is briefly unavailable: worth a retry, not a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const adapter = cause.name === "DriverAdapterError" ? (cause.cause as DriverFacts) : undefined;
    const prisma = (cause as { meta?: { driverAdapterError?: { cause?: DriverFacts } } }).meta
      ?.driverAdapterError?.cause;
    if (
      UNAVAILABLE.pgMessage.test(cause.message) ||
      [cause as DriverFacts, adapter, prisma].some(saysUnavailable)
    )
      return true;
  }
  return false;
}

function saysUnavailable(facts: DriverFacts): boolean {
  const codes = [facts?.code, facts?.originalCode].filter((code): code is string => typeof code === "string");
  return (
    (typeof facts?.kind === "string" && UNAVAILABLE.adapterKind.has(facts.kind)) ||
    codes.some(
      (code) =>
        UNAVAILABLE.prisma.has(code) || UNAVAILABLE.sqlState.test(code) || UNAVAILABLE.driverCode.test(code),
    )
  );
}
