/** `npm start` and `npm run dev`: the database, the provider, the receipt worker and the shop(s). */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PROVIDER_DEFAULT_PORT } from "../provider/defaults";
import { startRoundRobinProxy } from "../server/cluster/round-robin-proxy";

const ROOT = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);
const mode = process.argv[2] === "dev" ? "dev" : "start";
const instances = Number(process.env.INSTANCES ?? "1");
if (!Number.isInteger(instances) || instances < 1 || (mode === "dev" && instances > 1)) {
  console.error(
    `INSTANCES must be a whole number from 1, and 1 with \`npm run dev\`: it is ${process.env.INSTANCES}.`,
  );
  process.exit(1);
}

const prepared = spawnSync(bin("tsx"), ["prisma/prepare-database.ts"], { cwd: ROOT, stdio: "inherit" });
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

const children: ChildProcess[] = [];
const stopAll = (code: number) => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
};
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopAll(0));

/** Runs a process; given a name, one killed by a signal is started again under it. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, restartAs?: string): void {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
  children.push(child);
  child.once("exit", (code, signal) => {
    // An exit with a code (a failed start, say) would only fail again: it stops everything.
    if (!restartAs || signal === null) return stopAll(code ?? 1);
    children.splice(children.indexOf(child), 1);
    console.log(`${restartAs} was killed (${signal}): starting it again.`);
    run(command, args, env, restartAs);
  });
}

let providerUrl = process.env.PAYMENT_PROVIDER_URL;
// The provider started here signs its webhooks with a secret made for this run, unless one is given.
const webhookSecret =
  process.env.WEBHOOK_SECRET ?? (providerUrl ? undefined : `whsec_${randomBytes(24).toString("hex")}`);
if (!providerUrl) {
  const port = process.env.PROVIDER_PORT ?? String(PROVIDER_DEFAULT_PORT);
  providerUrl = `http://127.0.0.1:${port}`;
  run(bin("tsx"), ["provider/main.ts"], {
    ...process.env,
    PROVIDER_PORT: port,
    PROVIDER_WEBHOOK_URL:
      process.env.PROVIDER_WEBHOOK_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}/api/webhooks/stripe`,
    WEBHOOK_SECRET: webhookSecret,
  });
  await untilAnswers(`${providerUrl}/health`, "The payment provider");
}
const shopEnv = { ...process.env, PAYMENT_PROVIDER_URL: providerUrl, WEBHOOK_SECRET: webhookSecret };
// The receipt worker (server/receipts/): node with tsx as a loader, one process, so that its own SIGKILL ends it.
run(process.execPath, ["--import", "tsx", "server/receipts/main.ts"], shopEnv, "The receipt worker");
if (instances === 1) {
  run(bin("next"), [mode], shopEnv, `The shop on port ${process.env.PORT ?? 3000}`);
} else {
  const port = Number(process.env.PORT ?? "3000");
  const targets = Array.from({ length: instances }, (_, i) => {
    const instancePort = String(port + 1 + i);
    run(
      bin("next"),
      ["start", "-p", instancePort],
      { ...shopEnv, PORT: instancePort },
      `The shop on port ${instancePort}`,
    );
    return `http://127.0.0.1:${instancePort}`;
  });
  // The proxy opens once every instance answers: none starts out of the rotation for refusing.
  await Promise.all(targets.map((target) => untilAnswers(`${target}/api/trpc/catalog.list`, "The shop")));
  await startRoundRobinProxy({ targets, port, host: "0.0.0.0" });
  console.log(`The round-robin proxy on http://localhost:${port} sends each request to the next of:`);
  for (const target of targets) console.log(`  ${target}`);
}

async function untilAnswers(url: string, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answered = await fetch(url)
      .then((response) => response.ok)
      .catch(() => false);
    if (answered) return;
    await sleep(200);
  }
  console.error(`${what} did not answer at ${url} within ${timeoutMs / 1000} s.`);
  stopAll(1);
}
