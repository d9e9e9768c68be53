import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ProviderCall, ServerAccount, ServerAttempt, WebhookDelivery } from "../server-account";
import { holdsKey, keyInProgress, paymentStory } from "./payment-story";
import type { LedgerCharge } from "./payment-story";

/** What one request did, as the server records it: the simulator below turns each into its record and its charges. */
const requestKinds = [
  "charged",
  "charged, reply lost",
  "charged, client gone",
  "declined",
  "failure stored",
  "released",
  "partial commit",
  "replayed",
  "coalesced",
  "waited, client gone",
  "conflict",
  "mismatch",
  "refused",
  "in flight",
  "took over and charged",
  "completer charged",
  "completer failed",
  "naive charged",
  "naive declined",
] as const;
type RequestKind = (typeof requestKinds)[number];

function record(i: number, kind: RequestKind, key: string, generation: string): ServerAttempt {
  const base: ServerAttempt = {
    id: `r${i}`,
    at: new Date(Date.UTC(2026, 11, 6, 10, 0, i)).toISOString(),
    instance: i % 3 === 0 ? "host:3001" : "host:3000",
    key,
    generation,
    decision: "executed",
    keyState: "absent",
    payload: "same",
    fingerprint: "f",
    body: {},
    status: 200,
    durationMs: 5,
    replyLost: false,
    retryAfterSeconds: null,
    keyExpiresAt: null,
    sentBy: "client",
  };
  const as = (change: Partial<ServerAttempt>): ServerAttempt => ({ ...base, ...change });
  switch (kind) {
    case "charged":
      return base;
    case "charged, reply lost":
      return as({ replyLost: true });
    case "charged, client gone":
      return as({ decision: "abandoned", status: 499 });
    case "declined":
      return as({ status: 402 });
    case "failure stored":
      return as({ status: 503 });
    case "released":
    case "partial commit":
      return as({ decision: "released", status: 503 });
    case "replayed":
      return as({ decision: "replayed", keyState: "completed" });
    case "coalesced":
      return as({ decision: "coalesced", keyState: "in_progress" });
    case "waited, client gone":
      return as({ decision: "abandoned", keyState: "in_progress", generation: null, status: 499 });
    case "conflict":
      return as({ decision: "conflict", keyState: "in_progress", generation: null, status: 409 });
    case "mismatch":
      return as({
        decision: "mismatch",
        keyState: "completed",
        generation: null,
        status: 422,
        payload: "different",
      });
    case "refused":
      return as({ decision: "refused", keyState: null, generation: null, status: 400 });
    case "in flight":
      return as({ decision: null, keyState: null, status: null });
    case "took over and charged":
      return as({ decision: "taken_over", keyState: "in_progress" });
    case "completer charged":
      return as({ sentBy: "completer", status: null });
    case "completer failed":
      return as({ sentBy: "completer", decision: "released", status: null });
    case "naive charged":
      return as({ sentBy: "naive client", key: `naive_${i}`, generation: null, keyState: null });
    case "naive declined":
      return as({ sentBy: "naive client", key: `naive_${i}`, generation: null, keyState: null, status: 402 });
  }
}

const CHARGING = new Set<RequestKind>([
  "charged",
  "charged, reply lost",
  "charged, client gone",
  "partial commit",
  "took over and charged",
  "completer charged",
  "naive charged",
]);

const providerCall = fc.record({
  key: fc.constantFrom("pay_1/charge", "pay_2/charge"),
  purpose: fc.constant("charge" as const),
  answer: fc.constantFrom(
    { decision: "executed", status: 200, noReply: false },
    { decision: "executed", status: 402, noReply: false },
    { decision: "replayed", status: 200, noReply: false },
    { decision: "coalesced", status: 200, noReply: false },
    { decision: "conflict", status: 409, noReply: false },
    { decision: null, status: 503, noReply: false },
    { decision: null, status: null, noReply: true },
    { decision: null, status: null, noReply: false },
  ),
});

/** How the shop answered a delivery of the provider's webhook, as its record keeps it. */
const webhookDelivery = fc.record({
  event: fc.constantFrom("evt_1", "evt_2"),
  answer: fc.constantFrom(
    { decision: "executed", status: 200, outcome: "recorded" },
    { decision: "executed", status: 200, outcome: "already recorded" },
    { decision: "executed", status: 200, outcome: "shared" },
    { decision: "replayed", status: 200, outcome: "already recorded" },
    { decision: "coalesced", status: 200, outcome: "recorded" },
    { decision: "conflict", status: 409, outcome: null },
    { decision: "released", status: 409, outcome: "payment key held" },
    { decision: "released", status: 503, outcome: "failed" },
    { decision: null, status: null, outcome: null },
  ),
});

