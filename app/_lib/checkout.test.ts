import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STARTED, checkout, checkoutView } from "./checkout";
import type { Charge, CheckoutEvent, Step } from "./checkout";
import type { Order } from "./order";

const CHARGE: Charge = {
  chargeId: "ch_1",
  orderId: "ord_1",
  amountCents: 1200,
  status: "captured",
  cardLast4: "4242",
  createdAt: "2026-01-01T00:00:00.000Z",
};

function order(paid: boolean, keyState: Order["paymentKeyState"]): Order {
  return {
    id: "ord_1",
    totalCents: 1200,
    paymentKey: "pay_1",
    status: paid ? "PAID" : "PENDING",
    createdAt: "2026-01-01T00:00:00.000Z",
    items: [],
    charges: paid
      ? [
          {
            id: "ch_1",
            amountCents: 1200,
            idempotencyKey: "pay_1",
            cardLast4: "4242",
            naive: false,
            madeBy: null,
            createdAt: "2026-01-01T00:00:00.000Z",
          },
        ]
      : [],
    attempts: [],
    paymentKeyState: keyState,
    paymentKeyLeaseExpiresAt: null,
  } as unknown as Order;
}

const steps = fc.constantFrom<Step>(
  { name: "ready" },
  { name: "card" },
  { name: "charging" },
  { name: "offline", since: 0 },
  { name: "card_refused", message: "refused" },
);
const answers = fc.constantFrom<CheckoutEvent["type"]>("step", "answered");
const events = fc.array(
  fc.record({ run: fc.integer({ min: 1, max: 3 }), type: answers, step: steps, charged: fc.boolean() }),
  { maxLength: 8 },
);

describe("the customer's view", () => {
  it("never offers Pay beside a known charge, nor denies a charge the tab heard, whatever the server's record says", () => {
    fc.assert(
      fc.property(
        events,
        fc.boolean(),
        fc.constantFrom("absent", "in_progress", "completed"),
        (script, paid, key) => {
          const state = script.reduce(
            (current, event) =>
              checkout(
                current,
                event.type === "step"
                  ? { type: "step", run: event.run, step: event.step }
                  : {
                      type: "answered",
                      run: event.run,
                      answer: event.charged ? { kind: "charged", charge: CHARGE } : { kind: "no_answer" },
                    },
              ),
            STARTED,
          );
          const view = checkoutView(order(paid, key as Order["paymentKeyState"]), state, [], {
            keyHeldElsewhere: false,
            maxTries: 5,
          });
          const known = paid || state.heard !== null;
          expect(view.status.kind === "paid").toBe(known);
          if (known) {
            expect(view.payable).toBe(false);
            expect(view.order.status).toBe("PAID");
            expect(view.order.charges).toHaveLength(1);
          }
        },
      ),
    );
  });

  it("keeps an older Pay's charge, but lets only the latest Pay move the step", () => {
    const later = checkout(STARTED, { type: "step", run: 2, step: { name: "charging" } });
    const heard = checkout(later, { type: "answered", run: 1, answer: { kind: "charged", charge: CHARGE } });
    expect(heard.step).toEqual({ name: "charging" });
    expect(heard.heard).toEqual(CHARGE);
  });
});
