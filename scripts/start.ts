/**
 * `npm start` and `npm run dev`: prepares the shop's database, starts the
 * payment provider as a process of its own (unless PAYMENT_PROVIDER_URL names
 * one already running), waits until it answers, then starts the shop on it.
 * Ctrl-C, or either process ending, stops both.
 * Usage: tsx scripts/start.ts start|dev
 *
 * A few lines of child_process rather than a process manager (concurrently,
 * pm2): the shop must start after the provider answers, with its URL, and
 * only when no provider was given; those tools run commands side by side.
 */
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { PROVIDER_DEFAULT_PORT } from "../provider/defaults";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const mode = process.argv[2] === "dev" ? "dev" : "start";

const prepared = spawnSync(bin("tsx"), ["prisma/prepare-database.ts"], { cwd: ROOT, stdio: "inherit" });
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

const children: ChildProcess[] = [];
const stopAll = (code: number) => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopAll(0));

function run(command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
  child.once("exit", (code) => stopAll(code ?? 1));
  children.push(child);
  return child;
}

let providerUrl = process.env.PAYMENT_PROVIDER_URL;
if (!providerUrl) {
  const port = process.env.PROVIDER_PORT ?? String(PROVIDER_DEFAULT_PORT);
  providerUrl = `http://127.0.0.1:${port}`;
  run(bin("tsx"), ["provider/main.ts"], { ...process.env, PROVIDER_PORT: port });
  await untilAnswers(`${providerUrl}/health`);
}
run(bin("next"), [mode], { ...process.env, PAYMENT_PROVIDER_URL: providerUrl });

async function untilAnswers(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await sleep(200);
  }
  console.error(`The payment provider did not answer at ${url} within ${timeoutMs / 1000} s.`);
  stopAll(1);
}
