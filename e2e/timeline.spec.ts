import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";

const CHARGE = "**/api/trpc/payments.charge";

/** Every duration a lane shows, in seconds. */
async function durations(lanes: Locator): Promise<number[]> {
  const texts = await lanes.locator(".lane-outcome").allTextContents();
  return texts.flatMap((text) =>
    [...text.matchAll(/(-?\d+(?:\.\d+)?) s\b/g)].map((match) => Number(match[1])),
  );
}

test("when every try fails, the last one is not called retried, and each retry names the try it retried", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_CONNECTION_REFUSED/);
  await shop.placeOrder({ notebook: 1 });
  await page.route(CHARGE, (route) => route.abort("connectionrefused"));

  await shop.payButton().click();
  await expect(shop.tries()).toHaveCount(5);
  await expect(shop.tries().last()).toHaveAttribute("data-outcome", "network_error");
  for (const index of [1, 2, 3, 4]) {
    await expect(shop.tries().nth(index)).toContainText(`retry of try ${index}`);
  }
  // Nothing came after the last one.
  await expect(shop.tries().last().locator(".lane-outcome")).not.toContainText("retried");
  await expect(shop.status()).toContainText("No answer from the server");
  for (const seconds of await durations(shop.tries())) expect(seconds).toBeGreaterThanOrEqual(0);
  await shop.capture("every try failed");
});

test("three quick submits: one execution, two coalesced, none called interrupted, no negative duration", async ({
  shop,
  page,
}) => {
  await shop.placeOrder({ headphones: 1 });
  const paymentKey = await shop.paymentKey();

  await page.getByTestId("pay-form").evaluate((form: HTMLFormElement) => {
    form.requestSubmit();
    form.requestSubmit();
    form.requestSubmit();
  });
  await shop.expectCharged();
  await shop.expectServerAnswered(paymentKey, 3);

  await expect(shop.tries()).toHaveCount(3);
  const decisions = await shop
    .tries()
    .evaluateAll((lanes) => lanes.map((lane) => lane.getAttribute("data-decision")));
  // The server ran one, and shared it with the others (coalesced), or answered them from the store (replayed).
  const others = decisions.filter((decision) => decision !== "executed");
  expect(others).toHaveLength(2);
  for (const decision of others) expect(decision).toMatch(/^(coalesced|replayed)$/);
  await expect(page.locator('.lane[data-outcome="interrupted"]')).toHaveCount(0);
  for (const seconds of await durations(shop.tries())) expect(seconds).toBeGreaterThanOrEqual(0);
  await shop.capture("three quick submits");
});

test("a try cut off by a reload during a backoff says so, and not that it was retried or waited", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 409/);
  await shop.placeOrder({ "ceramic-mug": 1 });
  // The first answer is a 409 that asks for a 5 s wait: the reload comes within it.
  let answered = false;
  await page.route(CHARGE, async (route) => {
    if (answered) return route.continue();
    answered = true;
    await route.fulfill({
      status: 409,
      contentType: "application/json",
      headers: { "Retry-After": "5" },
      body: JSON.stringify({
        error: { message: "busy", code: -32009, data: { code: "CONFLICT", httpStatus: 409 } },
      }),
    });
  });
  await shop.payButton().click();
  await expect(shop.tries().first()).toHaveAttribute("data-outcome", "conflict");
  await page.reload();

  await expect(shop.tries()).toHaveCount(1);
  await expect(shop.tries().first()).toContainText("HTTP 409");
  await expect(shop.tries().first()).not.toContainText(/retr|waited/);
  await expect(shop.payButton()).toHaveText(/^Finish payment/);
  await shop.capture("cut off during a backoff");
});

test("the axis is real time: a long idle stretch is compressed and marked, and the tries keep their width", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 402/);
  await page.clock.install();
  await shop.placeOrder({ backpack: 1 });
  await shop.typeCard("4000 0000 0000 0002");
  await shop.payButton().click();
  await expect(shop.status()).toContainText("Declined");

  // The customer takes forty seconds to find another card.
  await page.clock.fastForward("00:40");
  await shop.typeCard("4242 4242 4242 4242");
  await shop.payButton().click();
  await expect(page.getByTestId("order-status")).toHaveText("PAID");

  await expect(page.getByTestId("axis-gap")).toHaveText(/^4\d s idle$/);
  const widths = await shop
    .tries()
    .locator(".lane-bar")
    .evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
  const track = await shop
    .tries()
    .first()
    .locator(".lane-track")
    .evaluate((el) => el.clientWidth);
  // Without the compression, a 0.1 s try next to 40 s of idling would be a sliver of 0.25%.
  for (const width of widths) expect(width / track).toBeGreaterThan(0.1);
  await expect(page.getByTestId("time-axis")).toContainText("0 s");
  await shop.capture("idle gap compressed");
});
