import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mailboxStory, queueStory } from "./queue-story";
import type { QueueAccount, QueueStory } from "./queue-story";

type Step = QueueAccount["steps"][number];
type Receipt = QueueAccount["receipts"][number];

/** An account as the worker leaves it, built step by step on a clock of its own. */
function accountOf(build: (put: ReturnType<typeof writer>) => void): QueueAccount {
  const put = writer();
  build(put);
  return put.account;
}

function writer() {
  let clock = 0;
  const account: QueueAccount = {
    events: [{ id: "evt_1", deadLettered: false }],
    chargedNaively: false,
    steps: [],
    receipts: [],
  };
  const at = () => new Date(Date.UTC(2026, 11, 6) + ++clock * 1000).toISOString();
  return {
    account,
    step(fields: Partial<Step> & Pick<Step, "step">) {
      const step: Step = {
        id: `qs_${clock}`,
        eventId: "evt_1",
        delivery: null,
        decision: null,
        pid: 100,
        at: at(),
        ackedAt: null,
        ...fields,
      };
      account.steps.push(step);
      return step;
    },
    receipt(fields: Pick<Receipt, "deliveryId"> & Partial<Receipt>) {
      account.receipts.push({
        id: `rcp_${account.receipts.length + 1}`,
        eventId: "evt_1",
        delivery: 1,
        chargeId: "ch_1",
        amountCents: 1200,
        pid: 100,
        naive: false,
        createdAt: at(),
        ...fields,
      });
    },
  };
}

const deliveryRows = (story: QueueStory) =>
  story.rows.flatMap((row) => (row.kind === "delivery" ? [row] : []));

describe("the queue story", () => {
  it("draws the delivery that sent a receipt even when its worker died before recording it", () => {
    // Item 9 of issue 34: the receipt committed, the worker died before its "delivered" step; the redelivery replayed.
    const account = accountOf((put) => {
      put.step({ step: "published" });
      put.receipt({ deliveryId: "qs_lost", delivery: 1, pid: 100 });
      put.step({ id: "qs_2", step: "delivered", delivery: 2, decision: "replayed", pid: 200, ackedAt: "x" });
    });
    const story = queueStory(account);
    expect(story.sentence).toBe(
      "2 deliveries; 1 receipt: delivery 1 sent it and died before its ack, delivery 2 replayed delivery 1's receipt.",
    );
    const [first, second] = deliveryRows(story);
    expect(first).toMatchObject({
      id: "qs_lost",
      number: 1,
      to: "to worker 100",
      decision: null,
      receipts: [{ id: "rcp_1", naive: false, extra: false }],
      box: "receipt",
      ack: { arrow: "none", words: "died before its ack" },
    });
    expect(first!.outcome).toContain("drawn from the receipt's own row");
    expect(second).toMatchObject({ number: 2, receipts: [], box: "answered", ack: { arrow: "acked" } });
    expect(story.workers.map((worker) => worker.name)).toEqual(["Worker 100", "Worker 200"]);
  });

  it("tells a worker that died between its record and its ack, and the redelivery the key answered", () => {
    const account = accountOf((put) => {
      put.step({ step: "published" });
      put.receipt({ deliveryId: "qs_1" });
      put.step({ id: "qs_1", step: "delivered", delivery: 1, decision: "executed" });
      put.step({ step: "delivered", delivery: 2, decision: "replayed", pid: 200, ackedAt: "x" });
    });
    const story = queueStory(account);
    expect(story.sentence).toBe(
      "2 deliveries; 1 receipt: delivery 1 sent it and died before its ack, delivery 2 replayed delivery 1's receipt.",
    );
    expect(deliveryRows(story).map((row) => [row.outcome, row.ack.words])).toEqual([
      ["executed: sent the receipt", "died before its ack"],
      ["replayed: answered with delivery 1's receipt, none sent", "acknowledged"],
    ]);
  });

  it("counts the naive consumer's second receipt as damage, on the delivery that sent it", () => {
    const account = accountOf((put) => {
      put.receipt({ deliveryId: "qs_1", naive: true });
      put.step({ id: "qs_1", step: "delivered", delivery: 1, decision: "sent naively" });
      put.receipt({ deliveryId: "qs_2", naive: true, delivery: 2, pid: 200 });
      put.step({
        id: "qs_2",
        step: "delivered",
        delivery: 2,
        decision: "sent naively",
        pid: 200,
        ackedAt: "x",
      });
    });
    const story = queueStory(account);
    expect(story.sentence).toBe(
      "2 deliveries; 2 receipts: delivery 1 sent it naively and died before its ack, delivery 2 sent another naively.",
    );
    expect(deliveryRows(story).map((row) => row.damage)).toEqual([null, "a second receipt"]);
    expect(mailboxStory(account)).toMatchObject({
      count: "2 receipts",
      verdict: { words: "sent 2 times", badge: "danger" },
      damaged: true,
    });
  });

  it("numbers a copy's deliveries after the first's, and a poison message's dead-lettering by the same numbers", () => {
    const twice = accountOf((put) => {
      put.step({ step: "published" });
      put.step({ step: "published", eventId: "evt_1.copy" });
      put.receipt({ deliveryId: "qs_3" });
      put.step({ id: "qs_3", step: "delivered", delivery: 1, decision: "executed", ackedAt: "x" });
      put.step({ eventId: "evt_1.copy", step: "delivered", delivery: 1, decision: "replayed", ackedAt: "x" });
    });
    expect(queueStory(twice).sentence).toBe(
      "Published 2 times; 2 deliveries; 1 receipt: delivery 1 sent it, delivery 2 replayed delivery 1's receipt.",
    );
    const poison = accountOf((put) => {
      put.step({ step: "delivered", delivery: 1, decision: "failed" });
      put.step({ step: "delivered", delivery: 2, decision: "failed" });
      put.step({ step: "dead-lettered", delivery: 2 });
    });
    const story = queueStory(poison);
    expect(story.sentence).toBe(
      "2 deliveries; 0 receipts: delivery 1 failed, delivery 2 failed; its last allowed delivery failed, and the queue dead-lettered it.",
    );
    expect(story.rows.at(-1)).toMatchObject({
      kind: "dead-letter",
      caption: "dead-lettered after delivery 2",
    });
    expect(queueStory({ ...poison, steps: [] }).sentence).toBe("0 deliveries; 0 receipts.");
  });
});

