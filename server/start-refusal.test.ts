import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import getPort from "get-port";
import { expect, onTestFinished, test } from "vitest";
import { ROOT } from "~/testing/paths";

/** Whether something listens on the port now. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
      .once("connect", () => resolve(true))
      .once("error", () => resolve(false));
    socket.unref();
    setTimeout(() => socket.destroy(), 200);
  });

test("`npm start` with a webhook key TTL shorter than the retry window stops at once: one sentence, exit 1, nothing prepared, no port bound", async () => {
  const folder = await mkdtemp(path.join(tmpdir(), "start-refusal-"));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  const [port, providerPort] = [await getPort(), await getPort()];
  const { PAYMENT_PROVIDER_URL: _provider, WEBHOOK_SECRET: _secret, ...inherited } = process.env;
  const start = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/start.ts", "start"], {
    cwd: ROOT,
    env: {
      ...inherited,
      INSTANCES: "1",
      PORT: String(port),
      PROVIDER_PORT: String(providerPort),
      DATABASE_URL: `file:${folder}/shop.db`,
      PROVIDER_DATABASE_URL: `file:${folder}/provider.db`,
      WEBHOOK_KEY_TTL_MS: "60000",
      WEBHOOK_RETRY_WINDOW_MS: "3600000",
    },
  });
  // SIGTERM: start.ts stops what it started before it exits.
  onTestFinished(() => void start.kill());
  let stderr = "";
  start.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => start.once("exit", resolve));
  let bound = false;
  for (let ended = false; !ended;) {
    bound ||= (await listening(port)) || (await listening(providerPort));
    ended = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(r, 50, false)),
    ]);
  }

  expect(await exited).toBe(1);
  expect(stderr.trim()).toBe(
    "WEBHOOK_KEY_TTL_MS (60000 ms) is shorter than WEBHOOK_RETRY_WINDOW_MS (3600000 ms): " +
      "an event brought again after its key expired (redelivered or caught up) would be handled again.",
  );
  expect(bound).toBe(false);
  expect(await readdir(folder)).toEqual([]);
}, 90_000);
