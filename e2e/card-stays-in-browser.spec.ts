import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { tablesHolding } from "./tables-holding";

/**
 * The card goes from the browser to the payment provider, as Stripe.js sends
 * it, and the shop receives only the payment method the provider made of it:
 * every request the page makes is recorded and searched for the number.
 */

const TYPED_CARD = "5555 5555 5555 4444";
/** The number however a request may carry it: its digits, together or grouped (spaces, encoded or not, or dashes). */
const TYPED_CARD_ANYWHERE = /5555(?:[\s+-]|%20)?5555(?:[\s+-]|%20)?5555(?:[\s+-]|%20)?4444/;

/** Whether the request carries the typed card anywhere: its URL, its headers or its body. */
const carriesCard = (request: Request) =>
  TYPED_CARD_ANYWHERE.test(
    [request.url(), JSON.stringify(request.headers()), request.postData() ?? ""].join("\n"),
  );

/** Records every request the page makes from now on. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on("request", (request) => requests.push(request));
  return requests;
}

const isPaymentMethodCreation = (request: Request) =>
  request.method() === "POST" && new URL(request.url()).pathname === "/v1/payment_methods";

test("a typed card goes to the payment provider only; the shop gets its payment method and charges it", async ({
  shop,
  page,
  db,
  databaseUrl,
}) => {
  const orderId = await shop.placeOrder({ notebook: 1 });
  const shopOrigin = new URL(page.url()).origin;
  const requests = recordRequests(page);

  await page.getByLabel("Card number").fill(TYPED_CARD);
  await page.getByLabel("Expiry").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await shop.payButton().click();
  await expect(shop.status()).toHaveText("Paid. Charged $12.00 to •••• 4444, once.");

  const toShop = requests.filter((request) => new URL(request.url()).origin === shopOrigin);
  expect(toShop.length).toBeGreaterThan(0);
  expect(toShop.filter(carriesCard).map((request) => request.url())).toEqual([]);
  // One request carries it: the payment method's creation, at the provider, with the publishable key.
  const withCard = requests.filter(carriesCard);
  expect(withCard).toHaveLength(1);
  const creation = withCard[0]!;
  expect(isPaymentMethodCreation(creation)).toBe(true);
  expect(new URL(creation.url()).origin).not.toBe(shopOrigin);
  expect(creation.headers().authorization).toMatch(/^Bearer pk_test_/);

  // The charge names the payment method the provider answered with, and nothing of the card.
  const paymentMethod = ((await (await creation.response())!.json()) as { id: string }).id;
  const charges = requests.filter((request) => request.url() === `${shopOrigin}/api/trpc/payments.charge`);
  expect(charges.map((request) => request.postDataJSON() as Record<string, unknown>)).toEqual([
    expect.objectContaining({ orderId, paymentMethodId: paymentMethod }),
  ]);
  await shop.expectLedger(orderId, 1);
  // Nor does any table of the shop's database hold it, whatever else the run has written there.
  expect(await tablesHolding(db, databaseUrl, TYPED_CARD_ANYWHERE)).toEqual([]);
});

test("a declined test card is declined by the provider through the same road", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 402/);
  const orderId = await shop.placeOrder({ notebook: 1 });
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await shop.payButton().click();
  await expect(shop.status()).toContainText(
    "Declined: Your card was declined. No charge was made to the card ending 0002.",
  );
  await shop.expectLedger(orderId, 0);
});

test("a provider that does not answer is said so in the form, and nothing goes to the shop", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/ERR_FAILED/);
  await shop.placeOrder({ notebook: 1 });
  await page.route(
    (url) => url.pathname === "/v1/payment_methods",
    (route) => route.abort(),
  );
  const requests = recordRequests(page);
  await shop.payButton().click();
  await expect(page.getByTestId("card-error")).toHaveText(
    "The payment provider did not answer: nothing was charged. Check the connection and press Pay again.",
  );
  await expect(shop.payButton()).toBeEnabled();
  expect(requests.filter((request) => request.url().includes("payments.charge"))).toEqual([]);
});
