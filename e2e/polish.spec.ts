import { LAB, expect, test } from "./fixtures";

test("the navigation marks the page you are on", async ({ page }) => {
  for (const [path, current] of [
    ["/", "Shop"],
    ["/orders", "Orders"],
    ["/ledger", "Ledger"],
  ] as const) {
    await page.goto(path);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: current })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  }
});

test("a favicon, and a styled 404 page", async ({ shop, page, consoleErrors }) => {
  consoleErrors.expect(/status of 404/);
  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/");

  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Shop" })).toBeVisible();
  await shop.capture("not found");
});

test("product cards line up, each price on one line", async ({ page }) => {
  await page.goto("/");
  const prices = page.locator("[data-sku] .price");
  await expect(prices).toHaveCount(6);
  const boxes = await prices.evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return {
        top: Math.round(box.top),
        height: box.height,
        lineHeight: parseFloat(getComputedStyle(element).lineHeight),
      };
    }),
  );
  // Three cards a row at 1280 px: the prices of a row share one baseline.
  for (const row of [boxes.slice(0, 3), boxes.slice(3, 6)]) {
    expect(new Set(row.map((box) => box.top)).size).toBe(1);
  }
  for (const box of boxes) expect(box.height).toBeLessThan(box.lineHeight * 1.5);
});

test("the orders list has aligned columns", async ({ shop, page }) => {
  await shop.placeOrder({ notebook: 1 });
  await shop.placeOrder({ headphones: 3, backpack: 1 });
  await page.goto("/orders");
  const totals = page.locator('tr[data-order-id] td[data-label="Total"]');
  await expect(totals).toHaveCount(2);
  const edges = await totals.evaluateAll((cells) =>
    cells.map((cell) => Math.round(cell.getBoundingClientRect().right)),
  );
  expect(new Set(edges).size).toBe(1);
  await shop.capture("orders list");
});

test("the ledger's counters are the session's own: a new session starts at zero", async ({
  shop,
  browser,
}) => {
  await shop.placeOrder({ notebook: 1 });
  await shop.payButton().click();
  await shop.expectCharged();

  const fresh = await browser.newContext();
  const page = await fresh.newPage();
  await page.goto("/ledger");
  const counters = page.getByTestId("session-counters").locator("dd");
  await expect(counters).toHaveCount(6);
  await expect(counters).toHaveText(["0", "0", "0", "0", "0", "0"]);
  await fresh.close();
});

test("paying says once what happened, with a spinner while it works; the card field knows its brand", async ({
  shop,
  page,
}) => {
  await shop.placeOrder({ "ceramic-mug": 1 });
  const field = shop.cardField();
  const brand = field.getByTestId("card-brand");
  await expect(brand).toHaveText("Visa");
  await field.getByLabel("Card number").fill("5555 5555 5555 4444");
  await expect(brand).toHaveText("Mastercard");

  // A bad expiry is caught before anything is sent.
  const charges: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("payments.charge")) charges.push(request.postData() ?? "");
  });
  await field.getByLabel("Expiry").fill("01 / 20");
  await shop.payButton().click();
  await expect(field.getByText("Enter the expiry date as MM / YY, not in the past.")).toBeVisible();
  expect(charges).toEqual([]);

  await field.getByLabel("Expiry").fill("12 / 34");
  await shop.switchOn(LAB.slowProvider);
  await shop.payButton().click();
  const busy = page.getByRole("button", { name: "Processing…" });
  await expect(busy).toHaveAttribute("aria-busy", "true");
  await expect(busy.locator(".spinner")).toBeVisible();

  await expect(shop.status()).toHaveText("Paid. Charged $18.00 to •••• 4444, once.");
  await expect(page.getByText(/Charged/)).toHaveCount(1);
  // The shop gets a payment method, nothing of the card: the card went to the provider.
  expect(Object.keys(JSON.parse(charges[0] ?? "{}")).sort()).toEqual([
    "amountCents",
    "idempotencyKey",
    "orderId",
    "paymentMethodId",
  ]);
});

test("dark mode follows the system's colour scheme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const [red = 255, green = 255, blue = 255] = (background.match(/\d+/g) ?? []).map(Number);
  expect(red + green + blue).toBeLessThan(100);
});
