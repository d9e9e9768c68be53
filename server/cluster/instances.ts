import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import getPort from "get-port";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

/** However this process ends, the servers it started end with it. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface Instance {
  port: number;
  url: string;
  process: ChildProcess;
}

export interface Cluster {
  instances: Instance[];
  /** Kills one instance at once, as a crash would (SIGKILL: no cleanup, no reply). */
  crash(index: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `count` production servers (`next start`) on one database, after
 * preparing it once: on consecutive ports from `basePort`, or on free ports
 * (tests, which run side by side). The build must exist (`npm run build`).
 */
export async function startInstances(opts: {
  databaseUrl: string;
  count?: number;
  /** The first of consecutive ports; free ones when omitted. */
  basePort?: number;
  env?: Record<string, string>;
  output?: "inherit" | "ignore";
}): Promise<Cluster> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error("No production build: run `npm run build` first.");
  }
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...opts.env, DATABASE_URL: opts.databaseUrl };
  execFileSync("npm", ["run", "--silent", "db:prepare"], { cwd: ROOT, env, stdio: "pipe" });

  const count = opts.count ?? 3;
  const ports =
    opts.basePort === undefined
      ? await freePorts(count)
      : Array.from({ length: count }, (_, i) => opts.basePort! + i);
  const instances = ports.map((port): Instance => {
    const child = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port)], {
      cwd: ROOT,
      env: { ...env, PORT: String(port) },
      stdio: opts.output === "inherit" ? ["ignore", "inherit", "inherit"] : "ignore",
    });
    running.add(child);
    child.once("exit", () => running.delete(child));
    return { port, url: `http://localhost:${port}`, process: child };
  });
  const cluster: Cluster = {
    instances,
    async crash(index) {
      const instance = instances[index];
      if (!instance) throw new Error(`no instance ${index}`);
      await kill(instance.process, "SIGKILL");
    },
    async stop() {
      await Promise.all(instances.map((instance) => kill(instance.process, "SIGTERM")));
    },
  };
  try {
    await Promise.all(instances.map((instance) => waitUntilReady(instance)));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** Distinct free ports (get-port also keeps those it handed out lately from being handed out again). */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await getPort({ host: "127.0.0.1", exclude: ports }));
  return ports;
}

async function waitUntilReady(instance: Instance, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (instance.process.exitCode !== null) throw new Error(`instance on ${instance.port} exited`);
    const ready = await fetch(`${instance.url}/api/trpc/catalog.list`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ready) return;
    await sleep(200);
  }
  throw new Error(`instance on ${instance.port} did not answer within ${timeoutMs} ms`);
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}
