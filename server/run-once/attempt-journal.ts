import type { Json } from "run-once";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/sqlite/client";
import { keyIdOf } from "./attempt-recorder";
import type { AttemptJournal, AttemptRecord, FoundKeyState } from "./attempt-recorder";

/** The decisions answered from a key rather than by running: what the ledger counts as replays. */
const REPLAYS = new Set<AttemptRecord["decision"]>(["replayed", "coalesced"]);

/** Keys per capping statement: far under either database's limit on bound values (3 per key). */
const KEYS_PER_STATEMENT = 100;

/**
 * The server's account of attempts, on the table "RunOnceAttempt" beside the
 * keys. Written in batches by AttemptRecorder, so its statements cost no
 * request any time, with the keys' replay counts for the ledger.
 */
export class PrismaAttemptJournal implements AttemptJournal {
  constructor(private readonly db: Db) {}

  /**
   * One transaction: the inserts of each key's newest `capPerKey` (older ones would be capped at once,
   * and on SQLite every 60 or so rows cost a statement), a capping delete per chunk of keys, and each
   * key's replays added to its "replayCount".
   */
  async append(
    records: AttemptRecord[],
    capPerKey: number,
    replacing: readonly string[] = [],
  ): Promise<void> {
    const byKey = new Map<string, AttemptRecord[]>();
    for (const r of records) {
      const id = keyIdOf(r.scope);
      if (byKey.has(id)) byKey.get(id)!.push(r);
      else byKey.set(id, [r]);
    }
    const kept = [...byKey.values()].flatMap((ofKey) =>
      ofKey.sort((a, b) => a.at.getTime() - b.at.getTime()).slice(-capPerKey),
    );
    const scopes = [...byKey.values()].map((ofKey) => ofKey[0]!.scope);
    await this.db.$transaction(async (tx) => {
      // An ending replaces its in-flight row: one statement, and only when a batch completes rows written before.
      if (replacing.length > 0) await tx.runOnceAttempt.deleteMany({ where: { id: { in: [...replacing] } } });
      await tx.runOnceAttempt.createMany({
        data: kept.map(({ scope, body, durationMs, ...record }) => ({
          ...record,
          scope: scope.caller,
          path: scope.path,
          key: scope.key,
          body: JSON.stringify(body),
          durationMs: Math.round(durationMs),
        })),
      });
      for (let start = 0; start < scopes.length; start += KEYS_PER_STATEMENT) {
        const chunk = scopes.slice(start, start + KEYS_PER_STATEMENT);
        const keys = Prisma.join(chunk.map((s) => Prisma.sql`(${s.caller}, ${s.path}, ${s.key})`));
        await tx.$executeRaw`
          DELETE FROM "RunOnceAttempt" WHERE "id" IN (
            SELECT "id" FROM (
              SELECT "id", ROW_NUMBER() OVER (PARTITION BY "scope", "path", "key" ORDER BY "at" DESC) AS "rank"
              FROM "RunOnceAttempt" WHERE ("scope", "path", "key") IN (VALUES ${keys})) AS "ranked"
            WHERE "rank" > ${capPerKey})`;
      }
      for (const ofKey of byKey.values()) {
        const replays = ofKey.filter((r) => REPLAYS.has(r.decision)).length;
        if (replays === 0) continue;
        const { caller, path, key } = ofKey[0]!.scope;
        await tx.idempotencyKey.updateMany({
          where: { scope: caller, path, key },
          data: { replayCount: { increment: replays } },
        });
      }
    });
  }

  async markReplyLost(id: string): Promise<void> {
    await this.db.runOnceAttempt.updateMany({ where: { id }, data: { replyLost: true } });
  }

  async list(caller: string, path: string, keys?: string[]): Promise<AttemptRecord[]> {
    const rows = await this.db.runOnceAttempt.findMany({
      where: { scope: caller, path, ...(keys ? { key: { in: keys } } : {}) },
      orderBy: { at: "asc" },
    });
    return rows.map(({ scope, path, key, body, decision, keyState, sentBy, ...row }) => ({
      ...row,
      scope: { caller: scope, path, key },
      body: JSON.parse(body) as Json,
      decision: decision as AttemptRecord["decision"],
      keyState: keyState as FoundKeyState | null,
      sentBy: sentBy as AttemptRecord["sentBy"],
    }));
  }

  /** The shop's calls to the provider are kept under their order, as long as it exists (see recordProviderCalls). */
  async sweep(before: Date): Promise<number> {
    return this.db.$executeRaw`
      DELETE FROM "RunOnceAttempt"
      WHERE NOT EXISTS (
          SELECT 1 FROM "IdempotencyKey" k
          WHERE k."scope" = "RunOnceAttempt"."scope" AND k."path" = "RunOnceAttempt"."path"
            AND k."key" = "RunOnceAttempt"."key")
        AND NOT EXISTS (SELECT 1 FROM "Order" o WHERE o."id" = "RunOnceAttempt"."scope")
        AND NOT EXISTS (
          SELECT 1 FROM "RunOnceAttempt" newer
          WHERE newer."scope" = "RunOnceAttempt"."scope" AND newer."path" = "RunOnceAttempt"."path"
            AND newer."key" = "RunOnceAttempt"."key" AND newer."at" >= ${before})`;
  }
}
