import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { Connection } from "rabbitmq-client";
import { afterEach, beforeEach } from "vitest";
import { createDb } from "../server/db/client";
import type { Db } from "../server/db/client";
import { writePaymentSucceeded } from "../server/receipts/payment-succeeded";
import { ROOT } from "./paths";
import { createTestDatabase } from "./test-database";
import type { TestDatabase } from "./test-database";

/** The RabbitMQ server the tests use (the one on this project's machines and CI). */
export const TEST_AMQP_URL = process.env.TEST_AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672";

/** A receipt worker process, its JSON log lines as they come. */
export interface WorkerProcess {
  /** Each log line, parsed, as it arrives; `settled` lines are the ones between a receipt and its ack. */
  readonly lines: Array<Record<string, unknown>>;
  /** Resolves with the next line the predicate accepts; rejects if the worker exits first. */
  next(accept: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** What a crash test composes into its workers: the naive consumer, and how long each ack waits after its receipt. */
export interface WorkerCounterexamples {
  naive?: boolean;
  ackDelayMs?: number;
}

/**
 * Starts the worker `npm start` runs (server/receipts/main.ts) or, given
 * counter-examples, the same worker with them composed in
 * (testing/receipt-worker-process.ts).
 */
export function startWorkerProcess(
  env: Record<string, string>,
  counterexamples?: WorkerCounterexamples,
): WorkerProcess {
  const entry = counterexamples
    ? [
        "testing/receipt-worker-process.ts",
        ...(counterexamples.naive ? ["--naive"] : []),
        `--ack-delay-ms=${counterexamples.ackDelayMs ?? 0}`,
      ]
    : ["server/receipts/main.ts"];
  // tsx as a loader, not its CLI: one process, so a SIGKILL leaves no orphaned child.
  const child = spawn(process.execPath, ["--import", "tsx", ...entry], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{
    accept: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }> = [];
  createInterface({ input: child.stdout }).on("line", (text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.accept(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, stderr })),
  );
  return {
    lines,
    // A worker that exits first fails the wait with its stderr, instead of leaving it to hang.
    next: (accept) =>
      Promise.race([
        new Promise<Record<string, unknown>>((resolve) => waiters.push({ accept, resolve })),
        exited.then(({ code, stderr }) => {
          throw new Error(`the worker exited (${code}) before the line: ${stderr}`);
        }),
      ]),
    exited,
    async kill(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Prisma's default bounds (2 s to start, 5 s to run) fail seeding on a loaded CI machine. */
const LOADED_MACHINE_TX = { maxWait: 10_000, timeout: 20_000 };

/** Paid orders as the charge's transaction leaves them: the order, its charge and its outbox event. */
export async function seedPaidOrders(db: Db, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `ord_${randomUUID()}`);
  for (const id of ids) {
    await db.$transaction(async (tx) => {
      await tx.order.create({
        data: { id, sessionId: "receipts-test", paymentKey: `pay_${id}`, totalCents: 1200, status: "PAID" },
      });
      const charge = await tx.charge.create({
        data: {
          id: `ch_${id}`,
          orderId: id,
          amountCents: 1200,
          idempotencyKey: `pay_${id}`,
          cardLast4: "4242",
        },
      });
      await writePaymentSucceeded(tx, charge);
    }, LOADED_MACHINE_TX);
  }
  return ids;
}

/** Per order, how many receipts the mailbox holds. */
export async function receiptsPerOrder(db: Db): Promise<Map<string, number>> {
  const groups = await db.receipt.groupBy({ by: ["orderId"], _count: { _all: true } });
  return new Map(groups.map((group) => [group.orderId, group._count._all]));
}

/** A queue of one test's own on the test broker, and a way to count its messages and delete it. */
export function testQueue() {
  const name = `receipts-test-${randomUUID().slice(0, 8)}`;
  return {
    name,
    /** Messages ready in the queue and in its dead-letter queue (a passive declare: it changes nothing). */
    async counts(): Promise<{ ready: number; dead: number }> {
      const rabbit = new Connection(TEST_AMQP_URL);
      try {
        const ready = await rabbit.queueDeclare({ queue: name, passive: true });
        const dead = await rabbit.queueDeclare({ queue: `${name}.dead`, passive: true });
        return { ready: ready.messageCount, dead: dead.messageCount };
      } finally {
        await rabbit.close();
      }
    },
    async delete(): Promise<void> {
      const rabbit = new Connection(TEST_AMQP_URL);
      await rabbit.queueDelete({ queue: name }).catch(() => undefined);
      await rabbit.queueDelete({ queue: `${name}.dead` }).catch(() => undefined);
      await rabbit.close();
    },
  };
}

/**
 * Per test, a database and a queue of its own (on the test broker for
 * "rabbitmq"), dropped after it; `env` points a worker at both.
 */
export function receiptTestBed(kind: "embedded" | "rabbitmq") {
  const bed = {} as {
    database: TestDatabase;
    db: Db;
    queue: ReturnType<typeof testQueue>;
    env: { RECEIPT_QUEUE: string; AMQP_URL?: string };
  };
  beforeEach(async () => {
    bed.database = await createTestDatabase();
    bed.db = createDb(bed.database.url);
    bed.queue = testQueue();
    bed.env = { RECEIPT_QUEUE: bed.queue.name, ...(kind === "rabbitmq" ? { AMQP_URL: TEST_AMQP_URL } : {}) };
  });
  afterEach(async () => {
    await bed.db.$disconnect();
    await bed.database.drop();
    await bed.queue.delete();
  });
  return bed;
}
