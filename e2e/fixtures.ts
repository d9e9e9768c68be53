import { test as base, expect } from "@playwright/test";
import type { Page } from "@playwright/test";
import { createDb } from "../server/db/client";
import type { Db } from "../server/db/client";
import { resolveDatabaseUrl } from "../server/env";
import { E2E_DATABASE_URL } from "./environment";

/**
 * The shop as a user drives it, plus direct database access to check what the
 * UI claims. Each test runs in a browser context of its own, hence a session
 * of its own: its orders and charges are its own.
 */
export class Shop {
  constructor(readonly page: Page) {}

  /** Puts the given products in the cart and places the order; returns the order id. */
  async placeOrder(quantities: Record<string, number>): Promise<string> {
    await this.page.goto("/");
    for (const [sku, quantity] of Object.entries(quantities)) {
      const card = this.page.locator(`[data-sku="${sku}"]`);
      for (let i = 0; i < quantity; i++) await card.getByRole("button", { name: /^Add one/ }).click();
      await expect(card.locator("output")).toHaveText(String(quantity));
    }
    await this.page.getByRole("button", { name: "Place order" }).click();
    await this.page.waitForURL(/\/orders\/ord_/);
    return this.orderIdFromUrl();
  }

  orderIdFromUrl(): string {
    const match = /\/orders\/(ord_[A-Za-z0-9_-]+)/.exec(this.page.url());
    if (!match?.[1]) throw new Error(`not on an order page: ${this.page.url()}`);
    return match[1];
  }

  payButton() {
    return this.page.getByRole("button", { name: /^(Pay|Finish payment)/ });
  }

  async expectCharged() {
    await expect(this.page.getByTestId("payment-status")).toContainText("Charged");
  }

  /** The ledger page's count of charges for one order. */
  async ledgerChargeCount(orderId: string): Promise<string> {
    await this.page.goto("/ledger");
    const row = this.page.locator(`tr[data-order-summary="${orderId}"]`);
    await expect(row).toBeVisible();
    return (await row.getByTestId("charge-count").textContent()) ?? "";
  }
}

export const test = base.extend<{ shop: Shop }, { db: Db }>({
  shop: async ({ page }, use) => {
    await use(new Shop(page));
  },
  db: [
    async ({}, use) => {
      const db = createDb(resolveDatabaseUrl(E2E_DATABASE_URL));
      await use(db);
      await db.$disconnect();
    },
    { scope: "worker" },
  ],
});

export { expect };
