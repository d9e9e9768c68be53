/**
 * Issue 17's last bullet: the engine side by side with two public Node.js
 * idempotency libraries, in one run, on the same side effect (one ledger row
 * in PostgreSQL) and the same database; the peers keep their keys in the
 * local Redis. Four measurements per system: overhead against the bare side
 * effect, a storm of duplicates, recovery after a SIGKILL mid-execution, and
 * a failure before commit.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT } from "../testing/paths";
import { percentile } from "./load";
import {
  REDIS_URL,
  baseline,
  createDb,
  createLedger,
  createSystem,
  executions,
  redisReachable,
} from "./peers-systems";
import type { Answer, System } from "./peers-systems";
import type { Db } from "../server/db/client";

/** A system's median over the bare side effect. */
export interface Overhead {
  ratio: number;
  addedMs: number;
  medianMs: number;
  baselineMs: number;
  roundRatios: number[];
}

export interface PeerResult {
  id: System["id"];
  label: string;
  overhead: Overhead;
  storm: { executions: number; answers: Record<string, number>; lastAnswerMs: number };
  recovery: { recoveredMs: number | null; attempts: number; executions: number; lastStatus: string };
  failure: { first: string; retry: string; executions: number; verdict: string };
}

export interface PeersRun {
  redis: boolean;
  results: PeerResult[];
  calls: { rounds: number; perRound: number; storm: number; recoveryCapMs: number };
}

const tally = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>((counts, { status }) => {
    counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }, {});

async function timed(call: () => Promise<unknown>, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const startedAt = performance.now();
    await call();
    latencies.push(performance.now() - startedAt);
  }
  return latencies;
}

/** One side of the overhead measurement: a system, or the bare side effect. */
interface Arm {
  id: System["id"] | "baseline";
  call: () => Promise<unknown>;
}

/**
 * (1) Sequential calls on fresh keys, for every system. The
 * systems and the bare side effects take turns call by call, in alternating
 * order (ABBA), so that each sees the same load from the rest of this shared
 * machine; each round's medians give its ratio, whose spread shows the noise.
 */
async function overhead(
  systems: System[],
  db: Db,
  rounds: number,
  perRound: number,
): Promise<Map<Arm, { samples: number[]; roundMedians: number[] }>> {
  const bare = baseline(db);
  const arms: Arm[] = [
    { id: "baseline", call: () => bare(randomUUID()) },
    ...systems.map((system) => ({
      id: system.id,
      call: async () => {
        const answer = await system.call(randomUUID(), "ok");
        if (!answer.ok) throw new Error(`${system.id}: ${answer.status}`);
      },
    })),
  ];
  for (const arm of arms) await timed(arm.call, 100); // warm-up
  const measured = new Map(
    arms.map((arm) => [arm, { samples: [] as number[], roundMedians: [] as number[] }]),
  );
  for (let round = 0; round < rounds; round++) {
    const roundSamples = new Map<Arm, number[]>(arms.map((arm) => [arm, []]));
    for (let i = 0; i < perRound; i++) {
      const order = i % 2 === 0 ? arms : [...arms].reverse();
      for (const arm of order) roundSamples.get(arm)!.push(...(await timed(arm.call, 1)));
    }
    for (const [arm, latencies] of roundSamples) {
      measured.get(arm)!.samples.push(...latencies);
      measured.get(arm)!.roundMedians.push(percentile(latencies, 50));
    }
  }
  return measured;
}

/** A system's overhead, from the arms' samples. */
function overheadOf(
  measured: Map<Arm, { samples: number[]; roundMedians: number[] }>,
  id: System["id"],
): Overhead {
  const of = (wanted: Arm["id"]) => [...measured].find(([arm]) => arm.id === wanted)![1];
  const mine = of(id);
  const bare = of("baseline");
  const medianMs = percentile(mine.samples, 50);
  const baselineMs = percentile(bare.samples, 50);
  return {
    ratio: medianMs / baselineMs,
    addedMs: medianMs - baselineMs,
    medianMs,
    baselineMs,
    roundRatios: mine.roundMedians.map((median, round) => median / bare.roundMedians[round]!),
  };
}

