import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { tablesHolding } from "./tables-holding";

/**
 * The card is typed in the provider's hosted card field, a frame from the
 * provider's origin (as Stripe Elements is), and goes from there to the
 * provider; the shop's page receives only the payment method the provider made
 * of it: every request the page and its frames make is recorded and searched
 * for the number, and the shop's document is shown unable to read the field.
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

/** What the shop's own document can reach of the card field: the frame's document, its input, the number anywhere. */
function shopDocumentReach(page: Page) {
  return page.evaluate((pattern) => {
    const frame = document.querySelector<HTMLIFrameElement>("iframe.card-field")!;
    let readingTheField: string;
    try {
      readingTheField = frame.contentWindow!.document.querySelector("input")?.value ?? "no input";
    } catch (error) {
      readingTheField = (error as Error).name;
    }
    const values = [...document.querySelectorAll("input")].map((input) => input.value);
    return {
      contentDocument: frame.contentDocument,
      readingTheField,
      holdsTheNumber: new RegExp(pattern).test([document.body.innerText, ...values].join("\n")),
    };
  }, TYPED_CARD_ANYWHERE.source);
}

const isPaymentMethodCreation = (request: Request) =>
  request.method() === "POST" && new URL(request.url()).pathname === "/v1/payment_methods";

test("a typed card goes to the payment provider only; the shop gets its payment method and charges it", async ({
  shop,
  page,
  db,
  databaseUrl,
  providerDb,
}) => {
  const orderId = await shop.placeOrder({ notebook: 1 });
  const shopOrigin = new URL(page.url()).origin;
  const requests = recordRequests(page);

  await shop.typeCard(TYPED_CARD);
  // The field is a frame of the provider's origin: the shop's own document cannot read it, nor holds the number.
  const frameOrigin = new URL((await page.locator("iframe.card-field").getAttribute("src"))!).origin;
  expect(frameOrigin).not.toBe(shopOrigin);
  expect(await shopDocumentReach(page)).toEqual({
    contentDocument: null,
    readingTheField: "SecurityError",
    holdsTheNumber: false,
  });
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
  expect(new URL(creation.url()).origin).toBe(frameOrigin);
  // Sent by the field's frame, not by the shop's page.
  expect(new URL(creation.frame().url()).origin).toBe(frameOrigin);
  expect(creation.headers().authorization).toMatch(/^Bearer pk_test_/);

  // The charge names a payment method the provider made of the typed card, and nothing of the card.
  const charges = requests.filter((request) => request.url() === `${shopOrigin}/api/trpc/payments.charge`);
  const [charge, ...more] = charges.map((request) => request.postDataJSON() as Record<string, unknown>);
  expect(more).toEqual([]);
  expect(charge).toEqual(
    expect.objectContaining({ orderId, paymentMethodId: expect.stringMatching(/^pm_/) }),
  );
  const made = await providerDb.paymentMethod.findUnique({
    where: { id: charge!.paymentMethodId as string },
  });
  expect(made?.cardLast4).toBe("4444");
  await shop.expectLedger(orderId, 1);
  // Nor does any table of the shop's database hold it, whatever else the run has written there.
  expect(await tablesHolding(db, databaseUrl, TYPED_CARD_ANYWHERE)).toEqual([]);
});

test("a declined test card is declined by the provider through the same road", async ({
  shop,
  consoleErrors,
}) => {
  consoleErrors.expect(/status of 402/);
  const orderId = await shop.placeOrder({ notebook: 1 });
  await shop.pickTestCard("Declined");
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
  // Routed for the whole context, before the field's frame (of another origin) exists: a route set after it missed it once.
  await page.context().route(
    (url) => url.pathname === "/v1/payment_methods",
    (route) => route.abort(),
  );
  await shop.placeOrder({ notebook: 1 });
  const requests = recordRequests(page);
  await shop.payButton().click();
  // Past the field's own 15 s wait, should the frame not have loaded yet: the same words.
  await expect(page.getByTestId("card-error")).toHaveText(
    "The payment provider did not answer: nothing was charged. Check the connection and press Pay again.",
    { timeout: 20_000 },
  );
  await expect(shop.payButton()).toBeEnabled();
  expect(requests.filter((request) => request.url().includes("payments.charge"))).toEqual([]);
});

test("a card field framed by another origin than it was told refuses to work, and answers nothing", async ({
  shop,
  page,
  consoleErrors,
}) => {
  // The provider's own page has no favicon.
  consoleErrors.expect(/favicon\.ico/);
  await shop.placeOrder({ notebook: 1 });
  const src = (await page.locator("iframe.card-field").getAttribute("src"))!;
  // A page of another origin (the provider's own) frames the field, claiming to be the shop.
  const elsewhere = new URL("/health", src).href;
  await page.goto(elsewhere);
  const heard: unknown[] = [];
  await page.exposeFunction("heard", (data: unknown) => heard.push(data));
  await page.evaluate((frameSrc) => {
    window.addEventListener("message", (event) =>
      (window as unknown as { heard(d: unknown): void }).heard(event.data),
    );
    const frame = document.createElement("iframe");
    frame.src = frameSrc;
    frame.className = "card-field";
    document.body.append(frame);
  }, src);
  const field = shop.cardField();
  await expect(
    field.getByText("This card field works only inside the page of the shop that framed it."),
  ).toBeVisible();
  await expect(field.getByLabel("Card number")).toBeDisabled();
  await page.evaluate(() =>
    document.querySelector("iframe")!.contentWindow!.postMessage({ type: "create", id: 1 }, "*"),
  );
  await page.waitForTimeout(500);
  expect(heard).toEqual([]);
});
