import { describe, expect, onTestFinished, test } from "vitest";
import { DEFAULT_RUN_ONCE_SETTINGS } from "run-once";
import { startTestProvider } from "~/testing/test-provider";
import {
  HttpPaymentProvider,
  PROVIDER_RETRY_SETTINGS,
  PROVIDER_WAIT_BOUND_MS,
} from "./http-payment-provider";

describe("the shop's timeouts to the provider", () => {
  test("leave room for the provider's wait bound: its 409 reaches the shop, which honours Retry-After and gets the one charge", async () => {
    expect(PROVIDER_WAIT_BOUND_MS).toBe(DEFAULT_RUN_ONCE_SETTINGS.waitMs);
    // The first charge holds its key at the provider for 14 s (the lab's "timeout" fault).
    const provider = await startTestProvider({ timeoutHoldMs: 14_000 });
    onTestFinished(() => provider.close());
    const endpoint = { url: provider.url, apiKey: provider.apiKey };
    const orderId = "ord_waitBound";
    await fetch(`${provider.url}/v1/test/faults/${orderId}`, {
      method: "POST",
      headers: { authorization: `Bearer ${provider.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ timeouts: 1 }),
    });
    const first = new HttpPaymentProvider(endpoint);
    const request = {
      amountCents: 1200,
      paymentMethodId: "pm_card_visa",
      orderId,
      paymentKey: "k_wait",
      run: null,
    };
    const held = first.charge(request, "k_wait/charge").catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 200));

    // The shop's duplicate, with its default timeouts, over two tries: a 409 after the provider's
    // wait bound, its Retry-After honoured, then the first charge, shared.
    const shop = new HttpPaymentProvider({
      ...endpoint,
      retry: { ...PROVIDER_RETRY_SETTINGS, maxTries: 2 },
    });
    const startedAt = Date.now();
    const answer = await shop.charge(request, "k_wait/charge");
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(PROVIDER_WAIT_BOUND_MS + 1_000);
    const charges = await provider.db.charge.findMany({ where: { orderRef: orderId } });
    expect(charges).toHaveLength(1);
    expect(answer).toEqual({ charged: expect.objectContaining({ id: charges[0]!.id }) });
    await held;
  }, 40_000);
});
