import { expect, it } from "vitest";
import { accountSummary } from "./account-summary";
import type { SummarizedCharge } from "./account-summary";
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
    sentBy: "client",
    ...change,
  };
}

function charge(change: Partial<SummarizedCharge> = {}): SummarizedCharge {
  return { idempotencyKey: "pay_1", naive: false, ...change };
}

it("tells a lost reply and its replay from the server's account", () => {
  expect(accountSummary([attempt({ replyLost: true }), attempt({ decision: "replayed" })], [charge()])).toBe(
    "2 requests reached the server; 1 charge: #1 executed and its reply was lost, #2 replayed the stored result.",
  );
});

it("counts what it does not tell one by one, and says when nothing arrived", () => {
  const storm = Array.from({ length: 8 }, (_, i) => attempt({ decision: i === 0 ? "executed" : "replayed" }));
  expect(accountSummary(storm, [charge()])).toMatch(
    /^8 requests reached the server; 1 charge: .*, and 2 more\.$/,
  );
  expect(accountSummary([], [])).toBe("No request reached the server; 0 charges.");
});

it("tells a decline, and the keys when a new card brought a new one", () => {
  const declined = attempt({ key: "pay_1", status: 402 });
  const paid = attempt({ key: "pay_2" });
  expect(accountSummary([declined, paid], [charge({ idempotencyKey: "pay_2" })])).toBe(
    "2 requests reached the server under 2 keys; 1 charge: #1 ran and the card was declined (HTTP 402), #2 executed.",
  );
});

it("tells the naive client's charges from the ledger: run-once never saw their requests", () => {
  const naive = [
    charge({ idempotencyKey: "naive_1", naive: true }),
    charge({ idempotencyKey: "naive_2", naive: true }),
  ];
  expect(accountSummary([], naive)).toBe(
    "No request reached run-once; 2 charges, made by the naive client without run-once, under 2 keys it made itself.",
  );
});

it("tells a stored failure and its replays as failures, never as results", () => {
  const cached = [
    attempt({ status: 503 }),
    attempt({ decision: "replayed", status: 503 }),
    attempt({ decision: "replayed", status: 503 }),
  ];
  expect(accountSummary(cached, [])).toBe(
    "3 requests reached the server; 0 charges: #1 ran, and its failure (HTTP 503) was stored as the key's outcome, #2 replayed the stored failure (HTTP 503), #3 replayed the stored failure (HTTP 503).",
  );
});

it("says a released key's request failed before its key was completed, not that nothing was written", () => {
  expect(
    accountSummary([attempt({ decision: "released", status: 503 }), attempt({})], [charge(), charge()]),
  ).toBe(
    "2 requests reached the server; 2 charges: #1 failed before its key was completed (HTTP 503) and released it, #2 executed.",
  );
});

it("tells a request whose server died, and the background completer that took its key over", () => {
  const died = attempt({ decision: null, status: null, generation: null });
  const completer = attempt({ decision: "taken_over", status: null, sentBy: "completer" });
  expect(accountSummary([died, completer], [charge()])).toBe(
    "1 request reached the server, and the background completer ran once; 1 charge: #1 got no answer: its server stopped, and #2 took its key over, #2 (the background completer) took over a dead owner's key and ran.",
  );
  expect(accountSummary([died], [])).toBe("1 request reached the server; 0 charges: #1 is in flight.");
});

it("tells the naive client's requests, each under a key of its own, and their charges", () => {
  const naive = (key: string, replyLost: boolean) =>
    attempt({ key, sentBy: "naive client", keyState: null, replyLost });
  expect(
    accountSummary(
      [naive("naive_a", true), naive("naive_b", false)],
      [
        charge({ idempotencyKey: "naive_a", naive: true }),
        charge({ idempotencyKey: "naive_b", naive: true }),
      ],
    ),
  ).toBe(
    "2 requests reached the server under 2 keys; 2 charges, made by the naive client without run-once, under 2 keys it made itself: #1 (naive, a key of its own) executed and its reply was lost, #2 (naive, a key of its own) executed.",
  );
});
