import type { AttemptJournal, AttemptRecord, FoundKeyState } from "./attempt-journal";
import type { RunOnceOutcome } from "./observer";
import type { SqlClient, SqlDatabase } from "./sql-store";
import type { Json } from "./types";

interface AttemptRow {
  id: string;
  scope: string;
  path: string;
  key: string;
  at: unknown;
  instance: string;
  generation: string | null;
  decision: string;
  keyState: string | null;
  fingerprint: string;
  body: string;
  status: unknown;
  durationMs: unknown;
  replyLost: unknown;
  retryAfterSeconds: unknown;
  keyExpiresAt: unknown;
}

/**
 * The server's account of attempts in SQL that SQLite and PostgreSQL share,
 * on the table "RunOnceAttempt" beside "IdempotencyKey". Written in batches by
 * AttemptRecorder, so a statement per record costs no request any time.
 */
export class SqlAttemptJournal<Tx extends SqlClient> implements AttemptJournal {
  constructor(private readonly db: SqlDatabase<Tx>) {}

  async append(records: AttemptRecord[], capPerKey: number): Promise<void> {
    await this.db.$transaction(async (tx) => {
      for (const r of records) {
        await tx.$executeRaw`
          INSERT INTO "RunOnceAttempt"
            ("id", "scope", "path", "key", "at", "instance", "generation", "decision", "keyState",
             "fingerprint", "body", "status", "durationMs", "replyLost", "retryAfterSeconds", "keyExpiresAt")
          VALUES
            (${r.id}, ${r.scope.caller}, ${r.scope.path}, ${r.scope.key}, ${r.at}, ${r.instance},
             ${r.generation}, ${r.decision}, ${r.keyState}, ${r.fingerprint}, ${JSON.stringify(r.body)}, ${r.status},
             ${Math.round(r.durationMs)}, ${r.replyLost}, ${r.retryAfterSeconds}, ${r.keyExpiresAt})`;
      }
      const keys = new Map(
        records.map((r) => [JSON.stringify([r.scope.caller, r.scope.path, r.scope.key]), r.scope]),
      );
      for (const scope of keys.values()) {
        await tx.$executeRaw`
          DELETE FROM "RunOnceAttempt"
          WHERE "scope" = ${scope.caller} AND "path" = ${scope.path} AND "key" = ${scope.key}
            AND "id" NOT IN (
              SELECT "id" FROM "RunOnceAttempt"
              WHERE "scope" = ${scope.caller} AND "path" = ${scope.path} AND "key" = ${scope.key}
              ORDER BY "at" DESC LIMIT ${capPerKey})`;
      }
    });
  }

  async markReplyLost(id: string): Promise<void> {
    await this.db.$executeRaw`UPDATE "RunOnceAttempt" SET "replyLost" = ${true} WHERE "id" = ${id}`;
  }

  /** A caller's keys on one operation are few, and each is capped, so all are read and filtered here. */
  async list(caller: string, path: string, keys: string[]): Promise<AttemptRecord[]> {
    if (keys.length === 0) return [];
    const wanted = new Set(keys);
    const rows = await this.db.$queryRaw<AttemptRow[]>`
      SELECT "id", "scope", "path", "key", "at", "instance", "generation", "decision", "keyState",
             "fingerprint", "body", "status", "durationMs", "replyLost", "retryAfterSeconds", "keyExpiresAt"
      FROM "RunOnceAttempt"
      WHERE "scope" = ${caller} AND "path" = ${path}
      ORDER BY "at" ASC`;
    return rows.filter((row) => wanted.has(row.key)).map(toRecord);
  }

  async sweep(before: Date): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM "RunOnceAttempt"
      WHERE NOT EXISTS (
          SELECT 1 FROM "IdempotencyKey" k
          WHERE k."scope" = "RunOnceAttempt"."scope" AND k."path" = "RunOnceAttempt"."path"
            AND k."key" = "RunOnceAttempt"."key")
        AND NOT EXISTS (
          SELECT 1 FROM "RunOnceAttempt" newer
          WHERE newer."scope" = "RunOnceAttempt"."scope" AND newer."path" = "RunOnceAttempt"."path"
            AND newer."key" = "RunOnceAttempt"."key" AND newer."at" >= ${before})`;
  }
}

/** Dates come back as Date objects or ISO strings, numbers as numbers or bigints, booleans as 0/1 on SQLite. */
function toRecord(row: AttemptRow): AttemptRecord {
  const date = (value: unknown) => (value instanceof Date ? value : new Date(value as string));
  return {
    id: row.id,
    scope: { caller: row.scope, path: row.path, key: row.key },
    at: date(row.at),
    instance: row.instance,
    generation: row.generation,
    decision: row.decision as RunOnceOutcome,
    keyState: row.keyState as FoundKeyState | null,
    fingerprint: row.fingerprint,
    body: JSON.parse(row.body) as Json,
    status: Number(row.status),
    durationMs: Number(row.durationMs),
    replyLost: row.replyLost === true || row.replyLost === 1 || row.replyLost === 1n,
    retryAfterSeconds: row.retryAfterSeconds === null ? null : Number(row.retryAfterSeconds),
    keyExpiresAt: row.keyExpiresAt === null ? null : date(row.keyExpiresAt),
  };
}