describe("the mailbox's words", () => {
  const none: Parameters<typeof mailboxStory>[0] = { events: [], chargedNaively: false, receipts: [] };
  it("says on its way only while a payment event can still bring a receipt, and otherwise why none will come", () => {
    const verdict = (account: Partial<typeof none>) => mailboxStory({ ...none, ...account }).verdict;
    expect(verdict({ events: [{ id: "evt_1", deadLettered: false }] })).toEqual({
      words: "on its way",
      badge: "waiting",
      why: null,
    });
    const noReceipt = { words: "no receipt will come", badge: "danger" };
    expect(verdict({ events: [{ id: "evt_1", deadLettered: true }] })).toEqual({
      ...noReceipt,
      why: "the queue dead-lettered its payment event",
    });
    expect(verdict({ chargedNaively: true })).toEqual({
      ...noReceipt,
      why: "the naive client's charge wrote no payment.succeeded event",
    });
    expect(verdict({})).toEqual({
      ...noReceipt,
      why: "its charge skipped the outbox (a lab pitfall): no payment.succeeded event",
    });
  });
});

/** How a delivery ends: acked, its worker dead after its record or before it (after the receipt's commit), or failed. */
const FATES = ["acked", "dies before ack", "dies before record", "fails"] as const;

const deliveryArbitrary = fc.record({
  copy: fc.nat({ max: 1 }),
  pid: fc.constantFrom(100, 200, 300),
  naive: fc.boolean(),
  fate: fc.constantFrom(...FATES),
  /** How the run-once core answered a keyed delivery after the receipt: from the store, or by waiting on it. */
  answer: fc.constantFrom("replayed", "coalesced"),
  /** How a keyed delivery executed: the first claim, or a dead owner's key taken over. */
  execution: fc.constantFrom("executed", "taken_over"),
});

/**
 * Runs a sequence of deliveries through a model of the worker (the run-once
 * key, the naive consumer, deaths and poison, the queue's own counts and
 * dead-lettering) and writes the account it would leave.
 */
