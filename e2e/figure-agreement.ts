import type { Page } from "@playwright/test";
import type { ServerAccount } from "~/app/_lib/server-account";
import { expect } from "./fixtures";

/** The server's own account of the order (orders.serverAccount), read with the page's session. */
async function serverAccount(page: Page, orderId: string): Promise<ServerAccount> {
  const origin = new URL(page.url()).origin;
  const input = encodeURIComponent(JSON.stringify({ orderId }));
  const response = await page.request.get(`${origin}/api/trpc/orders.serverAccount?input=${input}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { result: { data: ServerAccount } }).result.data;
}

/** A figure's rows (those with `row`) as their `attributes` draw them. */
function drawnRows(page: Page, figure: string, row: string, attributes: string[]) {
  return page
    .getByTestId(figure)
    .locator(`[${row}]`)
    .evaluateAll((rows, names) => rows.map((r) => names.map((name) => r.getAttribute(name))), attributes);
}

/**
 * The figure, the status line and the server's account agree request by
 * request: who sent each (a client or the background completer), how the
 * server decided, what it answered, and each call to the provider; and the status line says a payment is in
 * progress exactly when the account has its key in progress, naming the
 * request that holds it. Returns the account they agree on.
 */
export async function expectFigureAgrees(page: Page, orderId: string): Promise<ServerAccount> {
  let agreed: ServerAccount | undefined;
  await expect(async () => {
    const account = await serverAccount(page, orderId);
    const drawn = await drawnRows(page, "server-lanes", "data-server-attempt", [
      "data-sent-by",
      "data-decision",
      "data-status",
    ]);
    expect(drawn).toEqual(
      account.attempts.map((a) => [a.sentBy, a.decision ?? "in_flight", String(a.status ?? "none")]),
    );
    // The provider lane: every call the shop sent the provider, as the account has it.
    const drawnCalls = await drawnRows(page, "provider-lane", "data-provider-call", [
      "data-path",
      "data-status",
      "data-no-reply",
    ]);
    expect(drawnCalls).toEqual(
      account.providerCalls.map((c) => [c.path, String(c.status ?? "none"), String(c.noReply)]),
    );
    // The request that holds a key in progress: in flight, or its client gone while its execution went on.
    const held = account.keys.filter((key) => key.state === "in_progress").map((key) => key.key);
    const holder = account.attempts.findLastIndex(
      (a) => held.includes(a.key) && (a.decision === null || (a.decision === "abandoned" && a.generation)),
    );
    const status = page.getByTestId("payment-status");
    if (held.length === 0) await expect(status).not.toContainText("in progress on", { timeout: 0 });
    else
      await expect(status).toContainText(
        `${holder === -1 ? "A payment" : `Request #${holder + 1}`} with this key is in progress on the server`,
        { timeout: 0 },
      );
    agreed = account;
  }).toPass({ timeout: 15_000 });
  return agreed!;
}