/** A world of requests, provider calls and the ledger they left, each charge written with the record that made it. */
const world = fc
  .record({
    kinds: fc.array(fc.record({ kind: fc.constantFrom(...requestKinds), key: fc.nat(1) }), { maxLength: 12 }),
    calls: fc.array(providerCall, { maxLength: 8 }),
    deliveries: fc.array(webhookDelivery, { maxLength: 5 }),
    unrecordedCharges: fc.nat(1),
    keyStates: fc.tuple(
      fc.constantFrom("absent" as const, "in_progress" as const, "completed" as const),
      fc.constantFrom("absent" as const, "in_progress" as const, "completed" as const),
    ),
  })
  .map(({ kinds, calls, deliveries, unrecordedCharges, keyStates }) => {
    const attempts = kinds.map(({ kind, key }, i) => record(i + 1, kind, `pay_${key + 1}`, `g${key}`));
    const webhookDeliveries: WebhookDelivery[] = deliveries.map((delivery, i) => ({
      id: `d${i + 1}`,
      at: new Date(Date.UTC(2026, 11, 6, 10, 2, i)).toISOString(),
      instance: "host:3000",
      event: delivery.event,
      type: "payment_intent.succeeded",
      paymentKey: "pay_1",
      decision: delivery.answer.decision as WebhookDelivery["decision"],
      status: delivery.answer.status,
      outcome: delivery.answer.outcome as WebhookDelivery["outcome"],
      durationMs: 4,
    }));
    // A webhook's run under the payment's key names the delivery that ran it: the first that recorded.
    const recording = webhookDeliveries.find((d) => d.decision === "executed" && d.outcome === "recorded");
    attempts.forEach((attempt, i) => {
      if (recording && kinds[i]!.kind === "completer charged" && i % 2 === 0) {
        attempts[i] = {
          ...attempt,
          sentBy: "webhook",
          body: { event: recording.event, delivery: recording.id },
        };
      }
    });
    const charges: LedgerCharge[] = kinds.flatMap(({ kind }, i) =>
      CHARGING.has(kind)
        ? [
            {
              id: `ch_${i + 1}`,
              idempotencyKey: attempts[i]!.key,
              naive: kind.startsWith("naive"),
              madeBy: attempts[i]!.id,
            },
          ]
        : [],
    );
    for (let i = 0; i < unrecordedCharges; i++) {
      charges.push({ id: `ch_swept_${i}`, idempotencyKey: "pay_1", naive: false, madeBy: null });
    }
    const providerCalls: ProviderCall[] = calls.map((call, i) => ({
      id: `c${i + 1}`,
      at: new Date(Date.UTC(2026, 11, 6, 10, 1, i)).toISOString(),
      instance: "host:3000",
      key: call.key,
      path: "POST /v1/payment_intents",
      purpose: call.purpose,
      try: i + 1,
      decision: call.answer.decision as ProviderCall["decision"],
      status: call.answer.status,
      durationMs: 3,
      noReply: call.answer.noReply,
    }));
    const keys = keyStates.map((state, i) => ({
      key: `pay_${i + 1}`,
      state,
      lockedUntil: state === "in_progress" ? "2026-12-06T10:05:00.000Z" : null,
      expiresAt: state === "completed" ? "2026-12-07T10:00:00.000Z" : null,
    }));
    const account: ServerAccount = {
      now: new Date().toISOString(),
      attempts,
      providerCalls,
      webhookDeliveries,
      keys,
    };
    return { account, charges };
  });

