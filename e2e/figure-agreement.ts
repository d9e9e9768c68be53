import type { Page } from "@playwright/test";
import type { Order } from "~/app/_lib/order";
import type { ServerAccount } from "~/app/_lib/server-account";
import { expect } from "./fixtures";

/** A query of the order's, read with the page's session: the server's account, or the order with its ledger charges. */
export async function readOrder<T>(
  page: Page,
  procedure: "serverAccount" | "get",
  orderId: string,
): Promise<T> {
  const origin = new URL(page.url()).origin;
  const input = encodeURIComponent(JSON.stringify({ orderId }));
  const response = await page.request.get(`${origin}/api/trpc/orders.${procedure}?input=${input}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** Whether the record says a reply reached the client: a client's (the completer and the webhook have none), answered, not lost, its client still there. */
function replyReached(a: ServerAccount["requests"][number]): boolean {
  return (
    (a.sentBy === "client" || a.sentBy === "naive client") &&
    a.decision !== null &&
    a.decision !== "abandoned" &&
    a.status !== 499 &&
    !a.replyLost
  );
}

/**
 * The run whose provider call made a charge, read from the records: the call the provider's request id
 * names; else, under its key, the calls that got no reply, if they are all one run's. Null: not on record,
 * or the records cannot tell.
 */
export function chargingRun(account: ServerAccount, charge: Order["charges"][number]): string | null {
  const named = account.providerCalls.filter((call) => call.requestId === charge.providerRequestId);
  const made = named.length
    ? named
    : account.providerCalls.filter((call) => call.key === charge.providerKey && call.status === null);
  const runs = new Set(made.map((call) => call.run));
  return runs.size === 1 ? [...runs][0]! : null;
}

/**
 * The marks drawn over the request lane agree with the ledger and the provider calls: a charge box on
 * exactly the run whose call made each charge, "charged the card" in exactly those captions; the run that
 * recorded a charge another run's call made says it recorded it, and never that it charged; no charge left
 * undrawn; and a reply arrow back to the client exactly where the record says a reply reached it.
 */
async function expectMarksAgree(page: Page, account: ServerAccount, charges: Order["charges"]) {
  const rows = page.getByTestId("server-lanes").locator("[data-server-try]");
  const drawn = await rows.evaluateAll((elements) =>
    elements.map((row) => ({
      id: row.getAttribute("data-request-id"),
      charges: (row.getAttribute("data-charges") ?? "").split(" ").filter(Boolean),
      chargeBoxes: row.querySelectorAll('[data-mark="charge"]').length,
      replyArrow: row.querySelector('[data-reply-arrow="received"]') !== null,
      caption: row.querySelector('[data-testid="server-decision"]')?.textContent ?? "",
    })),
  );
  const records = new Map(account.requests.map((a) => [a.id, a]));
  for (const row of drawn) {
    const made = charges
      .filter((charge) => chargingRun(account, charge) === row.id)
      .map((charge) => charge.id);
    const recorded = charges.filter((charge) => charge.recordedBy === row.id && !made.includes(charge.id));
    expect(row.charges, `request ${row.id}: its charges`).toEqual(made);
    expect(row.chargeBoxes, `request ${row.id}: its charge boxes`).toBe(made.length > 0 ? 1 : 0);
    expect(/charged the card/.test(row.caption), `request ${row.id}: "${row.caption}"`).toBe(made.length > 0);
    if (made.length === 0 && recorded.length > 0) expect(row.caption).toMatch(/recorded the charge that/);
    expect(row.replyArrow, `request ${row.id}: its reply arrow`).toBe(replyReached(records.get(row.id!)!));
  }
  const drawnIds = new Set(drawn.map((row) => row.id));
  for (const charge of charges)
    expect(drawnIds.has(charge.recordedBy), `charge ${charge.id} drawn`).toBe(true);
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
 * server decided, what it answered, each call to the provider and each delivery of its webhook; and the status line says a payment is in
 * progress exactly when the account has its key in progress, naming the
 * request that holds it; and its marks agree with the ledger. Returns the account they agree on.
 */
export async function expectFigureAgrees(page: Page, orderId: string): Promise<ServerAccount> {
  let agreed: ServerAccount | undefined;
  await expect(async () => {
    const account = await readOrder<ServerAccount>(page, "serverAccount", orderId);
    const { charges } = await readOrder<Order>(page, "get", orderId);
    const drawn = await drawnRows(page, "server-lanes", "data-server-try", [
      "data-sent-by",
      "data-decision",
      "data-status",
    ]);
    expect(drawn).toEqual(
      account.requests.map((a) => [a.sentBy, a.decision ?? "in_flight", String(a.status ?? "none")]),
    );
    await expectMarksAgree(page, account, charges);
    // The provider lane: every call the shop sent the provider, as the account has it.
    const drawnCalls = await drawnRows(page, "provider-lane", "data-provider-call", [
      "data-path",
      "data-status",
      "data-no-reply",
    ]);
    expect(drawnCalls).toEqual(
      account.providerCalls.map((c) => [c.path, String(c.status ?? "none"), String(c.noReply)]),
    );
    // The webhook lane: each of the provider's tries as its own record has them, in its order (and any
    // delivery it does not show), and "recorded as #n" only where that run names the delivery.
    const drawnDeliveries = await drawnRows(page, "webhook-lane", "data-webhook-delivery", [
      "data-try",
      "data-status",
      "data-recorded-as",
      "data-delivery-id",
    ]);
    const tried = drawnDeliveries.filter(([sent]) => sent !== null).map(([sent, status]) => [sent, status]);
    expect(tried).toEqual((account.webhookTries ?? []).map((t) => [t.id, String(t.status ?? "none")]));
    for (const [, , recordedAs, deliveryId] of drawnDeliveries) {
      const run = account.requests.findIndex((a) => a.delivery !== null && a.delivery === deliveryId);
      expect(recordedAs).toBe(deliveryId === null || run === -1 ? null : String(run + 1));
    }
    // The request that holds a key in progress: in flight, or its client gone while its execution went on.
    const held = account.keys.filter((key) => key.state === "in_progress").map((key) => key.key);
    const holder = account.requests.findLastIndex(
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
