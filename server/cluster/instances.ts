import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import getPort from "get-port";
import { onExit } from "signal-exit";
import { PROVIDER_DEFAULT_DATABASE_URL, PROVIDER_DEFAULT_PORT } from "../../provider/defaults";

const ROOT = path.resolve(import.meta.dirname, "../..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

/** However this process ends (a test runner's SIGTERM too), signal-exit ends the servers it started. */
const running = new Set<ChildProcess>();
onExit(() => {
  for (const child of running) child.kill("SIGKILL");
});

type Instance = ReturnType<typeof startProcess>;

const STDERR_TAIL_CHARS = 2_000;

export interface Cluster {
  instances: Instance[];
  provider: Instance;
  /** Kills one instance at once, as a crash would (SIGKILL: no cleanup, no reply). */
  crash(index: number): Promise<void>;
  /** Kills an instance or the provider (SIGKILL) if it still runs, starts it again on its port, and waits until it answers. */
  restart(which: number | "provider"): Promise<void>;
  stop(): Promise<void>;
}

/** The provider and `count` built shops on one prepared database, on ports from `basePort` or free ones. */
export async function startInstances(opts: {
  databaseUrl: string;
  /** The provider's own database; a SQLite file beside the shop's by default. */
  providerDatabaseUrl?: string;
  count?: number;
  /** The first of consecutive ports; free ones when omitted. */
  basePort?: number;
  providerPort?: number;
  env?: Record<string, string>;
  /** Node options for the shop's servers only (e.g. --cpu-prof, which NODE_OPTIONS may not carry). */
  nodeArgs?: string[];
  output?: "inherit" | "ignore";
  /** Hears all that each process writes, stdout and stderr, by its port (instead of `output`). */
  onOutput?: (port: number, text: string) => void;
}): Promise<Cluster> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error("No production build: run `npm run build` first.");
  }
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...opts.env, DATABASE_URL: opts.databaseUrl };
  execFileSync("npm", ["run", "--silent", "db:prepare"], { cwd: ROOT, env, stdio: "pipe" });

  const count = opts.count ?? 3;
  if (opts.basePort !== undefined) {
    return launch(opts, env, [
      ...Array.from({ length: count }, (_, i) => opts.basePort! + i),
      opts.providerPort ?? PROVIDER_DEFAULT_PORT,
    ]);
  }
  // Another test file may take a free port before the bind: then start again on others.
  for (let tries = 1; ; tries++) {
    try {
      return await launch(opts, env, await freePorts(count + 1));
    } catch (error) {
      if (tries === PORT_RACE_TRIES || !(error instanceof PortTakenError)) throw error;
    }
  }
}

const PORT_RACE_TRIES = 3;

class PortTakenError extends Error {}

/** Starts the provider on the last of `ports` and an instance on each of the others, and waits until all answer. */
async function launch(opts: Parameters<typeof startInstances>[0], env: NodeJS.ProcessEnv, ports: number[]) {
  const providerPort = ports.pop()!;
  const startProvider = () =>
    startProcess(
      // tsx as a loader, not its CLI: one process, so a SIGKILL leaves no orphaned child.
      ["--import", "tsx", "provider/main.ts"],
      {
        ...env,
        PROVIDER_PORT: String(providerPort),
        // With a webhook secret, the provider's events go to the first instance, which a test may kill.
        ...(env.WEBHOOK_SECRET && !env.PROVIDER_WEBHOOK_URL
          ? { PROVIDER_WEBHOOK_URL: `http://127.0.0.1:${ports[0]}/api/webhooks/stripe` }
          : {}),
        PROVIDER_DATABASE_URL:
          opts.providerDatabaseUrl ?? process.env.PROVIDER_DATABASE_URL ?? PROVIDER_DEFAULT_DATABASE_URL,
      },
      providerPort,
      opts,
      "127.0.0.1",
    );
  const provider = startProvider();
  const startInstance = (port: number) =>
    startProcess(
      [...(opts.nodeArgs ?? []), NEXT_BIN, "start", "-p", String(port)],
      // PGAPPNAME: each instance's own sessions, by name in pg_stat_activity (pg's default application_name).
      { ...env, PORT: String(port), PAYMENT_PROVIDER_URL: provider.url, PGAPPNAME: `shop ${port}` },
      port,
      opts,
    );
  const instances = ports.map(startInstance);
  const cluster: Cluster = {
    instances,
    provider,
    async crash(index) {
      const instance = instances[index];
      if (!instance) throw new Error(`no instance ${index}`);
      await kill(instance.process, "SIGKILL");
    },
    async restart(which) {
      const old = which === "provider" ? cluster.provider : instances[which];
      if (!old) throw new Error(`no instance ${which}`);
      await kill(old.process, "SIGKILL");
      const started = which === "provider" ? startProvider() : startInstance(old.port);
      if (which === "provider") cluster.provider = started;
      else instances[which] = started;
      await waitUntilReady(started, which === "provider" ? "/health" : "/api/trpc/catalog.list");
    },
    async stop() {
      await Promise.all(
        [...instances, cluster.provider].map((instance) => kill(instance.process, "SIGTERM")),
      );
    },
  };
  try {
    await waitUntilReady(provider, "/health");
    await Promise.all(instances.map((instance) => waitUntilReady(instance, "/api/trpc/catalog.list")));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  { output, onOutput }: Pick<Parameters<typeof startInstances>[0], "output" | "onOutput">,
  host = "localhost",
) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env,
    stdio:
      output === "inherit"
        ? ["ignore", "inherit", "inherit"]
        : ["ignore", onOutput ? "pipe" : "ignore", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  // The end of what it said on stderr, to say why it exited if it does.
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    onOutput?.(port, chunk.toString());
  });
  child.stdout?.on("data", (chunk: Buffer) => onOutput?.(port, chunk.toString()));
  return { port, url: `http://${host}:${port}`, process: child, stderrTail: () => stderr };
}

/** Distinct free ports (get-port also keeps those it handed out lately from being handed out again). */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await getPort({ exclude: ports }));
  return ports;
}

async function waitUntilReady(instance: Instance, probe: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (instance.process.exitCode !== null) {
      const said = instance.stderrTail();
      const message = `the process on ${instance.port} exited: ${said.trim() || "it said nothing"}`;
      throw said.includes("EADDRINUSE") ? new PortTakenError(message) : new Error(message);
    }
    const ready = await fetch(`${instance.url}${probe}`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ready) return;
    await sleep(200);
  }
  throw new Error(`the process on ${instance.port} did not answer within ${timeoutMs} ms`);
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}
