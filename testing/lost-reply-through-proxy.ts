import { expect } from "vitest";
import { SERVED_BY_HEADER } from "../server/cluster/proxy-headers";
import { apiClient } from "./api-client";
import type { ClusterFixture } from "./fixtures";
import { chargeBody, placeOrderWith } from "./lab-orders";
import type { Switches } from "./lab-orders";
import { newSignedSession } from "./signed-session";

/** How a retry after a lost reply was decided, and what each side charged for the order. */
interface LostReplyRetry {
  decision: string | null;
  charges: number;
  providerCharges: number;
}

/**
 * Pays an order through the round-robin proxy with the lab dropping the
 * first reply (the client's connection breaks after the server's commit),
 * then retries with the same key through the proxy: the retry lands on the
 * other instance, which the helper checks before it answers.
 */
export async function retryAfterLostReply(
  { db, providerDb, proxyUrl }: Pick<ClusterFixture, "db" | "providerDb" | "proxyUrl">,
  opts: {
    procedure: "payments.charge" | "lab.pitfallCharge";
    shop: Switches["shop"];
    /** Reads of the order between the lost reply and its retry, as the order page polls it meanwhile. */
    readsBetween?: number;
  },
): Promise<LostReplyRetry> {
  const { cookie } = await newSignedSession(db);
  const client = apiClient(proxyUrl, cookie);
  const order = await placeOrderWith(client, { shop: { ...opts.shop, dropReplies: 1 } });
  const lost = await fetch(`${proxyUrl}/api/trpc/${opts.procedure}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify(chargeBody(order)),
  });
  await expect(lost.text()).rejects.toThrow();
  for (let read = 0; read < (opts.readsBetween ?? 0); read++) {
    const polled = await client.batchGet([
      ["orders.get", { orderId: order.id }],
      ["orders.serverAccount", { orderId: order.id }],
    ]);
    expect(polled.status).toBe(200);
  }
  const retry = await client.post(opts.procedure, chargeBody(order));
  expect(retry.status).toBe(200);
  expect(retry.headers.get(SERVED_BY_HEADER)).not.toBe(lost.headers.get(SERVED_BY_HEADER));
  return {
    decision: retry.headers.get("Idempotency-Decision"),
    charges: await db.charge.count({ where: { orderId: order.id } }),
    providerCharges: await providerDb.charge.count({ where: { orderRef: order.id } }),
  };
}
