/** `npm run bench -- --peers`: run-once beside two idempotency libraries; writes bench/results/peers.md. */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createDb } from "../server/db/client";
import type { Db } from "../server/db/client";
import { ROOT } from "../testing/paths";
import { dropDatabase, recreateDatabase } from "../testing/postgres-admin";
import { migrateDatabase } from "service-kit/db/migrate";
import { percentile } from "./load";
import { markdownTable, ms, spreadOf } from "./report";
import {
  REDIS_URL,
  SYSTEM_IDS,
  bare,
  createLedger,
  createSystem,
  executions,
  redisReachable,
} from "./peers-systems";
import type { Answer, System } from "./peers-systems";

export const DUPLICATES = 200;
/** How long a key may stay stuck after the crash before the report gives up on it. */
const STUCK_CAP_MS = 15_000;
const LATENCY = { rounds: 6, perRound: 150 };

const tally = (answers: Answer[]) =>
  Object.entries(
    answers.reduce<Record<string, number>>((counts, { status }) => {
      counts[status] = (counts[status] ?? 0) + 1;
      return counts;
    }, {}),
  )
    .sort(([, a], [, b]) => b - a)
    .map(([status, count]) => `${count}× ${status}`)
    .join(", ");

async function duplicates(system: System, db: Db) {
  const key = randomUUID();
  const startedAt = performance.now();
  const answers = await Promise.all(Array.from({ length: DUPLICATES }, () => system.call(key, "ok")));
  const lastAnswerMs = performance.now() - startedAt;
  return {
    executions: await executions(db, key),
    answers: tally(answers),
    succeeded: answers.filter((answer) => answer.ok).length,
    lastAnswerMs,
  };
}

/** A child is SIGKILLed mid-transaction; the time from the kill to a retry's success is time stuck. */
async function crash(system: System, db: Db, url: string) {
  const key = randomUUID();
  // Node with tsx as a loader: the tsx CLI would stand between, and SIGKILL would miss the owner.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "bench/peers-child.ts"), system.id, url, key],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("EXECUTING") && resolve());
      child.once("exit", (code) =>
        reject(new Error(`${system.id}: the owner exited (${code}) before executing`)),
      );
    });
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
  const killedAt = performance.now();
  const answers: Answer[] = [];
  let stuckMs: number | null = null;
  while (performance.now() - killedAt < STUCK_CAP_MS) {
    const answer = await system.call(key, "ok");
    answers.push(answer);
    if (answer.ok) {
      stuckMs = performance.now() - killedAt;
      break;
    }
    await sleep(50);
  }
  return { stuckMs, retries: answers.length, answers: tally(answers), executions: await executions(db, key) };
}

/** The work throws before its side effect once; the same key is called again. */
async function failureBeforeCommit(system: System, db: Db) {
  const key = randomUUID();
  const first = await system.call(key, "throw");
  const retry = await system.call(key, "ok");
  return { first: first.status, retry: retry.status, executions: await executions(db, key) };
}

/** Sequential calls on fresh keys, systems taking turns call by call, so each sees the same load. */
async function latency(systems: System[], db: Db) {
  const arms = [
    { id: "bare", call: bare(db) },
    ...systems.map((system) => ({ id: system.id, call: (key: string) => system.call(key, "ok") })),
  ].map((arm) => ({ ...arm, samples: [] as number[], roundMedians: [] as number[] }));
  const once = async (arm: (typeof arms)[number]) => {
    const startedAt = performance.now();
    await arm.call(randomUUID());
    return performance.now() - startedAt;
  };
  for (const arm of arms) for (let i = 0; i < 100; i++) await once(arm); // warm-up
  for (let round = 0; round < LATENCY.rounds; round++) {
    const inRound = new Map(arms.map((arm) => [arm, [] as number[]]));
    for (let i = 0; i < LATENCY.perRound; i++)
      for (const arm of i % 2 === 0 ? arms : [...arms].reverse()) inRound.get(arm)!.push(await once(arm));
    for (const [arm, values] of inRound) {
      arm.samples.push(...values);
      arm.roundMedians.push(percentile(values, 50));
    }
  }
  const [bareArm, ...systemArms] = arms;
  const bareMs = percentile(bareArm!.samples, 50);
  const bareP99Ms = percentile(bareArm!.samples, 99);
  const bySystem = new Map(
    systemArms.map(({ id, samples, roundMedians }) => [
      id,
      {
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        ratio: percentile(samples, 50) / bareMs,
        p99Ratio: percentile(samples, 99) / bareP99Ms,
        spread: roundMedians.map((median, round) => median / bareArm!.roundMedians[round]!),
      },
    ]),
  );
  return { bareMs, bareP99Ms, bySystem };
}

