import { expect } from "vitest";
import { trpcPost } from "~/testing/api-client";
import { test } from "~/testing/fixtures";
import { newSignedSession } from "~/testing/signed-session";
import { startTestProvider } from "~/testing/test-provider";
import type { TestApp } from "~/testing/test-app";
import { handleTrpcRequest } from "../trpc/http-handler";
import { labAppRouter } from "../lab/lab-router";

/** With the payment provider down, what reaches it answers 503 with Retry-After: never a 500. */
test("the lab's switches and the ledger's reconciliation with the provider down: 503, and no switch changed", async ({
  startApp,
}) => {
  const provider = await startTestProvider();
  try {
    // Nothing listens on port 1: the provider is down from the shop's side.
    const app: TestApp = await startApp({
      lab: true,
      paymentProvider: { ...provider, url: "http://127.0.0.1:1" },
    });
    const { id, cookie } = await newSignedSession(app.services.db);
    const order = await app.caller(id).orders.place({
      submissionKey: crypto.randomUUID(),
      items: [{ sku: "notebook", quantity: 1 }],
    });
    const send = (request: Request) => handleTrpcRequest(request, app.services, labAppRouter);
    const switches = { orderId: order.id, shop: { dropReplies: 1 }, provider: { decline: true } };

    for (const response of [
      await send(trpcPost("lab.setSwitches", switches, cookie)),
      await send(new Request("http://shop.test/api/trpc/ledger.reconciliation", { headers: { cookie } })),
    ]) {
      expect(response.status).toBe(503);
      expect(Number(response.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      const { error } = (await response.json()) as { error: { data: { reason: string } } };
      expect(error.data.reason).toBe("PROVIDER_UNAVAILABLE");
    }
    expect(await app.services.db.labSwitches.findUnique({ where: { orderId: order.id } })).toBeNull();
  } finally {
    await provider.close();
  }
});
