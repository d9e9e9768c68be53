import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

test("paying offline says so, shows the try waiting, and sends it with the same key when the connection returns", async ({
  shop,
  page,
  context,
  consoleErrors,
}) => {
  // The order page's account, read every 1.5 s, may be on its way when the connection drops.
  consoleErrors.expect(/net::ERR_INTERNET_DISCONNECTED/);
  await shop.placeOrder({ notebook: 1 });
  const paymentKey = await shop.paymentKey();

  await context.setOffline(true);
  await shop.payButton().click();
  await expect(shop.status()).toContainText("You are offline.");
  await expect(shop.status()).toContainText("will be sent with its key");
  await expect(page.getByTestId("connection-notice")).toContainText("You are offline.");
  await expect(shop.tries().last()).toHaveAttribute("data-outcome", "waiting");
  await expect(shop.tries().last()).toContainText("waiting for the connection: not sent yet");
  await expect(page.getByRole("button", { name: "Waiting for the connection…" })).toBeDisabled();
  await shop.capture("offline, payment waiting");

  await context.setOffline(false);
  await expect(shop.status()).toHaveText("Paid. Charged $12.00 to •••• 4242, once.");
  // The payment went out once the connection was back, with the order's key.
  await shop.expectServerAnswered(paymentKey, 1);
  await expect(shop.tries().last()).toHaveAttribute("data-decision", "executed");
});

test("a card field whose script the lost connection cut off loads again when it returns, and the payment goes on", async ({
  shop,
  page,
  context,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_INTERNET_DISCONNECTED/);
  // The field's page came, its script did not: the frame never says it is ready.
  await page.route(/card-field\.js$/, (route) => route.abort("internetdisconnected"), { times: 1 });
  await shop.placeOrder({ notebook: 1 });
  await context.setOffline(true);
  await shop.payButton().click();
  await expect(shop.status()).toContainText("You are offline.");

  await context.setOffline(false);
  await expect(shop.status()).toHaveText("Paid. Charged $12.00 to •••• 4242, once.");
});

/** What the page says at one moment: the status line, the Pay button, the charges, the order's badge and the lit key stage. */
function sampleView(page: Page) {
  return page.evaluate(() => {
    const text = (selector: string) => document.querySelector(selector)?.textContent?.trim() ?? null;
    const pay = [...document.querySelectorAll("button")].find((button) =>
      /^(Pay|Finish payment)/.test(button.textContent ?? ""),
    );
    return {
      status: text('[data-testid="payment-status"]') ?? "",
      payEnabled: pay !== undefined && !pay.disabled,
      charges: text('[data-testid="charge-count"]'),
      badge: text('[data-testid="order-status"]'),
      keyStage:
        document
          .querySelector('[data-testid="key-lifecycle"] [aria-current="step"]')
          ?.getAttribute("data-stage") ?? null,
    };
  });
}

/** The contradictions of one sample: a charge said beside a way to pay again, or beside words that deny it. */
function contradictions(sample: Awaited<ReturnType<typeof sampleView>>): string[] {
  if (!/Paid|Charged/.test(sample.status)) return [];
  return [
    sample.payEnabled && "an enabled Pay",
    sample.charges?.startsWith("No charge") && `"${sample.charges}"`,
    sample.badge === "PENDING" && "a PENDING badge",
    sample.keyStage === "absent" && "the key Absent",
  ].filter((found): found is string => typeof found === "string");
}

for (const offlineAfterMs of [30, 50]) {
  test(`offline ${offlineAfterMs} ms after Pay: sampled every 100 ms for 3 s the page never contradicts itself, and it finishes by itself on reconnect`, async ({
    shop,
    page,
    context,
    consoleErrors,
  }) => {
    consoleErrors.expect(/net::ERR_INTERNET_DISCONNECTED/, /Failed to fetch/);
    const orderId = await shop.placeOrder({ notebook: 1 });
    await shop.payButton().click();
    await page.waitForTimeout(offlineAfterMs);
    await context.setOffline(true);

    const seen: string[] = [];
    for (let sample = 0; sample < 30; sample++) {
      const view = await sampleView(page);
      for (const found of contradictions(view))
        seen.push(`${sample * 100} ms: "${view.status}" beside ${found}`);
      await page.waitForTimeout(100);
    }
    expect(seen).toEqual([]);

    // Back online, nothing to press: the payment goes on by itself, with its key, from whatever step it was at.
    await context.setOffline(false);
    await expect(shop.status()).toHaveText("Paid. Charged $12.00 to •••• 4242, once.", { timeout: 10_000 });
    await expect(shop.payButton()).toHaveCount(0);
    await shop.expectLedger(orderId, 1);
  });
}
