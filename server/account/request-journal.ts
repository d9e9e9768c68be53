import type { Json } from "run-once";
import type { Db, Tx } from "../db/client";
import { Prisma } from "../db/generated/sqlite/client";
import { keyIdOf } from "./request-record";
import type { RequestJournal, RequestRecord, FoundKeyState } from "./request-record";

/** The decisions answered from a key rather than by running: what the ledger counts as replays. */
const REPLAYS = new Set<RequestRecord["decision"]>(["replayed", "coalesced"]);

/** Keys per capping statement: far under either database's limit on bound values (3 per key). */
const KEYS_PER_STATEMENT = 100;
/** Rows per upsert: 17 bound values each, far under either database's limit (SQLite's 32,766). */
const ROWS_PER_STATEMENT = 500;

/** The account of runs in "RequestRecord", written in batches, off the requests' path. */
export class PrismaRequestJournal implements RequestJournal {
  constructor(private readonly db: Db) {}

  /** No transaction: a crash between the statements only leaves the account short. */
  async append(records: RequestRecord[], capPerKey: number): Promise<void> {
    const byKey = new Map<string, RequestRecord[]>();
    for (const r of records) {
      const id = keyIdOf(r.scope);
      if (byKey.has(id)) byKey.get(id)!.push(r);
      else byKey.set(id, [r]);
    }
    const kept = [...byKey.values()].flatMap((ofKey) =>
      ofKey.sort((a, b) => a.at.getTime() - b.at.getTime()).slice(-capPerKey),
    );
    for (let start = 0; start < kept.length; start += ROWS_PER_STATEMENT)
      await upsert(this.db, kept.slice(start, start + ROWS_PER_STATEMENT));
    // Only duplicates take a key past the cap: a key's first execution never needs it.
    const duplicated = [...byKey.values()]
      .filter((ofKey) => ofKey.some((r) => r.decision !== null && r.decision !== "executed"))
      .map((ofKey) => ofKey[0]!.scope);
    for (let start = 0; start < duplicated.length; start += KEYS_PER_STATEMENT) {
      const chunk = duplicated.slice(start, start + KEYS_PER_STATEMENT);
      const keys = Prisma.join(chunk.map((s) => Prisma.sql`(${s.caller}, ${s.path}, ${s.key})`));
      await this.db.$executeRaw`
        DELETE FROM "RequestRecord" WHERE "id" IN (
          SELECT "id" FROM (
            SELECT "id", ROW_NUMBER() OVER (PARTITION BY "scope", "path", "key" ORDER BY "at" DESC) AS "rank"
            FROM "RequestRecord" WHERE ("scope", "path", "key") IN (VALUES ${keys})) AS "ranked"
          WHERE "rank" > ${capPerKey})`;
    }
    for (const ofKey of byKey.values()) {
      const replays = ofKey.filter((r) => REPLAYS.has(r.decision)).length;
      if (replays === 0) continue;
      const { caller, path, key } = ofKey[0]!.scope;
      // Raw: Prisma's updateMany wraps itself in a transaction, a COMMIT more.
      await this.db.$executeRaw`
        UPDATE "IdempotencyKey" SET "replayCount" = "replayCount" + ${replays}
        WHERE "scope" = ${caller} AND "path" = ${path} AND "key" = ${key}`;
    }
  }

  async write(client: Db | Tx, records: RequestRecord[]): Promise<void> {
    await upsert(client, records);
  }

  async markReplyLost(id: string): Promise<void> {
    await this.db.requestRecord.updateMany({ where: { id }, data: { replyLost: true } });
  }

  async list(caller: string, path: string, keys?: string[]): Promise<RequestRecord[]> {
    const rows = await this.db.requestRecord.findMany({
      where: { scope: caller, path, ...(keys ? { key: { in: keys } } : {}) },
      orderBy: { at: "asc" },
    });
    return rows.map(({ scope, path, key, body, decision, keyState, sentBy, ...row }) => ({
      ...row,
      scope: { caller: scope, path, key },
      body: JSON.parse(body) as Json,
      decision: decision as RequestRecord["decision"],
      keyState: keyState as FoundKeyState | null,
      sentBy: sentBy as RequestRecord["sentBy"],
    }));
  }

  /** The shop's calls to the provider are kept under their order, as long as it exists (see provider-calls.ts). */
  async sweep(before: Date): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM "RequestRecord"
      WHERE NOT EXISTS (
          SELECT 1 FROM "IdempotencyKey" k
          WHERE k."scope" = "RequestRecord"."scope" AND k."path" = "RequestRecord"."path"
            AND k."key" = "RequestRecord"."key")
        AND NOT EXISTS (SELECT 1 FROM "Order" o WHERE o."id" = "RequestRecord"."scope")
        AND NOT EXISTS (
          SELECT 1 FROM "RequestRecord" newer
          WHERE newer."scope" = "RequestRecord"."scope" AND newer."path" = "RequestRecord"."path"
            AND newer."key" = "RequestRecord"."key" AND newer."at" >= ${before})`;
  }
}

/** Raw SQL: createMany cannot upsert; an in-flight version never overwrites an ended one. */
function upsert(db: Db | Tx, rows: RequestRecord[]): Promise<number> {
  const values = rows.map(
    (r) => Prisma.sql`(${r.id}, ${r.scope.caller}, ${r.scope.path}, ${r.scope.key}, ${r.at}, ${r.instance},
      ${r.generation}, ${r.decision}, ${r.keyState}, ${r.fingerprint}, ${JSON.stringify(r.body)}, ${r.status},
      ${Math.round(r.durationMs)}, ${r.replyLost}, ${r.retryAfterSeconds}, ${r.keyExpiresAt}, ${r.sentBy})`,
  );
  return db.$executeRaw`
    INSERT INTO "RequestRecord" ("id", "scope", "path", "key", "at", "instance", "generation", "decision",
      "keyState", "fingerprint", "body", "status", "durationMs", "replyLost", "retryAfterSeconds",
      "keyExpiresAt", "sentBy")
    VALUES ${Prisma.join(values)}
    ON CONFLICT ("id") DO UPDATE SET "body" = excluded."body", "generation" = excluded."generation", "decision" = excluded."decision",
      "keyState" = excluded."keyState", "status" = excluded."status", "durationMs" = excluded."durationMs",
      "replyLost" = excluded."replyLost", "retryAfterSeconds" = excluded."retryAfterSeconds",
      "keyExpiresAt" = excluded."keyExpiresAt"
    WHERE excluded."decision" IS NOT NULL OR excluded."status" IS NOT NULL
      OR ("RequestRecord"."decision" IS NULL AND "RequestRecord"."status" IS NULL)`;
}