export type PeersLatency = Awaited<ReturnType<typeof latency>>;

export type Measured = {
  system: System;
  duplicates: Awaited<ReturnType<typeof duplicates>>;
  crash: Awaited<ReturnType<typeof crash>>;
  failure: Awaited<ReturnType<typeof failureBeforeCommit>>;
};

function report(measured: Measured[], { bareMs, bareP99Ms, bySystem }: PeersLatency, seconds: number) {
  return `# Peers: run-once beside two idempotency libraries

Produced by \`npm run bench -- --peers\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, in ${Math.round(seconds)} s: ${os.cpus().length} cores, Node ${process.version}. Run-once's rows and targets are in latest.md.
Every system guards the same side effect, one ledger row written in a PostgreSQL transaction through the shop's
Prisma client; run-once keeps its keys in the same PostgreSQL database, the peers in the local Redis, each set up as
its README gives it.

${measured.map(({ system }) => `- **${system.id}**: ${system.label}`).join("\n")}

## Concurrent duplicates

${DUPLICATES} calls with one key at once, from one process. Executions are the ledger rows written for the key.

${markdownTable(
  ["system", "executions", "answers", "last answer"],
  measured.map(({ system, duplicates: d }) => [
    system.id,
    String(d.executions),
    d.answers,
    ms(d.lastAnswerMs),
  ]),
)}

## A crash mid-operation

The owner is SIGKILLed inside the side effect's transaction (its row written, not committed); the key is then
retried every 50 ms. Time stuck is from the kill to the first retry that succeeds, given up after ${STUCK_CAP_MS / 1000} s.

${markdownTable(
  ["system", "time stuck", "retries", "their answers", "executions"],
  measured.map(({ system, crash: c }) => [
    system.id,
    c.stuckMs === null ? `> ${STUCK_CAP_MS / 1000} s (given up)` : `${(c.stuckMs / 1000).toFixed(2)} s`,
    String(c.retries),
    c.answers,
    String(c.executions),
  ]),
)}

## A failure before commit

The work throws before its side effect; the same key is called again.

${markdownTable(
  ["system", "first answer", "the retry's answer", "executions"],
  measured.map(({ system, failure: f }) => [system.id, f.first, f.retry, String(f.executions)]),
)}

## Latency

Sequential calls on fresh keys, ${LATENCY.rounds} rounds of ${LATENCY.perRound}, every system and the bare side effect (p50 ${ms(bareMs)}) taking
turns call by call; the bare side effect's p99 is ${ms(bareP99Ms)}.

${markdownTable(
  ["system", "p50", "p99", "p50 ÷ bare", "p99 ÷ bare's", "per-round p50 ratios"],
  measured.map(({ system }) => {
    const l = bySystem.get(system.id)!;
    return [
      system.id,
      ms(l.p50),
      ms(l.p99),
      `${l.ratio.toFixed(2)}×`,
      `${l.p99Ratio.toFixed(2)}×`,
      spreadOf(l.spread),
    ];
  }),
)}
`;
}

/** Measures every system on a PostgreSQL database of its own, writes bench/results/peers.md, returns it and its figures. */
export async function runPeers(): Promise<{ text: string; measured: Measured[]; latency: PeersLatency }> {
  const startedAt = Date.now();
  const name = "idem_bench_peers";
  const url = await recreateDatabase(name);
  const db = createDb(url);
  const systems: System[] = [];
  try {
    await migrateDatabase(url);
    await createLedger(db);
    const redis = await redisReachable();
    if (!redis) console.log(`peers: Redis at ${REDIS_URL} does not answer: run-once alone is measured`);
    for (const id of redis ? SYSTEM_IDS : (["run-once"] as const))
      systems.push(await createSystem(id, url, db));
    const measured: Measured[] = [];
    for (const system of systems) {
      measured.push({
        system,
        duplicates: await duplicates(system, db),
        crash: await crash(system, db, url),
        failure: await failureBeforeCommit(system, db),
      });
      console.log(`peers: ${system.id} measured`);
    }
    const latencies = await latency(systems, db);
    const text = report(measured, latencies, (Date.now() - startedAt) / 1000);
    writeFileSync(path.join(ROOT, "bench/results/peers.md"), text);
    return { text, measured, latency: latencies };
  } finally {
    for (const system of systems)
      await system.close().catch((error: unknown) => console.error(`peers: ${system.id}:`, error));
    await db.$disconnect();
    await dropDatabase(name);
  }
}
