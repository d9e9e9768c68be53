import { describe, expect } from "vitest";
import type { Db } from "../db/client";
import { newSignedSession } from "~/testing/signed-session";
import { apiClient, dataOf } from "~/testing/api-client";
import type { ApiClient, ApiResponse } from "~/testing/api-client";
import { MAX_BODY_BYTES } from "../trpc/http-handler";
import type { Cluster } from "./instances";
import { clusterTest } from "~/testing/fixtures";

const test = clusterTest({ count: 1 });

/**
 * Hostile and broken input, over HTTP against `next start`: each gets its
 * documented status and a message a developer can act on, never a 500 or a
 * stack trace, and the database is the same afterwards.
 */
let db: Db;
let cluster: Cluster;
let api: ApiClient;
let baseUrl: string;
let order: { id: string; totalCents: number; paymentKey: string };
let strangersOrder: { id: string; paymentKey: string };

test.beforeAll(async ({ running }) => {
  ({ cluster, db } = running);
  baseUrl = cluster.instances[0]!.url;
  api = apiClient(baseUrl, (await newSignedSession(db)).cookie);
  const place = (client: ApiClient) =>
    client
      .post("orders.place", { submissionKey: crypto.randomUUID(), items: [{ sku: "notebook", quantity: 1 }] })
      .then((response) => dataOf<{ id: string; totalCents: number; paymentKey: string }>(response));
  order = await place(api);
  strangersOrder = await place(apiClient(baseUrl, (await newSignedSession(db)).cookie));
});

function tableCounts() {
  return Promise.all([db.order.count(), db.orderItem.count(), db.charge.count(), db.idempotencyKey.count()]);
}

const charge = (overrides: Record<string, unknown> = {}) => ({
  orderId: order.id,
  amountCents: order.totalCents,
  idempotencyKey: order.paymentKey,
  paymentMethodId: "pm_card_visa",
  ...overrides,
});

function raw(path: string, init: RequestInit & { duplex?: "half" }): Promise<ApiResponse> {
  return fetch(`${baseUrl}/api/trpc/${path}`, init as RequestInit).then(async (response) => {
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as unknown };
  });
}

const oversized = () => JSON.stringify(charge({ padding: "x".repeat(MAX_BODY_BYTES) }));

