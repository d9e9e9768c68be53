import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  ProviderCall,
  RequestView,
  ServerAccount,
  WebhookDelivery,
  WebhookTry,
} from "../server-account";
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

function record(i: number, kind: RequestKind, key: string, generation: string): RequestView {
  const base: RequestView = {
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
    delivery: null,
  };
  const as = (change: Partial<RequestView>): RequestView => ({ ...base, ...change });
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

/** A call of the shop's that is not any charge's: noise under the payment keys, by any run or none on record. */
const noiseCall = fc.record({
  key: fc.nat(1),
  run: fc.nat(12),
  answer: fc.constantFrom(
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
  /** The provider's record of the try shows it (else: sent by hand, or the provider shows none). */
  tried: fc.boolean(),
  answer: fc.constantFrom(
    { decision: "executed", status: 200, outcome: "recorded" },
    { decision: "executed", status: 200, outcome: "already recorded" },
    { decision: "executed", status: 200, outcome: "shared" },
    { decision: "executed", status: 200, outcome: "not a payment of this shop's" },
    { decision: "replayed", status: 200, outcome: "already recorded" },
    { decision: "coalesced", status: 200, outcome: "recorded" },
    { decision: "conflict", status: 409, outcome: null },
    { decision: "released", status: 409, outcome: "payment key held" },
    { decision: "released", status: 503, outcome: "failed" },
    { decision: null, status: null, outcome: null },
  ),
});

/** A try of the provider's that reached no record of the shop's: its server died before answering or writing one. */
const lostTry = fc.record({ event: fc.constantFrom("evt_1", "evt_2"), answered: fc.boolean() });

/** The kinds whose charge a dead owner's call (an earlier run of the key, in flight) may have made. */
const RECORDS_ANOTHERS = new Set<RequestKind>([
  "took over and charged",
  "completer charged",
  "charged, client gone",
]);

/**
 * A world of runs, provider calls, webhook deliveries and the ledger they left: each charge recorded by its
 * run and made by one call, of that run or of a dead owner of its key, whose reply came (the provider's
 * request id on record) or not.
 */
const world = fc
  .record({
    kinds: fc.array(
      fc.record({
        kind: fc.constantFrom(...requestKinds),
        key: fc.nat(1),
        byDeadOwner: fc.boolean(),
        replied: fc.boolean(),
      }),
      { maxLength: 12 },
    ),
    noise: fc.array(noiseCall, { maxLength: 6 }),
    deliveries: fc.array(webhookDelivery, { maxLength: 5 }),
    lostTries: fc.array(lostTry, { maxLength: 2 }),
    providerShowsTries: fc.boolean(),
    unrecordedCharges: fc.nat(1),
    keyStates: fc.tuple(
      fc.constantFrom("absent" as const, "in_progress" as const, "completed" as const),
      fc.constantFrom("absent" as const, "in_progress" as const, "completed" as const),
    ),
  })
  .map(({ kinds, noise, deliveries, lostTries, providerShowsTries, unrecordedCharges, keyStates }) => {
    const requests = kinds.map(({ kind, key }, i) => record(i + 1, kind, `pay_${key + 1}`, `g${key}`));
    const at = (minute: number, i: number) => new Date(Date.UTC(2026, 11, 6, 10, minute, i)).toISOString();
    const webhookDeliveries: WebhookDelivery[] = deliveries.map((delivery, i) => ({
      id: `d${i + 1}`,
      at: at(2, i * 2 + 1),
      instance: "host:3000",
      road: "webhook",
      event: delivery.event,
      type: "payment_intent.succeeded",
      tells: "charge",
      paymentKey: "pay_1",
      decision: delivery.answer.decision as WebhookDelivery["decision"],
      status: delivery.answer.status,
      outcome: delivery.answer.outcome as WebhookDelivery["outcome"],
      durationMs: 4,
    }));
    const webhookTries: WebhookTry[] = [
      ...deliveries.flatMap((delivery, i) =>
        delivery.tried
          ? [{ id: `t${i}`, event: delivery.event, at: at(2, i * 2 + 1), status: delivery.answer.status }]
          : [],
      ),
      ...lostTries.map((t, i) => ({
        id: `lost${i}`,
        event: t.event,
        at: at(2, 20 + i),
        status: t.answered ? 200 : null,
      })),
    ].map((t, i) => ({
      ...t,
      type: "payment_intent.succeeded",
      try: i + 1,
      error: t.status === null ? "socket hang up" : null,
      durationMs: 5,
    }));
    // A webhook's run under the payment's key names the delivery that ran it: the first that recorded.
    const recording = webhookDeliveries.find((d) => d.decision === "executed" && d.outcome === "recorded");
    requests.forEach((request, i) => {
      if (recording && kinds[i]!.kind === "completer charged" && i % 2 === 0) {
        requests[i] = { ...request, sentBy: "webhook", delivery: recording.id };
      }
    });
    const calls: ProviderCall[] = [];
    const call = (
      run: string,
      key: string,
      answer: Pick<ProviderCall, "decision" | "status" | "noReply" | "requestId">,
    ) =>
      calls.push({
        id: `c${calls.length + 1}`,
        at: at(1, calls.length),
        instance: "host:3000",
        key: `${key}/charge`,
        paymentKey: key,
        run,
        path: "POST /v1/payment_intents",
        purpose: "charge",
        try: 1,
        durationMs: 3,
        ...answer,
      });
    /** Each charge's true maker: the run whose call made it. */
    const makers = new Map<string, string>();
    const charges: LedgerCharge[] = kinds.flatMap(({ kind, byDeadOwner, replied }, i) => {
      if (!CHARGING.has(kind)) return [];
      const recorder = requests[i]!;
      const owner = requests.slice(0, i).find((r) => r.key === recorder.key && r.decision === null);
      const maker = byDeadOwner && owner && RECORDS_ANOTHERS.has(kind) ? owner : recorder;
      const id = `ch_${i + 1}`;
      makers.set(id, maker.id);
      call(maker.id, recorder.key, {
        requestId: replied ? `req_${i + 1}` : null,
        ...(replied
          ? { decision: "executed", status: 200, noReply: false }
          : { decision: null, status: null, noReply: true }),
      });
      return [
        {
          id,
          idempotencyKey: recorder.key,
          providerKey: `${recorder.key}/charge`,
          providerRequestId: `req_${i + 1}`,
          naive: kind.startsWith("naive"),
          recordedBy: recorder.id,
        },
      ];
    });
    noise.forEach((n, i) =>
      call(requests[n.run]?.id ?? `gone_${n.run}`, `pay_${n.key + 1}`, {
        ...(n.answer as Pick<ProviderCall, "decision" | "status" | "noReply">),
        requestId: n.answer.status === null ? null : `noise_${i}`,
      }),
    );
    for (let i = 0; i < unrecordedCharges; i++) {
      charges.push({
        id: `ch_swept_${i}`,
        idempotencyKey: "pay_1",
        providerKey: "pay_swept/charge",
        providerRequestId: `req_swept_${i}`,
        naive: false,
        recordedBy: null,
      });
    }
    const keys = keyStates.map((state, i) => ({
      key: `pay_${i + 1}`,
      state,
      lockedUntil: state === "in_progress" ? "2026-12-06T10:05:00.000Z" : null,
      expiresAt: state === "completed" ? "2026-12-07T10:00:00.000Z" : null,
    }));
    const account: ServerAccount = {
      now: new Date().toISOString(),
      requests,
      providerCalls: calls,
      webhookDeliveries,
      webhookTries: providerShowsTries ? webhookTries : null,
      keys,
    };
    return { account, charges, makers };
  });

/** Every "#n" a sentence names. */
const requestNumbers = (text: string) => [...text.matchAll(/#(\d+)/g)].map((m) => Number(m[1]));

describe("the payment's story, for any sequence of runs, calls, deliveries and charges", () => {
  it("says 'charged the card' only on the run whose call made the charge, and 'recorded' on a run that recorded another's", () => {
    fc.assert(
      fc.property(world, ({ account, charges, makers }) => {
        const story = paymentStory(account, charges);
        for (const row of story.requests) {
          // Never a charge this run's call did not make.
          for (const charge of row.charges) expect(makers.get(charge)).toBe(row.record.id);
          expect(row.work === "charge").toBe(row.charges.length > 0);
          expect(/charged the card/.test(row.caption)).toBe(row.charges.length > 0);
          if (row.charges.length === 0 && row.record.sentBy !== "naive client")
            expect(/recorded the charge that/.test(row.caption)).toBe(row.recorded.length > 0);
          for (const charge of row.recorded) {
            expect(charges.find((c) => c.id === charge)?.recordedBy).toBe(row.record.id);
            expect(makers.get(charge) === row.record.id && row.charges.includes(charge)).toBe(false);
          }
        }
        // A charge whose call's reply came is told on the run that made it, always.
        for (const charge of charges) {
          const made = account.providerCalls.find((call) => call.requestId === charge.providerRequestId);
          if (made)
            expect(story.requests.find((row) => row.charges.includes(charge.id))?.record.id).toBe(made.run);
        }
        const drawn = story.requests.flatMap((row) => [...row.charges, ...row.recorded]);
        expect([...new Set(drawn), ...story.unrecordedCharges].sort()).toEqual(
          charges.map((c) => c.id).sort(),
        );
      }),
    );
  });

  it("draws a reply arrow to the client only when the record says a reply reached it", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        for (const row of paymentStory(account, charges).requests) {
          const { decision, sentBy, replyLost, status } = row.record;
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
        const calls = [
          story.providerSentence,
          story.whatHappened,
          ...story.providerCalls.map((row) => row.caption),
        ]
          .flatMap((text) => [...text.matchAll(/calls? ([\d, ]+(?: (?:or|and) \d+)?)/gi)])
          .flatMap((m) => m[1]!.split(/, | or | and /).map(Number));
        for (const n of calls) expect(n).toBeLessThanOrEqual(story.providerCalls.length);
        if (story.providerCalls.length > 0) {
          const made = story.providerCalls.filter((row) => row.mark === "charge").length;
          expect(story.providerSentence).toContain(`; ${made} charge${made === 1 ? "" : "s"} made.`);
        }
      }),
    );
  });

  it("marks a provider charge only on a call that made a ledger charge, or whose own reply says it charged; 'charged the card' only there", () => {
    fc.assert(
      fc.property(world, ({ account, charges, makers }) => {
        const rows = paymentStory(account, charges).providerCalls;
        for (const row of rows) {
          const repliedCharge =
            row.reply === "received" && row.call.decision === "executed" && row.call.status === 200;
          const made = charges.some(
            (charge) => makers.get(charge.id) === row.call.run && charge.providerKey === row.call.key,
          );
          if (row.mark === "charge") expect(repliedCharge || made).toBe(true);
          expect(/charged the card/.test(row.caption)).toBe(row.mark === "charge");
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
          expect(holder.record.key).toBe(key);
          expect(holdsKey(holder.record)).toBe(true);
          expect(rows.slice(status.request).some((r) => r.record.key === key && holdsKey(r.record))).toBe(
            false,
          );
        }
      }),
    );
  });

  it("draws the webhook lane from the provider's tries, each once, with the shop's record where it has one", () => {
    fc.assert(
      fc.property(world, ({ account, charges }) => {
        const story = paymentStory(account, charges);
        const rows = story.webhookDeliveries;
        // The provider's tries, each drawn once, in its order; the shop's records each drawn once too.
        if (account.webhookTries !== null) {
          expect(rows.flatMap((row) => (row.try ? [row.try] : []))).toEqual(account.webhookTries);
        }
        const shops = rows.flatMap((row) => (row.delivery ? [row.delivery.id] : []));
        expect(shops.sort()).toEqual(account.webhookDeliveries.map((d) => d.id).sort());
        expect(story.webhookSentence.startsWith(`${rows.length} deliver`) || rows.length === 0).toBe(true);
        for (const row of rows) {
          const decision = row.delivery?.decision ?? null;
          expect(row.work === "").toBe(
            decision === null || decision === "mismatch" || decision === "refused",
          );
          expect(row.work === "replay").toBe(decision === "replayed");
          // A delivery that waited and shared its record is drawn waiting, never running.
          if (row.delivery?.outcome === "shared") expect(row.work).toBe("wait");
          const run = story.requests.find(
            (r) => r.record.sentBy === "webhook" && r.record.delivery === row.delivery?.id,
          );
          expect(row.recordedAs).toBe(run?.n ?? null);
          expect(/ and recorded the payment/.test(row.caption)).toBe(
            row.delivery?.outcome === "recorded" && decision === "executed",
          );
          if (decision !== "executed")
            expect(row.caption).toMatch(/recorded nothing|in flight|never answered|account of it/);
        }
        const texts = [story.webhookSentence, ...rows.map((row) => row.caption)];
        for (const n of texts.flatMap(requestNumbers)) expect(n).toBeLessThanOrEqual(story.requests.length);
        for (const n of texts.flatMap((text) =>
          [...text.matchAll(/delivery (\d+)/gi)].map((m) => Number(m[1])),
        ))
          expect(n).toBeLessThanOrEqual(rows.length);
      }),
    );
  });

  it("tells an overcharge only when the ledger holds two charges or more, naming runs that made one", () => {
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
      requests: kinds.map((kind, i) => record(i + 1, kind, keys[i] ?? "pay_1", "g1")),
      providerCalls: [],
      webhookDeliveries: [],
      webhookTries: null,
      keys: [],
    }) satisfies ServerAccount;
  /** The call of run `run` under pay_1's provider key: answered with `requestId`, or never. */
  const call = (n: number, run: string, answer: Partial<ProviderCall> = {}): ProviderCall => ({
    id: `c${n}`,
    at: at(n),
    instance: "host:3000",
    key: "pay_1/charge",
    path: "POST /v1/payment_intents",
    purpose: "charge",
    try: 1,
    run,
    paymentKey: "pay_1",
    requestId: `req_${n}`,
    decision: "executed",
    status: 200,
    durationMs: 3,
    noReply: false,
    ...answer,
  });
  const noReply = { requestId: null, decision: null, status: null, noReply: true };
  /** A ledger charge recorded by `recordedBy`, made by the provider's request `made`. */
  const charge = (
    recordedBy: string,
    idempotencyKey = "pay_1",
    made: string | null = null,
  ): LedgerCharge => ({
    id: `ch_${recordedBy}`,
    idempotencyKey,
    providerKey: `${idempotencyKey}/charge`,
    providerRequestId: made,
    naive: false,
    recordedBy,
  });
  /** A run and its one call that charged: the story finds the call by the charge's request id. */
  const chargedBy = (kinds: RequestKind[], run: number, keys?: string[]) => ({
    ...account(kinds, keys),
    providerCalls: [call(1, `r${run}`, { key: `${keys?.[run - 1] ?? "pay_1"}/charge` })],
  });

  it("a lost reply: #1 charged and lost its reply, #2 replayed", () => {
    const story = paymentStory(chargedBy(["charged, reply lost", "replayed"], 1), [
      charge("r1", "pay_1", "req_1"),
    ]);
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
    const story = paymentStory(
      { ...account(["partial commit", "charged"]), providerCalls: [call(1, "r1"), call(2, "r2")] },
      [charge("r1", "pay_1", "req_1"), { ...charge("r2", "pay_1", "req_2"), id: "ch_2" }],
    );
    expect(story.requests[0]!.caption).toBe(
      "charged the card, then failed (HTTP 503) before completing its key, and released it",
    );
    expect(story.overcharge).toBe(
      "#1 charged the card, then released its key before completing it, so a retry under the same key ran again",
    );
  });

  it("a crash: #1's call charged and it got no answer; #2 took its key over and recorded that charge", () => {
    // #1's call 1 was answered (its reply on record), then its server stopped; #2's call 2 was a replay of it.
    const story = paymentStory(
      {
        ...account(["in flight", "took over and charged"]),
        providerCalls: [call(1, "r1"), call(2, "r2", { decision: "replayed" })],
      },
      [charge("r2", "pay_1", "req_1")],
    );
    expect(story.requests.map((row) => row.caption)).toEqual([
      "charged the card (call 1), then got no answer; its server stopped, and #2 took its key over",
      "took over a dead owner's key and recorded the charge that call 1 made",
    ]);
    expect(story.requests.map((row) => row.work)).toEqual(["charge", "record"]);
    expect(story.providerCalls.map((row) => [row.mark, row.caption])).toEqual([
      ["charge", "charged the card"],
      [null, "replayed the stored result: charged nothing"],
    ]);
  });

  it("a crash before the call's reply was on record: the replay names another request, so the call that got none charged", () => {
    const story = paymentStory(
      {
        ...account(["in flight", "took over and charged"]),
        providerCalls: [
          call(1, "r1", { ...noReply, noReply: false }),
          call(2, "r2", { decision: "replayed" }),
        ],
      },
      [charge("r2", "pay_1", "req_0")],
    );
    expect(story.providerCalls[0]!.caption).toBe(
      "charged the card; its server stopped before a reply was on record (call 2's answer shows it)",
    );
    expect(story.requests[1]!.caption).toBe(
      "took over a dead owner's key and recorded the charge that call 1 made",
    );
  });

  it("two calls that got no reply, of two runs: the records cannot tell which charged, and say so", () => {
    const story = paymentStory(
      {
        ...account(["in flight", "in flight", "took over and charged"]),
        providerCalls: [
          call(1, "r1", noReply),
          call(2, "r2", noReply),
          call(3, "r3", { decision: "replayed" }),
        ],
      },
      [charge("r3", "pay_1", "req_0")],
    );
    expect(story.requests.map((row) => row.charges)).toEqual([[], [], []]);
    expect(story.requests[2]!.caption).toBe(
      "took over a dead owner's key and recorded the charge that calls 1 or 2 made",
    );
    expect(story.providerCalls[0]!.caption).toBe(
      "no reply reached the shop (its reply never reached the shop); one of calls 1 and 2 made the charge, and the records cannot tell which",
    );
  });

  it("a takeover of a dead owner no record shows: its server stopped before writing its account", () => {
    const story = paymentStory(chargedBy(["took over and charged"], 1), [charge("r1", "pay_1", "req_1")]);
    expect(story.requests[0]!.caption).toBe(
      "took over the key of a dead owner its server never wrote an account of and ran: charged the card",
    );
  });

  it("a waiter whose client left never 'went on'", () => {
    const story = paymentStory(chargedBy(["charged", "waited, client gone"], 1), [
      charge("r1", "pay_1", "req_1"),
    ]);
    expect(story.requests[1]!.caption).toBe("waited; its client had left");
    expect(story.requests[1]!.reply).toBe("none");
  });

  const delivery = (n: number, change: Partial<WebhookDelivery>): WebhookDelivery => ({
    id: `d${n}`,
    at: at(10 + n),
    instance: "host:3000",
    road: "webhook",
    event: "evt_1",
    type: "payment_intent.succeeded",
    tells: "charge",
    paymentKey: "pay_1",
    decision: "executed",
    status: 200,
    outcome: "already recorded",
    durationMs: 4,
    ...change,
  });
  const providerTry = (n: number, change: Partial<WebhookTry> = {}): WebhookTry => ({
    id: `t${n}`,
    event: "evt_1",
    type: "payment_intent.succeeded",
    try: n,
    at: at(10 + n),
    status: 200,
    error: null,
    durationMs: 5,
    ...change,
  });

  it("a webhook delivered twice: the first finds the payment recorded by #1, the second replays that answer", () => {
    const story = paymentStory(
      {
        ...chargedBy(["charged"], 1),
        webhookDeliveries: [delivery(1, {}), delivery(2, { decision: "replayed" })],
      },
      [charge("r1", "pay_1", "req_1")],
    );
    expect(story.webhookSentence).toBe(
      "2 deliveries of 1 event." +
        " Delivery 1 (payment_intent.succeeded) ran under the event's id and found the payment already recorded by #1: recorded nothing." +
        ' Delivery 2 (payment_intent.succeeded) replayed the stored answer of delivery 1 ("already recorded"): recorded nothing.',
    );
    expect(story.webhookDeliveries.map((row) => row.work)).toEqual(["ran", "replay"]);
  });

  it("a decline's event finds the decline recorded, not a payment: by what the event tells, not its type's name", () => {
    const story = paymentStory(
      {
        ...account(["declined"]),
        webhookDeliveries: [delivery(1, { type: "payment_intent.payment_failed", tells: "decline" })],
      },
      [],
    );
    expect(story.webhookDeliveries[0]!.caption).toBe(
      "ran under the event's id and found the decline already recorded by #1: recorded nothing",
    );
  });

  it("the webhook before the shop's reply: its box says it waited for #1, which holds the payment's key, and shared its record", () => {
    const story = paymentStory(
      { ...chargedBy(["charged"], 1), webhookDeliveries: [delivery(1, { outcome: "shared" })] },
      [charge("r1", "pay_1", "req_1")],
    );
    expect(story.webhookDeliveries[0]!.work).toBe("wait");
    expect(story.webhookDeliveries[0]!.caption).toBe(
      "waited for #1 holding the payment's key, and shared its record: recorded nothing itself",
    );
  });

  it("a crash, recorded by the webhook: its run is #2, named by its delivery, and says it recorded call 1's charge", () => {
    const base = account(["in flight", "took over and charged"]);
    const requests = [
      base.requests[0]!,
      { ...base.requests[1]!, sentBy: "webhook" as const, delivery: "d1" },
    ];
    const story = paymentStory(
      {
        ...base,
        requests,
        providerCalls: [call(1, "r1", noReply)],
        webhookDeliveries: [delivery(1, { outcome: "recorded" })],
      },
      [charge("r2", "pay_1", "req_1")],
    );
    expect(story.webhookDeliveries[0]!.caption).toBe(
      "ran under the event's id and recorded the payment, as #2",
    );
    expect(story.whatHappened).toContain(
      "#1 charged the card (call 1), then got no answer; its server stopped, and #2 took its key over.",
    );
    expect(story.whatHappened).toContain(
      "#2 (the provider's webhook, delivery 1) took over a dead owner's key and recorded the charge that call 1 made.",
    );
  });

  it("deliveries around a crash, from the provider's tries: one unanswered, then the next; the holder at that moment", () => {
    // #1 held the key and died; the first try reached nobody that answered; #2 took over; the second try found #2's record.
    const story = paymentStory(
      {
        ...chargedBy(["in flight", "took over and charged"], 2),
        webhookTries: [providerTry(1, { status: null, error: "socket hang up", at: at(1) }), providerTry(2)],
        webhookDeliveries: [delivery(2, {})],
      },
      [charge("r2", "pay_1", "req_1")],
    );
    expect(story.webhookSentence).toBe(
      "2 deliveries of 1 event." +
        " Delivery 1 (payment_intent.succeeded) got no answer (socket hang up): the shop's server never answered; the provider delivered it again." +
        " Delivery 2 (payment_intent.succeeded) ran under the event's id and found the payment already recorded by #2: recorded nothing.",
    );
  });

  it("the endpoint down: the catch-up records the payment as #2, and the late redelivery replays it", () => {
    const base = account(["in flight", "took over and charged"]);
    const requests = [
      base.requests[0]!,
      { ...base.requests[1]!, sentBy: "catch-up" as const, delivery: "d1" },
    ];
    const story = paymentStory(
      {
        ...base,
        requests,
        providerCalls: [call(1, "r1", noReply)],
        webhookTries: [providerTry(1, { status: 503, at: at(1) }), providerTry(3)],
        webhookDeliveries: [
          delivery(2, { id: "d1", road: "catch-up", status: null, outcome: "recorded" }),
          delivery(3, { id: "d2", decision: "replayed", outcome: "recorded" }),
        ],
      },
      [charge("r2", "pay_1", "req_1")],
    );
    // The catch-up is no try of the provider's: the refused try stays unpaired, the late one pairs with its delivery.
    expect(story.webhookDeliveries.map((row) => [row.try?.id ?? null, row.delivery?.id ?? null])).toEqual([
      ["t1", null],
      [null, "d1"],
      ["t3", "d2"],
    ]);
    expect(story.webhookDeliveries.map((row) => row.caption)).toEqual([
      "answered HTTP 503; the shop wrote no account of it",
      "ran under the event's id and recorded the payment, as #2",
      'replayed the stored answer of catch-up 2 ("recorded"): recorded nothing',
    ]);
    expect(story.whatHappened).toContain("the catch-up recorded the payment from the provider's events");
    expect(story.whatHappened).toContain("#2 (the catch-up, catch-up 2)");
    // The provider made two tries: the catch-up is counted apart from them.
    expect(story.webhookSentence).toMatch(/^2 deliveries and 1 catch-up of 1 event\./);
    expect(story.requests[1]!.reply).toBe("none");
  });

  it("a payment the shop did not make (the lab's naive charge): the delivered event is drawn, answered, recording nothing", () => {
    const story = paymentStory(
      {
        ...account([]),
        webhookDeliveries: [delivery(1, { outcome: "not a payment of this shop's", paymentKey: "naive_1" })],
      },
      [],
    );
    expect(story.webhookDeliveries[0]!.caption).toBe(
      "told of a payment the shop did not make (the lab's own charge): answered 200, recorded nothing",
    );
  });
});
