import { randomUUID } from "node:crypto";
import pg from "pg";
import { percentile } from "./load";

/** The side effect's transaction with one shape of key writes, or none. */
export type FloorShape = "bare" | "claim and completion" | "one completed row";
export const FLOOR_SHAPES: FloorShape[] = ["bare", "claim and completion", "one completed row"];

const LEDGER_ROW = {
  name: "floor ledger row",
  text: `INSERT INTO "BenchLedger" ("id", "cents") VALUES ($1, $2)`,
};
const KEY_ROW = `INSERT INTO "IdempotencyKey"
  ("id", "scope", "path", "key", "fingerprint", "state", "token", "lockedUntil", "expiresAt", "replayCount", "createdAt")
  VALUES ($1, 'bench', 'floor', $1, 'fp', $2, $1, now(), now() + interval '1 day', 0, now())`;
const CLAIM = { name: "floor claim", text: KEY_ROW };
const COMPLETION = {
  name: "floor completion",
  text: `UPDATE "IdempotencyKey" SET "state" = 'COMPLETED', "outcome" = $2, "completedAt" = now() WHERE "id" = $1`,
};

/**
 * The least any key kept in PostgreSQL can add to a one-row transaction:
 * the key's writes with no round trip of their own, every statement
 * pipelined (pg's pipeline mode sends each without waiting for the one
 * before) and none awaited until the COMMIT. "claim and completion": an
 * insert and an update, the two writes of run-once's single-transaction
 * mode. "one completed row": a single insert of the finished key, the least
 * a key can be. What is left is the database's own work for the key's row
 * (its three indexes, its WAL) and nothing of the engine's. PostgreSQL only.
 */
export async function measureKeyWriteFloor(
  url: string,
  opts: { rounds: number; perRound: number },
): Promise<Record<FloorShape, number[]>> {
  const client = new pg.Client({ connectionString: url, pipeline: true } as pg.ClientConfig);
  await client.connect();
  const transaction = async (shape: FloorShape) => {
    const id = randomUUID();
    const sent: Array<Promise<unknown>> = [client.query("BEGIN")];
    if (shape === "claim and completion") sent.push(client.query({ ...CLAIM, values: [id, "IN_PROGRESS"] }));
    sent.push(client.query({ ...LEDGER_ROW, values: [id, 1200] }));
    if (shape === "claim and completion")
      sent.push(client.query({ ...COMPLETION, values: [id, '{"ok":true,"data":null}'] }));
    if (shape === "one completed row")
      sent.push(client.query({ name: "floor completed row", text: KEY_ROW, values: [id, "COMPLETED"] }));
    const committed = client.query("COMMIT");
    await Promise.all(sent);
    if ((await committed).command !== "COMMIT") throw new Error("the floor's transaction rolled back");
  };
  const latencies: Record<FloorShape, number[]> = {
    bare: [],
    "claim and completion": [],
    "one completed row": [],
  };
  try {
    for (const shape of FLOOR_SHAPES) for (let i = 0; i < 200; i++) await transaction(shape); // warm-up
    for (let round = 0; round < opts.rounds; round++) {
      const order = round % 2 === 0 ? FLOOR_SHAPES : [...FLOOR_SHAPES].reverse();
      for (const shape of order)
        for (let i = 0; i < opts.perRound; i++) {
          const startedAt = performance.now();
          await transaction(shape);
          latencies[shape].push(performance.now() - startedAt);
        }
    }
    return latencies;
  } finally {
    await client.end();
  }
}

/** A shape's median over the bare transaction's: the ratio and the added milliseconds. */
export function floorOf(latencies: Record<FloorShape, number[]>, shape: FloorShape) {
  const bare = percentile(latencies.bare, 50);
  const mine = percentile(latencies[shape], 50);
  return { ratio: mine / bare, addedMs: mine - bare, medianMs: mine, bareMs: bare };
}