/** [case, request, status, what the message must say] */
const CASES: Array<[string, () => Promise<ApiResponse>, number, RegExp]> = [
  [
    "a missing key",
    () => api.post("payments.charge", charge({ idempotencyKey: undefined })),
    400,
    /idempotency key/,
  ],
  [
    "an empty key",
    () => api.post("payments.charge", charge({ idempotencyKey: "" })),
    400,
    /1 to 255 printable ASCII/,
  ],
  [
    "a key over 255 characters",
    () => api.post("payments.charge", charge({ idempotencyKey: "k".repeat(256) })),
    400,
    /1 to 255/,
  ],
  [
    "a non-ASCII key",
    () => api.post("payments.charge", charge({ idempotencyKey: "clé" })),
    400,
    /printable ASCII/,
  ],
  [
    "a control character in the key",
    () => api.post("payments.charge", charge({ idempotencyKey: "a\u0007b" })),
    400,
    /printable ASCII/,
  ],
  [
    "a header key and a field key that differ",
    () => api.post("payments.charge", charge(), { "Idempotency-Key": "another-key" }),
    400,
    /header and the idempotencyKey field differ/,
  ],
  [
    "malformed JSON",
    () =>
      raw("payments.charge", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"orderId":',
      }),
    400,
    /not valid JSON/,
  ],
  [
    "a wrong content type",
    () =>
      raw("payments.charge", { method: "POST", headers: { "content-type": "text/plain" }, body: "pay me" }),
    415,
    /content-type/i,
  ],
  [
    "a body over the size limit",
    () =>
      raw("payments.charge", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: oversized(),
      }),
    413,
    /over 65536 bytes/,
  ],
  [
    "a body over the size limit, streamed without a length",
    () =>
      raw("payments.charge", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new Blob([oversized()]).stream(),
        duplex: "half",
      }),
    413,
    /over 65536 bytes/,
  ],
  [
    "a negative amount",
    () => api.post("payments.charge", charge({ amountCents: -1200 })),
    400,
    /amountCents: amountCents must be positive/,
  ],
  ["a zero amount", () => api.post("payments.charge", charge({ amountCents: 0 })), 400, /must be positive/],
  [
    "a fractional amount",
    () => api.post("payments.charge", charge({ amountCents: 12.5 })),
    400,
    /whole number of cents/,
  ],
  [
    "a huge amount",
    () => api.post("payments.charge", charge({ amountCents: 1e15 })),
    400,
    /at most 100000000/,
  ],
  [
    "an amount as a string",
    () => api.post("payments.charge", charge({ amountCents: "1200" })),
    400,
    /amountCents/,
  ],
  [
    "an unknown order id",
    () =>
      api.post("payments.charge", charge({ orderId: "ord_doesnotexist", idempotencyKey: "k-unknown-order" })),
    404,
    /No order ord_doesnotexist/,
  ],
  [
    "a malformed order id",
    () => api.get("orders.get", { orderId: "../etc/passwd" }),
    400,
    /orderId: an order id looks like ord_/,
  ],
  [
    "another session's order",
    () =>
      api.post(
        "payments.charge",
        charge({ orderId: strangersOrder.id, idempotencyKey: strangersOrder.paymentKey }),
      ),
    404,
    /No order/,
  ],
  [
    "unknown fields",
    () => api.post("payments.charge", charge({ discount: 100 })),
    400,
    /Unrecognized key: "discount"/,
  ],
  [
    "an empty order",
    () => api.post("orders.place", { submissionKey: crypto.randomUUID(), items: [] }),
    400,
    /at least one item/,
  ],
  [
    "an amount one cent off the order's total",
    () => api.post("payments.charge", charge({ amountCents: order.totalCents - 1 })),
    400,
    /but the order's total is/,
  ],
  [
    "a key that is not the order's",
    () => api.post("payments.charge", charge({ idempotencyKey: "made-up-key" })),
    400,
    /must be the order's current paymentKey/,
  ],
  [
    "an unknown product",
    () =>
      api.post("orders.place", { submissionKey: "refused-cart", items: [{ sku: "unicorn", quantity: 1 }] }),
    400,
    /Unknown product: unicorn/,
  ],
  ["an unknown procedure", () => api.post("payments.refund", charge()), 404, /No procedure found/],
  ["a GET on a mutation", () => api.get("payments.charge", charge()), 405, /Unsupported GET-request/],
];

describe("bad input", () => {
  test.each(CASES)(
    "%s: the documented status, an actionable message, nothing written",
    async (_, send, status, message) => {
      const before = await tableCounts();
      const response = await send();

      expect(response.status).toBe(status);
      const error = (response.json as { error: { message: string; data: { httpStatus: number } } }).error;
      expect(error.message).toMatch(message);
      expect(error.data.httpStatus).toBe(status);
      expect(response.text).not.toMatch(/stack|\n\s+at |prisma|SELECT|INSERT|node_modules/i);
      expect(await tableCounts()).toEqual(before);
    },
  );

  test("leaves the keys of refused requests free: the corrected requests then run under them", async () => {
    // Runs after the cases above, which refused this order's key and the cart's submission key.
    const paid = await api.post("payments.charge", charge());
    expect(paid.status).toBe(200);
    expect(paid.headers.get("Idempotent-Replayed")).toBeNull();
    const placed = await api.post("orders.place", {
      submissionKey: "refused-cart",
      items: [{ sku: "notebook", quantity: 1 }],
    });
    expect(placed.status).toBe(200);
  });

  test("answers a batch mixing valid and invalid calls per call, with 207", async () => {
    const before = await tableCounts();
    const response = await api.batchGet([
      ["orders.get", { orderId: order.id }],
      ["orders.get", { orderId: "nope" }],
    ]);
    expect(response.status).toBe(207);
    const [ok, bad] = response.json as [
      { result: { data: { id: string } } },
      { error: { data: { httpStatus: number } } },
    ];
    expect(ok.result.data.id).toBe(order.id);
    expect(bad.error.data.httpStatus).toBe(400);
    expect(await tableCounts()).toEqual(before);
  });
});
