import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { newSessionId } from "../session";
import { ROOT } from "~/testing/paths";
import { test } from "~/testing/fixtures";

const run = promisify(execFile);
const WORKER = path.join(ROOT, "testing/charge-race-worker.ts");

test("charges once when two Node processes race ten duplicates each on one database", async ({
  startApp,
}) => {
  const app = await startApp();
  const sessionId = newSessionId();
  const order = await app.caller(sessionId).orders.place({
    submissionKey: "form",
    items: [{ sku: "backpack", quantity: 1 }],
  });
  const args = {
    databaseUrl: app.database.url,
    provider: { url: app.paymentProvider.url, apiKey: app.paymentProvider.apiKey },
    sessionId,
    orderId: order.id,
    amountCents: order.totalCents,
    paymentKey: order.paymentKey,
    startAt: Date.now() + 4_000,
    concurrency: 10,
  };

  const outputs = await Promise.all(
    [0, 1].map(() =>
      run(path.join(ROOT, "node_modules/.bin/tsx"), [WORKER, JSON.stringify(args)], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "test" },
      }),
    ),
  );
  const reports = outputs.map(
    (output) =>
      JSON.parse(output.stdout) as {
        results: Array<{ ok: boolean; data?: unknown; error?: string }>;
        chargeCalls: number;
        sentAt: number;
        answeredAt: number;
      },
  );
  const results = reports.flatMap((report) => report.results);

  // The processes really raced: each sent its calls before the other had its answers.
  const [a, b] = reports as [(typeof reports)[0], (typeof reports)[0]];
  expect(Math.max(a.sentAt, b.sentAt)).toBeLessThan(Math.min(a.answeredAt, b.answeredAt));
  expect(results).toHaveLength(20);
  expect(results.filter((result) => !result.ok)).toEqual([]);
  expect(new Set(results.map((result) => JSON.stringify(result.data))).size).toBe(1);
  expect(reports.reduce((sum, report) => sum + report.chargeCalls, 0)).toBe(1);
  expect(await app.paymentProvider.executions()).toBe(1);
  expect(await app.services.db.charge.count({ where: { orderId: order.id } })).toBe(1);
}, 60_000);