/** Every "#n" a sentence names. */
const requestNumbers = (text: string) => [...text.matchAll(/#(\d+)/g)].map((m) => Number(m[1]));

describe("the payment's story, for any sequence of requests, calls and charges", () => {
  it("draws a charge mark exactly where a ledger charge names the request, and says 'charged' only there", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        const story = paymentStory(account, charges);
        for (const row of story.requests) {
          const made = charges
            .filter((charge) => charge.madeBy === row.attempt.id)
            .map((charge) => charge.id);
          expect(row.charges).toEqual(made);
          expect(row.work === "charge").toBe(made.length > 0);
          expect(/charged the card/.test(row.caption)).toBe(made.length > 0);
        }
        const drawn = story.requests.flatMap((row) => row.charges);
        expect([...drawn, ...story.unrecordedCharges].sort()).toEqual(charges.map((c) => c.id).sort());
      }),
    );
  });

  it("draws a reply arrow to the client only when the record says a reply reached it", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        for (const row of paymentStory(account, charges).requests) {
          const { decision, sentBy, replyLost, status } = row.attempt;
          const received =
            decision !== null &&
            decision !== "abandoned" &&
            sentBy !== "completer" &&
            sentBy !== "webhook" &&
            status !== 499 &&
            !replyLost;
          expect(row.reply === "received").toBe(received);
          if (row.reply === "lost") expect(replyLost).toBe(true);
        }
      }),
    );
  });

  it("names in every sentence only requests and calls that are drawn, numbered as the figure numbers them", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        const story = paymentStory(account, charges);
        story.requests.forEach((row, i) => expect(row.n).toBe(i + 1));
        story.providerCalls.forEach((row, i) => expect(row.n).toBe(i + 1));
        const texts = [
          story.whatHappened,
          story.overcharge ?? "",
          ...story.requests.map((row) => row.caption),
        ];
        for (const n of texts.flatMap(requestNumbers)) expect(n).toBeLessThanOrEqual(story.requests.length);
        const calls = [story.providerSentence, ...story.providerCalls.map((row) => row.caption)].flatMap(
          (text) => [...text.matchAll(/call (\d+)/gi)].map((m) => Number(m[1])),
        );
        for (const n of calls) expect(n).toBeLessThanOrEqual(story.providerCalls.length);
        if (story.providerCalls.length > 0) {
          const made = story.providerCalls.filter((row) => row.mark === "charge").length;
          expect(story.providerSentence).toContain(`; ${made} charge${made === 1 ? "" : "s"} made.`);
        }
      }),
    );
  });

  it("marks a provider charge once per key at most, on a call whose reply (or a later one's under its key) says so", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        const rows = paymentStory(account, charges).providerCalls;
        for (const row of rows.filter((r) => r.mark === "charge")) {
          const sameKey = rows.filter((r) => r.call.key === row.call.key);
          const evidence = sameKey.some(
            (r) =>
              r.n >= row.n && r.reply === "received" && r.call.status === 200 && r.call.decision !== null,
          );
          expect(evidence).toBe(true);
          expect(row.call.purpose).toBe("charge");
        }
      }),
    );
  });

  it("says a key is in progress only when the store says so, naming the latest request that holds it", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        const rows = paymentStory(account, charges).requests;
        for (const { key, state } of account.keys) {
          const status = keyInProgress(account, rows, key);
          expect(status !== null).toBe(state === "in_progress");
          if (status?.request == null) continue;
          const holder = rows[status.request - 1]!;
          expect(holder.attempt.key).toBe(key);
          expect(holdsKey(holder.attempt)).toBe(true);
          expect(rows.slice(status.request).some((r) => r.attempt.key === key && holdsKey(r.attempt))).toBe(
            false,
          );
        }
      }),
    );
  });

  it("draws the webhook lane from its deliveries alone: a box only where the event's key answered, 'recorded' only where a run says so", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        const story = paymentStory(account, charges);
        expect(story.webhookDeliveries.map((row) => row.delivery)).toEqual(account.webhookDeliveries);
        for (const row of story.webhookDeliveries) {
          const { decision, outcome } = row.delivery;
          expect(row.work === "").toBe(
            decision === null || decision === "mismatch" || decision === "refused",
          );
          expect(row.work === "replay").toBe(decision === "replayed");
          const run = story.requests.find(
            (r) => r.attempt.sentBy === "webhook" && r.attempt.body.delivery === row.delivery.id,
          );
          expect(row.recordedAs).toBe(run?.n ?? null);
          expect(/ and recorded the payment/.test(row.caption)).toBe(
            outcome === "recorded" && decision === "executed",
          );
          if (decision !== "executed") expect(row.caption).toMatch(/recorded nothing|in flight/);
        }
        const texts = [story.webhookSentence, ...story.webhookDeliveries.map((row) => row.caption)];
        for (const n of texts.flatMap(requestNumbers)) expect(n).toBeLessThanOrEqual(story.requests.length);
        for (const n of texts.flatMap((text) =>
          [...text.matchAll(/delivery (\d+)/gi)].map((m) => Number(m[1])),
        ))
          expect(n).toBeLessThanOrEqual(story.webhookDeliveries.length);
      }),
    );
  });

  it("tells an overcharge only when the ledger holds two charges or more, naming requests that made one", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        const story = paymentStory(account, charges);
        expect(story.overcharge !== null).toBe(charges.length >= 2);
        const makers = new Set(story.requests.filter((row) => row.charges.length > 0).map((row) => row.n));
        for (const n of requestNumbers(story.overcharge ?? "")) expect(makers.has(n)).toBe(true);
      }),
    );
  });
});

