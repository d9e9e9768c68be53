import { expect, it } from "vitest";
import { queueSummary } from "./queue-summary";
import type { QueueStep } from "./queue-summary";

let clock = 0;
const step = (fields: Partial<QueueStep>): QueueStep => ({
  id: `qs_${++clock}`,
  eventId: "evt_1",
  step: "delivered",
  delivery: 1,
  decision: "executed",
  pid: 100,
  at: new Date(clock * 1000).toISOString(),
  ackedAt: new Date(clock * 1000 + 500).toISOString(),
  ...fields,
});

it("tells a worker that died between the receipt and its ack, and the redelivery the key answered", () => {
  const steps = [
    step({ step: "published", delivery: null, decision: null, ackedAt: null }),
    step({ ackedAt: null }),
    step({ delivery: 2, decision: "replayed", pid: 200 }),
  ];
  expect(queueSummary(steps)).toBe(
    "2 deliveries; 1 receipt: delivery 1 sent it and died before its ack, delivery 2 replayed.",
  );
});

it("counts the naive consumer's second receipt", () => {
  const steps = [
    step({ decision: "sent naively", ackedAt: null }),
    step({ decision: "sent naively", pid: 200 }),
  ];
  expect(queueSummary(steps)).toBe(
    "2 deliveries; 2 receipts: delivery 1 sent it naively and died before its ack, delivery 2 sent another naively.",
  );
});

it("tells a message published twice, and a poison message dead-lettered", () => {
  const twice = [
    step({ step: "published", delivery: null, decision: null, ackedAt: null }),
    step({ step: "published", delivery: null, decision: null, ackedAt: null }),
    step({}),
    step({ decision: "replayed" }),
  ];
  expect(queueSummary(twice)).toBe(
    "Published 2 times; 2 deliveries; 1 receipt: delivery 1 sent it, delivery 2 replayed.",
  );
  const poison = [
    step({ decision: "failed", ackedAt: null }),
    step({ delivery: 2, decision: "failed", ackedAt: null }),
    step({ step: "dead-lettered", delivery: 2, decision: null, ackedAt: null }),
  ];
  expect(queueSummary(poison)).toBe(
    "2 deliveries; 0 receipts: delivery 1 failed, delivery 2 failed; its last allowed delivery failed, and the queue dead-lettered it.",
  );
  expect(queueSummary([])).toBe("0 deliveries; 0 receipts.");
});
