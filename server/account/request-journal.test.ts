import { expect } from "vitest";
import { test } from "~/testing/fixtures";
import { REQUESTS_KEPT_PER_KEY } from "./request-record";
import type { RequestRecord } from "./request-record";
import type { AppServices } from "../services";

const scope = { caller: "journal", path: "p", key: "storm" };

/** Request `i` of a storm on one key, answered from it. */
const duplicate = (i: number): RequestRecord => ({
  id: crypto.randomUUID(),
  scope,
  at: new Date(i),
  instance: "test",
  generation: null,
  decision: i % 2 ? "replayed" : "coalesced",
  keyState: "completed",
  fingerprint: "f",
  body: {},
  status: 200,
  durationMs: 1,
  replyLost: false,
  retryAfterSeconds: null,
  keyExpiresAt: null,
  sentBy: "client",
});

/** The statements the shop has sent its database so far (db_queries_total). */
async function statementsOf(services: { metrics: AppServices["metrics"] }): Promise<number> {
  return (await services.metrics.registry.getSingleMetric("db_queries_total")!.get()).values[0]?.value ?? 0;
}

test("writes a storm's batch of 1,000 duplicates in three statements: the newest rows, the cap, the replay count", async ({
  startApp,
}) => {
  const { services } = await startApp();
  const now = new Date();
  await services.db.idempotencyKey.create({
    data: {
      id: "k",
      ...{ scope: scope.caller, path: scope.path, key: scope.key },
      fingerprint: "f",
      state: "COMPLETED",
      token: "t",
      lockedUntil: now,
      expiresAt: new Date(now.getTime() + 60_000),
    },
  });
  const before = await statementsOf(services);
  await services.account.journal.append(
    Array.from({ length: 1000 }, (_, i) => duplicate(i)),
    REQUESTS_KEPT_PER_KEY,
  );

  // Inserting every record would take 17 INSERTs on SQLite (its limit on bound values).
  expect((await statementsOf(services)) - before).toBe(3);
  const kept = await services.account.journal.list(scope.caller, scope.path, [scope.key]);
  expect(kept.map((r) => r.at.getTime())).toEqual(Array.from({ length: 50 }, (_, i) => 950 + i));
  const key = await services.db.idempotencyKey.findUniqueOrThrow({ where: { id: "k" } });
  expect(key.replayCount).toBe(1000);
});

test("completes an in-flight row in place: one row per request, its ending counted once", async ({
  startApp,
}) => {
  const { services } = await startApp();
  const inFlight = { ...duplicate(1), decision: null, status: null };
  await services.account.journal.append([inFlight], REQUESTS_KEPT_PER_KEY);
  await services.account.journal.append(
    [{ ...inFlight, decision: "coalesced", status: 200 }],
    REQUESTS_KEPT_PER_KEY,
  );
  const kept = await services.account.journal.list(scope.caller, scope.path, [scope.key]);
  expect(kept.map((r) => [r.id, r.decision, r.status])).toEqual([[inFlight.id, "coalesced", 200]]);
});

test("writes a batch of 300 first executions, as steady load makes them, in one statement", async ({
  startApp,
}) => {
  const { services } = await startApp();
  const before = await statementsOf(services);
  const firsts = Array.from({ length: 300 }, (_, i) => ({
    ...duplicate(i),
    scope: { ...scope, key: `k${i}` },
    decision: "executed" as const,
    keyState: "absent" as const,
  }));
  await services.account.journal.append(firsts, REQUESTS_KEPT_PER_KEY);

  expect((await statementsOf(services)) - before).toBe(1);
  const written = await services.account.journal.list(scope.caller, scope.path);
  expect(written.map((r) => [r.scope.key, r.decision, r.at.getTime()])).toEqual(
    firsts.map((r) => [r.scope.key, "executed", r.at.getTime()]),
  );
});

test("never writes a run back to in flight: a batch taken before its transaction wrote its ending may land after it", async ({
  startApp,
}) => {
  const { services } = await startApp();
  const inFlight = { ...duplicate(1), decision: null, status: null };
  await services.account.journal.write(services.db, [{ ...inFlight, decision: "executed", status: 200 }]);
  await services.account.journal.append([inFlight], REQUESTS_KEPT_PER_KEY);
  const kept = await services.account.journal.list(scope.caller, scope.path, [scope.key]);
  expect(kept.map((r) => [r.decision, r.status])).toEqual([["executed", 200]]);
});
