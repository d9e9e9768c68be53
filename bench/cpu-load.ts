import { spawn } from "node:child_process";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";

/** How long the load may take to show in the one-minute load average before `work` runs anyway. */
const RAMP_LIMIT_MS = 150_000;

/** Runs `work` while `busy` processes spin, once the one-minute load average reads `busy` or more. */
export async function underLoad<T>(
  busy: number,
  work: (loadAverage: () => number) => Promise<T>,
): Promise<T> {
  const spinners = Array.from({ length: busy }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
  try {
    const startedAt = Date.now();
    while (os.loadavg()[0]! < busy && Date.now() - startedAt < RAMP_LIMIT_MS) await sleep(1_000);
    return await work(() => os.loadavg()[0]!);
  } finally {
    for (const spinner of spinners) spinner.kill("SIGKILL");
  }
}
