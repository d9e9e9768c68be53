import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fingerprint } from "run-once";
import type { Operation, RunResult } from "run-once";
import type { Tx } from "../server/db/client";
import { ROOT } from "./paths";
import { CALLER, createRunOnceHarness } from "./run-once-harness";

/** The side effect of the single-transaction tests: one row per work, written in the key's transaction. */
export const LEDGER_TABLE = "SingleTransactionLedger";

export interface LedgerEntry {
  key: string;
  value: number;
}

/** What the work does after writing its row: wait for a gate, then throw (a final error or a failure). */
export interface LedgerBehaviour {
  held?: Promise<void>;
  thenThrow?: Error;
}

/**
 * A run-once harness whose operation writes one ledger row in commit(), with
 * completion "single-transaction", and counts how often its work ran.
 */
export async function createLedgerHarness(opts: Parameters<typeof createRunOnceHarness>[0] = {}) {
  const app = await createRunOnceHarness(opts);
  await app.db.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS "${LEDGER_TABLE}" ("id" TEXT PRIMARY KEY)`);
  let works = 0;

  const request = (entry: LedgerEntry) => ({
    scope: { caller: CALLER, path: "ledger", key: entry.key },
    fingerprint: ledgerFingerprint(entry),
    completion: "single-transaction" as const,
  });

  /** Runs the ledger operation, or any other operation, under the entry's key. */
  const runOperation = (entry: LedgerEntry, operation: Operation<Tx, unknown>): Promise<RunResult> =>
    app.runOnce.run(request(entry), operation);

  const run = (entry: LedgerEntry, behaviour: LedgerBehaviour = {}): Promise<RunResult> =>
    runOperation(entry, ({ commit }) =>
      commit(async (tx) => {
        works++;
        const id = randomUUID();
        await tx.$executeRaw`INSERT INTO "SingleTransactionLedger" ("id") VALUES (${id})`;
        await behaviour.held;
        if (behaviour.thenThrow) throw behaviour.thenThrow;
        return { id, value: entry.value };
      }),
    );

  return {
    app,
    run,
    runOperation,
    get works() {
      return works;
    },
    async ledgerRows(): Promise<string[]> {
      const rows = await app.db.$queryRawUnsafe<Array<{ id: string }>>(`SELECT "id" FROM "${LEDGER_TABLE}"`);
      return rows.map((row) => row.id);
    },
  };
}

export type LedgerHarness = Awaited<ReturnType<typeof createLedgerHarness>>;

export function ledgerFingerprint(entry: LedgerEntry): string {
  return fingerprint("ledger", { value: entry.value });
}

/**
 * The ledger operation's owner in a process of its own (testing/single-transaction-worker.ts):
 * `inside` resolves once it holds its transaction open, `result` with its run's result.
 */
export function startOwnerProcess(
  databaseUrl: string,
  entry: LedgerEntry,
  holdMs?: number,
): { inside: Promise<void>; result: Promise<RunResult>; kill: () => Promise<void> } {
  // tsx as a loader, not its CLI: one process, so that the SIGKILL reaches the owner itself.
  const worker = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(ROOT, "testing/single-transaction-worker.ts"),
      JSON.stringify({
        databaseUrl,
        scope: { caller: CALLER, path: "ledger", key: entry.key },
        fingerprint: ledgerFingerprint(entry),
        ledgerTable: LEDGER_TABLE,
        holdMs,
      }),
    ],
    { cwd: ROOT, env: { ...process.env, NODE_ENV: "test" }, stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  const exited = new Promise<number | null>((resolve) => worker.on("exit", resolve));
  const inside = new Promise<void>((resolve, reject) => {
    worker.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("inside\n")) resolve();
    });
    void exited.then((code) => reject(new Error(`the owner process exited (${code}) before its work ran`)));
  });
  const result = exited.then((code) => {
    const last = output.trim().split("\n").at(-1);
    if (code !== 0 || !last?.startsWith("{"))
      throw new Error(`the owner process failed (${code}): ${output}`);
    return JSON.parse(last) as RunResult;
  });
  result.catch(() => undefined);
  inside.catch(() => undefined);
  return {
    inside,
    result,
    async kill() {
      worker.kill("SIGKILL");
      await exited;
    },
  };
}