/** (2) `count` concurrent calls with one key, from this process. */
async function storm(system: System, db: Db, count: number) {
  const key = randomUUID();
  const startedAt = performance.now();
  let lastAnswerMs = 0;
  const answers = await Promise.all(
    Array.from({ length: count }, async () => {
      const answer = await system.call(key, "ok");
      lastAnswerMs = performance.now() - startedAt;
      return answer;
    }),
  );
  return { executions: await executions(db, key), answers: tally(answers), lastAnswerMs };
}

/** (3) A child process claims a key and is SIGKILLed inside the side effect's transaction; this process retries. */
async function recovery(system: System, db: Db, url: string, capMs: number) {
  const key = randomUUID();
  // Node itself with tsx's loader: the tsx CLI would put a process of its own between, and SIGKILL would miss the owner.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "bench/peers-child.ts"), system.id, url, key],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${system.id}: the child never started executing`)),
        60_000,
      );
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("EXECUTING")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on("exit", (code) =>
        reject(new Error(`${system.id}: the child exited (${code}) before executing`)),
      );
    });
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const killedAt = performance.now();
  child.kill("SIGKILL");
  await exited;
  let attempts = 0;
  let recoveredMs: number | null = null;
  let lastStatus = "";
  while (performance.now() - killedAt < capMs) {
    attempts++;
    const answer = await system.call(key, "ok");
    lastStatus = answer.status;
    if (answer.ok) {
      recoveredMs = performance.now() - killedAt;
      break;
    }
    await sleep(50);
  }
  return { recoveredMs, attempts, executions: await executions(db, key), lastStatus };
}

/** (4) The handler throws before its side effect once; the same key is retried. */
async function failure(system: System, db: Db) {
  const key = randomUUID();
  const first = await system.call(key, "throw");
  const retry = await system.call(key, "ok");
  const count = await executions(db, key);
  const verdict =
    retry.ok && count === 1
      ? "the retry executes"
      : retry.status.includes("IN_PROGRESS") || retry.status.includes("InProgress")
        ? "key stuck in progress"
        : !retry.ok && count === 0
          ? "the error is replayed"
          : `retry ${retry.status}, ${count} execution(s)`;
  return { first: first.status, retry: retry.status, executions: count, verdict };
}

async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  const result = await work();
  console.error(`peers: ${name} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * Runs every measurement for the engine and, if Redis answers, the peers, on
 * `url` (a PostgreSQL database with the app's schema). Prints a line and
 * measures the engine alone when Redis is unreachable.
 */
export async function measurePeers(
  url: string,
  opts = { rounds: 6, perRound: 150, storm: 200, recoveryCapMs: 30_000 },
): Promise<PeersRun> {
  const redis = await redisReachable();
  if (!redis) console.log(`peers: Redis at ${REDIS_URL} is not reachable; the peer rows are skipped`);
  // Powertools warns on every call outside Lambda (no remaining-time context): drop that line only.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes("remaining time")) warn(...args);
  };
  const db = createDb(url);
  const ids: System["id"][] = redis ? ["engine", "powertools", "node-idempotency"] : ["engine"];
  const systems: System[] = [];
  try {
    await createLedger(db);
    for (const id of ids) systems.push(await createSystem(id, url, db));
    const measured = await step("overhead", () => overhead(systems, db, opts.rounds, opts.perRound));
    const results: PeerResult[] = [];
    for (const system of systems) {
      results.push({
        id: system.id,
        label: system.label,
        overhead: overheadOf(measured, system.id),
        storm: await step(`${system.id} storm`, () => storm(system, db, opts.storm)),
        recovery: await step(`${system.id} recovery`, () => recovery(system, db, url, opts.recoveryCapMs)),
        failure: await step(`${system.id} failure`, () => failure(system, db)),
      });
    }
    return { redis, results, calls: opts };
  } finally {
    for (const system of systems)
      await system.close().catch((error: unknown) => console.error(`peers: closing ${system.id}:`, error));
    await db.$disconnect();
    console.warn = warn;
  }
}