describe("the payment's story, scenario by scenario", () => {
  const at = (i: number) => new Date(Date.UTC(2026, 11, 6, 10, 0, i)).toISOString();
  const account = (kinds: RequestKind[], keys: string[] = []) =>
    ({
      now: at(0),
      attempts: kinds.map((kind, i) => record(i + 1, kind, keys[i] ?? "pay_1", "g1")),
      providerCalls: [],
      webhookDeliveries: [],
      keys: [],
    }) satisfies ServerAccount;
  const charge = (madeBy: string, idempotencyKey = "pay_1"): LedgerCharge => ({
    id: `ch_${madeBy}`,
    idempotencyKey,
    naive: false,
    madeBy,
  });

  it("a lost reply: #1 charged and lost its reply, #2 replayed", () => {
    const story = paymentStory(account(["charged, reply lost", "replayed"]), [charge("r1")]);
    expect(story.whatHappened).toBe(
      "2 requests reached the server; 1 charge. #1 executed: charged the card, and its reply was lost. #2 replayed the stored result: charged nothing.",
    );
    expect(story.requests.map((row) => row.reply)).toEqual(["lost", "received"]);
  });

  it("a decline is no charge, and stored as final", () => {
    const story = paymentStory(account(["declined", "replayed"]), []);
    expect(story.requests[0]!.work).toBe("decline");
    expect(story.requests[0]!.caption).toBe(
      "executed: the card was declined; the decline is stored as final",
    );
  });

  it("a partial commit: #1 charged before its key was released, and that is the overcharge's cause", () => {
    const story = paymentStory(account(["partial commit", "charged"]), [charge("r1"), charge("r2")]);
    expect(story.requests[0]!.caption).toBe(
      "charged the card, then failed (HTTP 503) before completing its key, and released it",
    );
    expect(story.overcharge).toBe(
      "#1 charged the card, then released its key before completing it, so a retry under the same key ran again",
    );
  });

  it("a crash: #1 got no answer and #2 took its key over, told once each", () => {
    const story = paymentStory(account(["in flight", "took over and charged"]), [charge("r2")]);
    expect(story.requests.map((row) => row.caption)).toEqual([
      "got no answer; its server stopped, and #2 took its key over",
      "took over a dead owner's key and ran: charged the card",
    ]);
  });

  it("a waiter whose client left never 'went on'", () => {
    const story = paymentStory(account(["charged", "waited, client gone"]), [charge("r1")]);
    expect(story.requests[1]!.caption).toBe("waited; its client had left");
    expect(story.requests[1]!.reply).toBe("none");
  });

  const delivery = (n: number, change: Partial<WebhookDelivery>): WebhookDelivery => ({
    id: `d${n}`,
    at: at(10 + n),
    instance: "host:3000",
    event: "evt_1",
    type: "payment_intent.succeeded",
    paymentKey: "pay_1",
    decision: "executed",
    status: 200,
    outcome: "already recorded",
    durationMs: 4,
    ...change,
  });

  it("a webhook delivered twice: the first finds the payment recorded by #1, the second replays that answer", () => {
    const story = paymentStory(
      {
        ...account(["charged"]),
        webhookDeliveries: [delivery(1, {}), delivery(2, { decision: "replayed" })],
      },
      [charge("r1")],
    );
    expect(story.webhookSentence).toBe(
      "2 deliveries of 1 event." +
        " Delivery 1 (payment_intent.succeeded) ran under the event's id and found the payment already recorded by #1: recorded nothing." +
        ' Delivery 2 (payment_intent.succeeded) replayed the stored answer of delivery 1 ("already recorded"): recorded nothing.',
    );
    expect(story.webhookDeliveries.map((row) => row.work)).toEqual(["ran", "replay"]);
  });

  it("a decline's event finds the decline recorded, not a payment", () => {
    const story = paymentStory(
      {
        ...account(["declined"]),
        webhookDeliveries: [delivery(1, { type: "payment_intent.payment_failed" })],
      },
      [],
    );
    expect(story.webhookDeliveries[0]!.caption).toBe(
      "ran under the event's id and found the decline already recorded by #1: recorded nothing",
    );
  });

  it("the webhook before the shop's reply: it waits for #1, which holds the payment's key, and shares its record", () => {
    const story = paymentStory(
      { ...account(["charged"]), webhookDeliveries: [delivery(1, { outcome: "shared" })] },
      [charge("r1")],
    );
    expect(story.webhookDeliveries[0]!.caption).toBe(
      "ran under the event's id, found the payment's key held by #1, waited, and shared its record: recorded nothing itself",
    );
  });

  it("a crash, recorded by the webhook: its run is #2 in the request lane, named by its delivery", () => {
    const attempts = account(["in flight", "took over and charged"]).attempts;
    attempts[1] = { ...attempts[1]!, sentBy: "webhook", body: { event: "evt_1", delivery: "d1" } };
    const story = paymentStory(
      {
        ...account([]),
        attempts,
        webhookDeliveries: [delivery(1, { outcome: "recorded" })],
      },
      [charge("r2")],
    );
    expect(story.webhookDeliveries[0]!.caption).toBe(
      "ran under the event's id and recorded the payment, as #2",
    );
    expect(story.whatHappened).toContain(
      "#2 (the provider's webhook, delivery 1) took over a dead owner's key and ran: charged the card.",
    );
  });
});
