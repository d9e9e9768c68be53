import { expect } from "vitest";
import { apiClient, dataOf } from "~/testing/api-client";
import { newSignedSession } from "~/testing/signed-session";
import { clusterTest } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";

/**
 * /api/metrics is scraped by whoever runs the shop, and must say how many and
 * how fast, never whose: no session id, order id, key or charge id, whatever
 * the requests before the scrape carried.
 */
const test = clusterTest({ count: 1 });

test("carries no session id, order id, key or charge id", async ({ running: { db, urls } }) => {
  const baseUrl = urls[0]!;
  const session = await newSignedSession(db);
  const api = apiClient(baseUrl, session.cookie);
  const submissionKey = `sub_${crypto.randomUUID()}`;
  const order = dataOf<{ id: string; totalCents: number; paymentKey: string }>(
    await api.post("orders.place", { submissionKey, items: [{ sku: "notebook", quantity: 1 }] }),
  );
  const body = chargeBody(order);
  const paid = await api.post("payments.charge", body);
  const replayed = await api.post("payments.charge", body);
  const refused = await api.post("payments.charge", { ...body, idempotencyKey: "made-up-key-4711" });
  const misrouted = await api.post(`payments.charge,${order.id}?batch=1`, { 0: body, 1: body });
  expect([paid.status, replayed.status, refused.status, misrouted.status]).toEqual([200, 200, 412, 207]);
  const { chargeId } = dataOf<{ chargeId: string }>(paid);

  const response = await fetch(`${baseUrl}/api/metrics`);
  expect(response.status).toBe(200);
  const metrics = await response.text();
  for (const secret of [
    session.id,
    order.id,
    order.paymentKey,
    submissionKey,
    "made-up-key-4711",
    chargeId,
  ]) {
    expect(metrics).not.toContain(secret);
  }
  // It does count what happened: the replays, by procedure.
  expect(metrics).toMatch(
    /idempotency_requests_total\{procedure="payments.charge",outcome="replayed"\} [1-9]/,
  );
});
