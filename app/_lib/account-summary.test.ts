import { expect, it } from "vitest";
import { accountSummary } from "./account-summary";
import type { ServerAttempt } from "./server-account";

function attempt(change: Partial<ServerAttempt>): ServerAttempt {
  return {
    id: "a",
    at: "2026-12-03T10:00:00.000Z",
    instance: "host:3000",
    key: "pay_1",
    generation: "abcd1234",
    decision: "executed",
    keyState: "absent",
    payload: "same",
    fingerprint: "f",
    body: {},
    status: 200,
    durationMs: 3,
    replyLost: false,
    retryAfterSeconds: null,
    keyExpiresAt: null,
    ...change,
  };
}

it("tells a lost reply and its replay from the server's account", () => {
  expect(accountSummary([attempt({ replyLost: true }), attempt({ decision: "replayed" })], 1)).toBe(
    "2 requests reached the server; 1 charge: attempt 1 executed and its reply was lost, attempt 2 replayed the stored result.",
  );
});

it("counts what it does not tell one by one, and says when nothing arrived", () => {
  const storm = Array.from({ length: 8 }, (_, i) => attempt({ decision: i === 0 ? "executed" : "replayed" }));
  expect(accountSummary(storm, 1)).toMatch(/^8 requests reached the server; 1 charge: .*, and 2 more\.$/);
  expect(accountSummary([], 0)).toBe("No request reached the server; 0 charges.");
});
