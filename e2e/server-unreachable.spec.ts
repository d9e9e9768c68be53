import { expect, test } from "./fixtures";

test("a server that stops answering never makes an order 'not found': the page keeps its data and recovers by itself", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_CONNECTION_REFUSED/);
  await shop.placeOrder({ notebook: 1 });
  // The server goes away (a restart, a network failure): no request reaches it.
  await page.route("**/api/trpc/**", (route) => route.abort("connectionrefused"));

  // Every try fails; then the order is read again, and that fails too.
  await shop.payButton().click();
  await expect(page.getByTestId("connection-notice")).toContainText("Can't reach the server");
  await expect(shop.status()).toContainText("No answer from the server");
  await expect(page.getByText("Order not found")).toHaveCount(0);
  await expect(page.getByTestId("order-total")).toHaveText("$12.00");
  await shop.capture("server unreachable");

  // It comes back: the page reads the order again by itself, and offers to finish with the same key.
  await page.unroute("**/api/trpc/**");
  await expect(page.getByTestId("connection-notice")).toBeHidden();
  await expect(page.getByTestId("order-status")).toHaveText("PENDING");
  await expect(shop.payButton()).toHaveText("Finish payment of $12.00");
});

test("only an order that does not exist is 'not found', with a 404", async ({ page, consoleErrors }) => {
  consoleErrors.expect(/status of 404/);
  const response = await page.goto("/orders/ord_doesNotExist42");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Order not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Your orders" })).toBeVisible();
});
