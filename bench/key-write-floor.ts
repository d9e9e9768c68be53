import { randomUUID } from "node:crypto";
import pg from "pg";
import { percentile } from "./load";

const LEDGER_ROW = {
  name: "floor ledger row",
  text: `INSERT INTO "BenchLedger" ("id", "cents") VALUES ($1, $2)`,
};
const COMPLETED_KEY = {
  name: "floor completed key",
  text: `INSERT INTO "IdempotencyKey"
  ("id", "scope", "path", "key", "fingerprint", "state", "token", "lockedUntil", "expiresAt", "replayCount", "createdAt")
  VALUES ($1, 'bench', 'floor', $1, 'fp', 'COMPLETED', $1, now(), now() + interval '1 day', 0, now())`,
};

/** The least a key row adds to a one-row transaction, pipelined so it adds no round trip (PostgreSQL). */
export async function measureKeyWriteFloor(
  url: string,
  opts: { rounds: number; perRound: number },
): Promise<{ bareMs: number; withKeyMs: number }> {
  const client = new pg.Client({ connectionString: url, pipeline: true } as pg.ClientConfig);
  await client.connect();
  const transaction = async (withKey: boolean) => {
    const id = randomUUID();
    const sent: Array<Promise<unknown>> = [
      client.query("BEGIN"),
      client.query({ ...LEDGER_ROW, values: [id, 1200] }),
    ];
    if (withKey) sent.push(client.query({ ...COMPLETED_KEY, values: [id] }));
    const committed = client.query("COMMIT");
    await Promise.all(sent);
    if ((await committed).command !== "COMMIT") throw new Error("the floor's transaction rolled back");
  };
  const latencies = { bare: [] as number[], withKey: [] as number[] };
  try {
    for (const withKey of [false, true]) for (let i = 0; i < 200; i++) await transaction(withKey); // warm-up
    for (let round = 0; round < opts.rounds; round++)
      for (const withKey of round % 2 === 0 ? [false, true] : [true, false])
        for (let i = 0; i < opts.perRound; i++) {
          const startedAt = performance.now();
          await transaction(withKey);
          latencies[withKey ? "withKey" : "bare"].push(performance.now() - startedAt);
        }
    return { bareMs: percentile(latencies.bare, 50), withKeyMs: percentile(latencies.withKey, 50) };
  } finally {
    await client.end();
  }
}
