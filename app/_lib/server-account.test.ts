import { expect, it } from "vitest";
import { curlOf, responseHeadersOf } from "./server-account";
import type { ServerAttempt } from "./server-account";

const attempt: ServerAttempt = {
  id: "a1",
  at: "2026-12-03T10:00:00.000Z",
  instance: "host:3000",
  key: "pay_1",
  generation: "abcd1234",
  decision: "replayed",
  keyState: "completed",
  payload: "same",
  fingerprint: "f",
  body: { orderId: "ord_1", amountCents: 1200, cardNumber: "•••• 4242" },
  status: 200,
  durationMs: 3,
  replyLost: false,
  retryAfterSeconds: null,
  keyExpiresAt: "2026-12-04T10:00:00.000Z",
};

it("rebuilds the answer's headers from the server's account", () => {
  expect(responseHeadersOf(attempt)).toEqual([
    ["Run-Once-Attempt", "a1"],
    ["Idempotency-Decision", "replayed"],
    ["Idempotent-Replayed", "true"],
    ["Idempotency-Key-Expires", "Fri, 04 Dec 2026 10:00:00 GMT"],
  ]);
  expect(
    responseHeadersOf({ ...attempt, decision: "conflict", retryAfterSeconds: 3, keyExpiresAt: null }),
  ).toEqual([
    ["Run-Once-Attempt", "a1"],
    ["Retry-After", "3"],
  ]);
});

it("copies a request as curl with its key, and asks for the masked card rather than inventing one", () => {
  const curl = curlOf(attempt, "http://localhost:3000");
  expect(curl).toContain("-H 'Idempotency-Key: pay_1'");
  expect(curl).toContain(`"cardNumber":"CARD_NUMBER"`);
  expect(curl).toContain(`"idempotencyKey":"pay_1"`);
  expect(curl).toContain("the card ending in 4242");
  expect(curl).not.toContain("4242424242424242");
});
