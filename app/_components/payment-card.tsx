"use client";

import { useEffect, useRef } from "react";
import type { CheckoutView } from "~/app/_lib/checkout";
import { lastDecline } from "~/app/_lib/checkout";
import { formatCents } from "~/app/_lib/money";
import type { ServerAccount } from "~/app/_lib/server-account";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { useNow } from "~/app/_lib/use-now";
import type { CardField } from "./card-field";
import { CardForm } from "./card-form";
import { PaymentRecord } from "./payment-record";
import { PaymentStatus } from "./payment-status";
import { ShortId } from "./short-id";

/** The statuses that answer a Pay: the focus moves to them, so a screen reader (and the keyboard) lands there. */
const ANSWERS = new Set(["paid", "overcharged", "declined", "refused", "no_answer", "stored_failure"]);

/** The payment: its key, the card field with the Pay button, what happened, and the server's record. */
export function PaymentCard({
  view,
  account,
  cardField,
  cardError,
  onPay,
  payVerb,
  unguarded,
}: {
  view: CheckoutView;
  account: ServerAccount | undefined;
  cardField: CardField;
  cardError: string | null;
  onPay: (finishing: boolean) => void;
  payVerb: string;
  unguarded: boolean;
}) {
  const statusRef = useRef<HTMLDivElement>(null);
  const { order, status } = view;
  const answered = ANSWERS.has(status.kind);
  useEffect(() => {
    if (answered) statusRef.current?.focus();
  }, [answered]);

  // While the key's owner holds a live lease, the payment settles by itself: nothing to press until it runs out.
  const inProgress = view.payable && order.paymentKeyState === "in_progress";
  const now = useNow(inProgress, 500);
  const hydrated = useHydrated();
  const following =
    inProgress && hydrated && !view.busy && Date.parse(order.paymentKeyLeaseExpiresAt ?? "") > now;
  const amount = formatCents(order.totalCents);
  const label = view.finishing
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
      ) : view.payable ? (
        <CardForm
          label={label}
          view={view}
          cardField={cardField}
          error={cardError}
          onPay={() => onPay(view.finishing)}
          unguarded={unguarded}
        />
      ) : null}
      <div
        ref={statusRef}
        tabIndex={-1}
        role="status"
        className="payment-status"
        data-testid="payment-status"
      >
        <PaymentStatus view={view} account={account} />
      </div>
      <PaymentRecord order={order} />
    </section>
  );
}
