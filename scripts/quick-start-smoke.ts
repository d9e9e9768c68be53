/** The README's quick start, checked: one order paid twice with its key is one charge. */
import { SESSION_COOKIE } from "../server/session";

const baseUrl = process.argv[2] ?? "http://localhost:3000";
let cookie = "";

async function call(method: "GET" | "POST", path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}/api/trpc/${path}`, {
    method,
    headers: { "content-type": "application/json", cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  cookie =
    response.headers
      .getSetCookie()
      .map((set) => set.split(";")[0])
      .join("; ") || cookie;
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return { data: (JSON.parse(text) as { result: { data: unknown } }).result.data, response, text };
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`Quick start check failed: ${what}`);
  console.log(`ok: ${what}`);
}

const catalog = (await call("GET", "catalog.list")).data as Array<{ sku: string }>;
check(
  catalog.length > 0 && cookie.includes(`${SESSION_COOKIE}=`),
  "the shop answers with its catalogue and a session",
);

const order = (
  await call("POST", "orders.place", {
    submissionKey: `smoke-${crypto.randomUUID()}`,
    items: [{ sku: catalog[0]!.sku, quantity: 1 }],
  })
).data as { id: string; totalCents: number; paymentKey: string };
check(order.paymentKey.startsWith("pay_"), `order ${order.id} placed with its payment key`);

const charge = {
  orderId: order.id,
  amountCents: order.totalCents,
  idempotencyKey: order.paymentKey,
  paymentMethodId: "pm_card_visa",
};
const first = await call("POST", "payments.charge", charge);
const second = await call("POST", "payments.charge", charge);
check(first.response.headers.get("Idempotent-Replayed") === null, "the first payment executed");
check(
  second.response.headers.get("Idempotent-Replayed") === "true" && second.text === first.text,
  "the second payment with the same key replayed the first, byte for byte",
);

const ledger = (await call("GET", "ledger.summary")).data as Array<{ orderId: string; chargeCount: number }>;
check(ledger.find((row) => row.orderId === order.id)?.chargeCount === 1, "the ledger holds one charge");

const reconciliation = (await call("GET", "ledger.reconciliation")).data as Array<{
  orderId: string;
  providerCharges: unknown[];
  problems: string[];
}>;
const mine = reconciliation.find((row) => row.orderId === order.id);
check(
  mine?.providerCharges.length === 1 && mine.problems.length === 0,
  "the payment provider charged once, and agrees with the shop's record",
);