function simulate(
  copies: number,
  maxDeliveries: number,
  deliveries: ReadonlyArray<typeof deliveryArbitrary extends fc.Arbitrary<infer D> ? D : never>,
): QueueAccount {
  return accountOf((put) => {
    const events = Array.from({ length: copies }, (_, copy) => (copy === 0 ? "evt_1" : "evt_1.copy"));
    put.account.events = events.map((id) => ({ id, deadLettered: false }));
    for (const eventId of events) put.step({ step: "published", eventId });
    const counts = events.map(() => 0);
    let keyCompleted = false;
    for (const delivery of deliveries) {
      const copy = delivery.copy % copies;
      const eventId = events[copy]!;
      if (put.account.events[copy]!.deadLettered) continue;
      const number = ++counts[copy]!;
      const id = `dlv_${eventId}_${number}`;
      const about = { id, eventId, delivery: number, pid: delivery.pid };
      if (delivery.fate === "fails") {
        put.step({ ...about, step: "delivered", decision: "failed" });
        if (number >= maxDeliveries) {
          put.step({ step: "dead-lettered", eventId, delivery: number, pid: delivery.pid });
          put.account.events[copy]!.deadLettered = true;
        }
        continue;
      }
      const sends = delivery.naive || !keyCompleted;
      if (sends)
        put.receipt({ deliveryId: id, eventId, delivery: number, pid: delivery.pid, naive: delivery.naive });
      if (!delivery.naive) keyCompleted = true;
      if (delivery.fate === "dies before record") continue;
      const decision = delivery.naive ? "sent naively" : sends ? delivery.execution : delivery.answer;
      put.step({ ...about, step: "delivered", decision, ackedAt: delivery.fate === "acked" ? "x" : null });
    }
  });
}

describe("the queue story, for any sequence of deliveries", () => {
  const settings = {
    seed: Number(process.env.FC_SEED ?? 20_261_206),
    numRuns: Number(process.env.FC_RUNS ?? 300),
  };
  const scenario = fc.tuple(
    fc.integer({ min: 1, max: 2 }),
    fc.integer({ min: 1, max: 5 }),
    fc.array(deliveryArbitrary, { maxLength: 12 }),
  );

  it("draws each receipt mark on exactly the delivery its receipt's own row names, and no other", () => {
    fc.assert(
      fc.property(scenario, ([copies, max, deliveries]) => {
        const account = simulate(copies, max, deliveries);
        const rows = deliveryRows(queueStory(account));
        for (const row of rows) {
          const made = account.receipts.filter((receipt) => receipt.deliveryId === row.id);
          expect(row.receipts.map((mark) => mark.id)).toEqual(made.map((receipt) => receipt.id));
          expect(row.box === "receipt").toBe(made.length > 0);
          // Damage exactly where a receipt came after the order's first.
          expect(row.damage !== null).toBe(made.some((receipt) => receipt.id !== account.receipts[0]!.id));
        }
        const drawn = rows.flatMap((row) => row.receipts.map((mark) => mark.id));
        expect(drawn.sort()).toEqual(account.receipts.map((receipt) => receipt.id).sort());
        expect(mailboxStory(account).count).toBe(
          `${account.receipts.length} receipt${account.receipts.length === 1 ? "" : "s"}`,
        );
      }),
      settings,
    );
  });

  it("numbers the deliveries once, in the figure's order, and every number a sentence or caption names is a row", () => {
    fc.assert(
      fc.property(scenario, ([copies, max, deliveries]) => {
        const account = simulate(copies, max, deliveries);
        const story = queueStory(account);
        const rows = deliveryRows(story);
        expect(rows.map((row) => row.number)).toEqual(rows.map((_, i) => i + 1));
        const words = [
          story.sentence,
          ...story.rows.map((row) => (row.kind === "delivery" ? row.outcome : row.caption)),
        ].join(" ");
        for (const [, named] of words.matchAll(/delivery (\d+)/gi)) {
          expect(Number(named)).toBeGreaterThanOrEqual(1);
          expect(Number(named)).toBeLessThanOrEqual(rows.length);
        }
        // And the row it names is the one meant: a receipt's maker, the delivery a dead letter followed.
        for (const [, named] of words.matchAll(/delivery (\d+)'s receipt/g)) {
          expect(rows[Number(named) - 1]!.box).toBe("receipt");
        }
        for (const [, named] of words.matchAll(/dead-lettered after delivery (\d+)/g)) {
          expect(rows[Number(named) - 1]!.box).toBe("failed");
        }
        const [, told, sent] = /(\d+) deliver(?:y|ies); (\d+) receipts?/.exec(story.sentence)!;
        expect([Number(told), Number(sent)]).toEqual([rows.length, account.receipts.length]);
      }),
      settings,
    );
  });
});
