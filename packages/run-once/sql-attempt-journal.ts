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

  /**
   * One INSERT and one capping DELETE per batch of up to ROWS_PER_STATEMENT,
   * not two statements per record: a batch holds seconds of a busy server's
   * requests, and each statement is a round trip on the connections the
   * requests share.
   */
  async append(records: AttemptRecord[], capPerKey: number): Promise<void> {
    await this.db.$transaction(async (tx) => {
      for (const chunk of chunksOf(records, ROWS_PER_STATEMENT)) {
        await tx.$executeRaw(
          ...withRows(
            `INSERT INTO "RunOnceAttempt"
               ("id", "scope", "path", "key", "at", "instance", "generation", "decision", "keyState",
                "fingerprint", "body", "status", "durationMs", "replyLost", "retryAfterSeconds", "keyExpiresAt")
             VALUES `,
            chunk.map((r) => [
              r.id,
              r.scope.caller,
              r.scope.path,
              r.scope.key,
              r.at,
              r.instance,
              r.generation,
              r.decision,
              r.keyState,
              r.fingerprint,
              JSON.stringify(r.body),
              r.status,
              Math.round(r.durationMs),
              r.replyLost,
              r.retryAfterSeconds,
              r.keyExpiresAt,
            ]),
            "",
          ),
        );
      }
      const scopes = new Map(
        records.map((r) => [JSON.stringify([r.scope.caller, r.scope.path, r.scope.key]), r.scope]),
      );
      for (const chunk of chunksOf([...scopes.values()], ROWS_PER_STATEMENT)) {
        // The records of the batch's keys past each key's newest `capPerKey`.
        const ranked = withRows(
          `DELETE FROM "RunOnceAttempt" WHERE "id" IN (
             SELECT "id" FROM (
               SELECT "id", ROW_NUMBER() OVER (PARTITION BY "scope", "path", "key" ORDER BY "at" DESC) AS "rank"
               FROM "RunOnceAttempt"
               WHERE ("scope", "path", "key") IN (VALUES `,
          chunk.map((scope) => [scope.caller, scope.path, scope.key]),
          `)) AS "ranked" WHERE "rank" > `,
        );
        await tx.$executeRaw(...followedBy(ranked, capPerKey, ")"));
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

/** Rows per multi-row statement: far under either database's limit on bound values (16 columns × 100). */
const ROWS_PER_STATEMENT = 100;

function chunksOf<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
}

/**
 * A tagged template's arguments for `head (v, v), (v, v) tail`: one
 * parenthesised row of bound values per item, built as the tag would receive
 * them, because a tagged template literal cannot have a variable number of
 * holes.
 */
function withRows(head: string, rows: unknown[][], tail: string): [TemplateStringsArray, ...unknown[]] {
  const strings: string[] = [`${head}(`];
  const values: unknown[] = [];
  rows.forEach((row, r) =>
    row.forEach((value, v) => {
      values.push(value);
      const rowEnds = v === row.length - 1;
      strings.push(!rowEnds ? ", " : r === rows.length - 1 ? `)${tail}` : "), (");
    }),
  );
  return [Object.assign(strings, { raw: strings }), ...values];
}

/** A statement's arguments with one more bound value, then `text`. */
function followedBy(
  [strings, ...values]: [TemplateStringsArray, ...unknown[]],
  value: unknown,
  text: string,
): [TemplateStringsArray, ...unknown[]] {
  const parts = [...strings, text];
  return [Object.assign(parts, { raw: parts }), ...values, value];
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
