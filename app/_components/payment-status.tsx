"use client";

import { keyInProgress, paymentStory, timesInWords } from "~/app/_lib/story/payment-story";
import type { ServerAccount } from "~/app/_lib/server-account";
import { formatDuration } from "~/app/_lib/duration";
import { formatCents } from "~/app/_lib/money";
import { shortId } from "~/app/_lib/short-id";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { useNow } from "~/app/_lib/use-now";
import type { CheckoutView } from "~/app/_lib/checkout";

/** The order's key in progress on the server, by the account (another tab, or a try cut off by a reload). */
export function heldKey(account: ServerAccount | undefined, order: CheckoutView["order"]) {
  return account
    ? keyInProgress(account, paymentStory(account, order.charges).requests, order.paymentKey)
    : null;
}

/** One sentence on where the payment stands, as the customer's view (checkoutView) puts it. */
export function PaymentStatus({ view, account }: { view: CheckoutView; account: ServerAccount | undefined }) {
  const { order, status } = view;
  const amount = formatCents(order.totalCents);
  switch (status.kind) {
    case "overcharged": {
      const total = order.charges.reduce((sum, charge) => sum + charge.amountCents, 0);
      const cause = account ? paymentStory(account, order.charges).overcharge : null;
      return (
        <p role="alert" className="alert danger" data-testid="overcharge">
          <strong>Charged {timesInWords(order.charges.length)}:</strong> {formatCents(total)} taken for an
          order of {amount}
          {cause ? `: ${cause}.` : "."}
        </p>
      );
    }
    case "paid":
      return (
        <p className="alert success">
          Paid. Charged {formatCents(status.amountCents)} to •••• {status.cardLast4}, once.
        </p>
      );
    case "offline":
      return (
        <p className="alert warning">
          <strong>You are offline.</strong> The payment will be sent with its key, {shortId(order.paymentKey)}
          , when the connection returns: however often it is sent, it is charged once.
        </p>
      );
    case "card":
      return <p>Sending the card to the payment provider…</p>;
    case "processing":
      return status.try === 1 ? (
        <p>Processing the payment of {amount}…</p>
      ) : (
        <p>
          {status.previousStatus === null
            ? "No answer yet"
            : `The server answered HTTP ${status.previousStatus}, not a final answer`}
          : sending it again with {status.sameKey ? "the same key" : "a new key"} (try {status.try}
          {status.sameKey ? ` of ${status.maxTries}` : ""})…
        </p>
      );
    case "following": {
      const held = heldKey(account, order);
      return held ? <FollowingPayment {...held} /> : null;
    }
    case "needs_review":
      return (
        <p role="alert" className="alert warning" data-testid="payment-needs-review">
          <strong>Under review:</strong> this payment could not be confirmed automatically, and it may have
          gone through. Do not pay again: the shop is checking it with the payment provider and will settle
          it.
        </p>
      );
    case "unconfirmed":
      return (
        <p className="alert info following" data-testid="payment-unconfirmed">
          <span className="spinner" aria-hidden="true" /> The payment may have gone through: the payment
          provider&apos;s answer did not reach the shop. It will be confirmed or finished automatically; do
          not pay again. Following it until it settles.
        </p>
      );
    case "declined":
      return (
        <p className="alert danger">
          <strong>Declined:</strong> {status.reason} No charge was made
          {status.cardLast4 ? ` to the card ending ${status.cardLast4}` : ""}.
          {status.recorded ? " Pay with another card: it is a new attempt, under a new key." : ""}
        </p>
      );
    case "refused":
      return (
        <p className="alert danger">
          <strong>The payment was refused:</strong> {status.message}
        </p>
      );
    case "stored_failure":
      return (
        <p className="alert danger">
          <strong>The server stored a failure as this key&apos;s outcome:</strong> it answers HTTP{" "}
          {status.status} from its store to every try with the key, however fine the card is. A server should
          store only final answers (a charge, a decline).
        </p>
      );
    case "no_answer":
      return (
        <p className="alert warning">
          <strong>No answer from the server:</strong> the payment may or may not have gone through. Finish
          payment sends the same key: if it was charged, you get that charge, never a second.
        </p>
      );
    case "ready":
      return null;
  }
}

/** The order's key is in progress on the server (another tab, or a try cut off by a reload). */
function FollowingPayment({ leaseExpiresAt, request }: NonNullable<ReturnType<typeof keyInProgress>>) {
  const hydrated = useHydrated();
  const now = useNow(true, 500);
  // A countdown needs the browser's clock: the server's HTML (and the hydration that must match it) goes without.
  const leaseLeft = !hydrated ? null : leaseExpiresAt === null ? 0 : Date.parse(leaseExpiresAt) - now;
  return (
    <p className="alert info following">
      <span className="spinner" aria-hidden="true" />{" "}
      {request === null ? "A payment with this key" : `Request #${request} with this key`} is in progress on
      the server: following it until it settles.{" "}
      {leaseLeft === null
        ? "If its server died, Finish payment takes the key over once its lease runs out."
        : leaseLeft > 0
          ? `If its server died, the key can be taken over in ${formatDuration(leaseLeft)}: Finish payment sends the same key.`
          : "Its lease has run out: if its server died, Finish payment takes the key over, and charges at most once."}
    </p>
  );
}
