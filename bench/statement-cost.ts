import pg from "pg";
import { createDb } from "../server/db/client";

/**
 * What one store statement costs through Prisma's raw SQL and through the pg
 * driver directly, inside an open transaction (where the single-transaction
 * mode's claim and completion run): the same trivial statement, one at a
 * time, in alternating rounds. PostgreSQL only.
 */
export async function measureStatementCost(
  url: string,
  opts: { rounds: number; perRound: number },
): Promise<{ prismaMs: number[]; pgMs: number[] }> {
  const db = createDb(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const prismaMs: number[] = [];
  const pgMs: number[] = [];
  const timed = async (statement: () => PromiseLike<unknown>, into: number[]) => {
    for (let i = 0; i < opts.perRound; i++) {
      const startedAt = performance.now();
      await statement();
      into.push(performance.now() - startedAt);
    }
  };
  const throughPrisma = () =>
    db.$transaction(async (tx) => timed(() => tx.$executeRaw`SELECT ${1}::int`, prismaMs), {
      timeout: 60_000,
    });
  const throughPg = async () => {
    await client.query("BEGIN");
    await timed(() => client.query("SELECT $1::int", [1]), pgMs);
    await client.query("COMMIT");
  };
  try {
    await throughPrisma(); // warm-up
    await throughPg();
    prismaMs.length = 0;
    pgMs.length = 0;
    for (let round = 0; round < opts.rounds; round++) {
      for (const run of round % 2 === 0 ? [throughPrisma, throughPg] : [throughPg, throughPrisma])
        await run();
    }
    return { prismaMs, pgMs };
  } finally {
    await client.end();
    await db.$disconnect();
  }
}
