import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { expect, it } from "vitest";
import { createTestDatabase } from "./test-support/test-database";

const CHURN_MS = 60_000;

it(
  "a plain Node process holding owner sessions survives sessions terminated every 5-25 ms for a minute",
  async () => {
    const database = await createTestDatabase();
    const name = `run-once churn ${process.pid}`;
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join(import.meta.dirname, "test-support", "owner-sessions-churn.ts"),
        database.url,
        name,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    const held: number[] = [];
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n").filter(Boolean))
        held.push((JSON.parse(line) as { held: number }).held);
    });
    const killer = new pg.Client(database.url);
    await killer.connect();
    try {
      let terminated = 0;
      for (const end = Date.now() + CHURN_MS; Date.now() < end && child.exitCode === null;) {
        const { rows } = await killer.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
          [name],
        );
        terminated += rows.length;
        await sleep(5 + Math.random() * 20);
      }
      expect(stderr).toBe("");
      expect(child.exitCode).toBeNull();
      expect(terminated).toBeGreaterThan(1_000);
      // It still claims: more held in its last reported five seconds than none.
      expect(held.at(-1)!).toBeGreaterThan(held.at(-6)!);

      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
      expect(stderr).toBe("");
    } finally {
      child.kill("SIGKILL");
      await killer.end();
      await database.close();
    }
  },
  CHURN_MS + 30_000,
);
