"use client";

import { useEffect, useRef } from "react";
import { formatCents } from "~/app/_lib/money";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { useNow } from "~/app/_lib/use-now";
import type { usePayment } from "~/app/_lib/use-payment";
import { CardForm } from "./card-form";
import type { Order } from "~/app/_lib/order";
import { PaymentRecord } from "./payment-record";
import { PaymentStatus, lastDecline } from "./payment-status";
import { ShortId } from "./short-id";

type Payment = ReturnType<typeof usePayment>;

/** The payment: its key, the card form with the Pay button, what happened, and the server's record. */
export function PaymentCard({
  order,
  payment,
  payVerb,
  unguarded,
}: {
  order: Order;
  payment: Payment;
  payVerb: string;
  unguarded: boolean;
}) {
  const statusRef = useRef<HTMLDivElement>(null);
  const { progress } = payment;
  const answered = ["charged", "declined", "refused", "no_answer", "stored_failure"].includes(progress.phase);

  useEffect(() => {
    // Move focus to the answer, so a screen reader (and the keyboard) lands on it.
    if (answered) statusRef.current?.focus();
  }, [answered]);

  // While the key's owner holds a live lease, the payment settles by itself: nothing to press until it runs out.
  const inProgress = order.status === "PENDING" && order.paymentKeyState === "in_progress";
  const now = useNow(inProgress, 500);
  const hydrated = useHydrated();
  const following =
    inProgress &&
    hydrated &&
    progress.phase !== "processing" &&
    Date.parse(order.paymentKeyLeaseExpiresAt ?? "") > now;
  const amount = formatCents(order.totalCents);
  const resumable =
    order.status === "PENDING" && (payment.outcomeUnknown || order.paymentKeyState === "in_progress");
  const label = resumable
    ? `Finish payment of ${amount}`
    : lastDecline(order)
      ? `${payVerb} ${amount} with another card`
      : `${payVerb} ${amount}`;

  return (
    <section className="card payment" aria-labelledby="pay-heading">
      <h2 id="pay-heading">Payment</h2>
      <p className="key-note">
        Payment key <ShortId value={order.paymentKey} name="payment key" testId="payment-key" />: made with
        this payment attempt and stored on the order, so every retry, in any tab and after any reload, sends
        the same key.
      </p>
      {following ? (
        <p className="muted small" data-testid="following-note">
          Nothing to press: the server is finishing this payment under its key. If its server died, Finish
          payment appears once its lease runs out.
        </p>
      ) : order.status === "PENDING" ? (
        <CardForm
          label={label}
          progress={progress}
          onPay={payment.pay}
          unguarded={unguarded}
          note={
            resumable && progress.phase !== "processing" ? (
              <p className="muted small" data-testid="resume-note">
                An earlier attempt did not report back. Finishing sends the same key: if it was charged, you
                get that charge, not a second one.
              </p>
            ) : null
          }
        />
      ) : null}
      <div
        ref={statusRef}
        tabIndex={-1}
        role="status"
        className="payment-status"
        data-testid="payment-status"
      >
        <PaymentStatus order={order} progress={progress} />
      </div>
      <PaymentRecord order={order} />
    </section>
  );
}
