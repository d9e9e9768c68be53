import { expect, it } from "vitest";
import { curlOf, responseHeadersOf } from "./server-account";
import type { RequestView } from "./server-account";

const request: RequestView = {
  id: "a1",
  at: "2026-12-03T10:00:00.000Z",
  instance: "host:3000",
  key: "pay_1",
  generation: "abcd1234",
  decision: "replayed",
  keyState: "completed",
  payload: "same",
  fingerprint: "f",
  body: { orderId: "ord_1", amountCents: 1200, paymentMethodId: "pm_1Abc" },
  status: 200,
  durationMs: 3,
  replyLost: false,
  retryAfterSeconds: null,
  sentBy: "client",
  delivery: null,
  keyExpiresAt: "2026-12-04T10:00:00.000Z",
};

it("rebuilds the answer's headers from the server's account", () => {
  expect(responseHeadersOf(request)).toEqual([
    ["Run-Once-Request", "a1"],
    ["Idempotency-Decision", "replayed"],
    ["Idempotent-Replayed", "true"],
    ["Idempotency-Key-Expires", "Fri, 04 Dec 2026 10:00:00 GMT"],
  ]);
  expect(
    responseHeadersOf({ ...request, decision: "conflict", retryAfterSeconds: 3, keyExpiresAt: null }),
  ).toEqual([
    ["Run-Once-Request", "a1"],
    ["Retry-After", "3"],
  ]);
});

it("copies a request as curl that replays as pasted: its key, the session, and the body as sent", () => {
  const curl = curlOf(request, "http://localhost:3000", "sid.sig");
  expect(curl).toContain("-H 'Idempotency-Key: pay_1'");
  expect(curl).toContain("-b 'checkout_session=sid.sig'");
  expect(curl).toContain(
    `-d '{"orderId":"ord_1","amountCents":1200,"paymentMethodId":"pm_1Abc","idempotencyKey":"pay_1"}'`,
  );
  expect(curl).not.toContain("#");
});

it("asks for a session the page was not given, rather than inventing one", () => {
  const curl = curlOf(request, "http://x", null);
  expect(curl).toContain("-b 'checkout_session=SESSION'");
  expect(curl).toContain("# SESSION: this browser's checkout_session cookie");
});
