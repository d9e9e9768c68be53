"use client";

import { useQuery } from "@tanstack/react-query";
import { keyInProgress, paymentStory } from "~/app/_lib/story/payment-story";
import { formatDuration } from "~/app/_lib/duration";
import { formatCents } from "~/app/_lib/money";
import { shortId } from "~/app/_lib/short-id";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { useNow } from "~/app/_lib/use-now";
import type { PaymentProgress } from "~/app/_lib/use-payment";
import type { Order } from "~/app/_lib/order";
import { useTRPC } from "~/app/_trpc/provider";

/** The decline the customer is answering with another card: the last settled attempt, if it was declined. */
export function lastDecline(order: Order) {
  if (order.status !== "PENDING") return undefined;
  const settled = order.attempts.filter((attempt) => attempt.status !== "OPEN").at(-1);
  return settled?.status === "DECLINED" ? settled : undefined;
}

/**
 * One sentence on where the payment stands. What the server holds comes
 * first (paid, charged twice, in progress, declined); then what this tab is
 * doing (offline, processing); then how its last try ended.
 */
export function PaymentStatus({ order, progress }: { order: Order; progress: PaymentProgress }) {
  const trpc = useTRPC();
  // The figure's own record (ServerAccountView reads the same query): the two cannot disagree.
  const account = useQuery(trpc.orders.serverAccount.queryOptions({ orderId: order.id })).data;
  const amount = formatCents(order.totalCents);
  const [firstCharge, ...extraCharges] = order.charges;

  if (firstCharge && extraCharges.length > 0) {
    const total = order.charges.reduce((sum, charge) => sum + charge.amountCents, 0);
    const cause = account ? paymentStory(account, order.charges).overcharge : null;
    return (
      <p role="alert" className="alert danger" data-testid="overcharge">
        <strong>Charged {timesInWords(order.charges.length)}:</strong> {formatCents(total)} taken for an order
        of {amount}
        {cause ? `: ${cause}.` : "."}
      </p>
    );
  }
  if (firstCharge) {
    return (
      <p className="alert success">
        Paid. Charged {formatCents(firstCharge.amountCents)} to •••• {firstCharge.cardLast4}, once.
      </p>
    );
  }
  switch (progress.phase) {
    case "waiting_for_connection":
      return (
        <p className="alert warning">
          <strong>You are offline.</strong> The payment will be sent with its key, {shortId(order.paymentKey)}
          , when the connection returns: however often it is sent, it is charged once.
        </p>
      );
    case "processing":
      return progress.attempt === 1 ? (
        <p>Processing the payment of {amount}…</p>
      ) : (
        <p>
          {progress.previousStatus === null
            ? "No answer yet"
            : `The server answered HTTP ${progress.previousStatus}, not a final answer`}
          : sending it again with {progress.sameKey ? "the same key" : "a new key"} (try {progress.attempt}
          {progress.sameKey ? ` of ${progress.maxAttempts}` : ""})…
        </p>
      );
    case "charged":
      // The order is read again after every payment; until then, what the answer said.
      return (
        <p className="alert success">
          Paid. Charged {formatCents(progress.charge.amountCents)} to •••• {progress.charge.cardLast4}.
        </p>
      );
  }
  const inProgress =
    account && order.status === "PENDING"
      ? keyInProgress(account, paymentStory(account, order.charges).requests, order.paymentKey)
      : null;
  if (inProgress) return <FollowingPayment {...inProgress} />;
  const current = order.attempts.at(-1);
  if (order.status === "PENDING" && current?.status === "NEEDS_REVIEW") {
    return (
      <p role="alert" className="alert warning" data-testid="payment-needs-review">
        <strong>Under review:</strong> this payment could not be confirmed automatically, and it may have gone
        through. Do not pay again: the shop is checking it with the payment provider and will settle it.
      </p>
    );
  }
  if (awaitingProvider(order) && progress.phase !== "refused") {
    return (
      <p className="alert info following" data-testid="payment-unconfirmed">
        <span className="spinner" aria-hidden="true" /> The payment may have gone through: the payment
        provider&apos;s answer did not reach the shop. It will be confirmed or finished automatically; do not
        pay again. Following it until it settles.
      </p>
    );
  }
  const declined = lastDecline(order);
  if (declined) {
    return (
      <p className="alert danger">
        <strong>Declined:</strong> {declined.declineReason} No charge was made
        {declined.cardLast4 ? ` to the card ending ${declined.cardLast4}` : ""}. Pay with another card: it is
        a new attempt, under a new key.
      </p>
    );
  }
  switch (progress.phase) {
    case "declined":
      return (
        <p className="alert danger">
          <strong>Declined:</strong> {progress.reason} No charge was made.
        </p>
      );
    case "refused":
      return (
        <p className="alert danger">
          <strong>The payment was refused:</strong> {progress.message}
        </p>
      );
    case "stored_failure":
      return (
        <p className="alert danger">
          <strong>The server stored a failure as this key&apos;s outcome:</strong> it answers HTTP{" "}
          {progress.status} from its store to every attempt with the key, however fine the card is. A server
          should store only final answers (a charge, a decline).
        </p>
      );
    case "no_answer":
      return (
        <p className="alert warning">
          <strong>No answer from the server:</strong> the payment may or may not have gone through. Finish
          payment sends the same key: if it was charged, you get that charge, never a second.
        </p>
      );
  }
  return null;
}

/** The current attempt reached the provider and is still open: the completer (or a retry) settles it. */
export function awaitingProvider(order: Order): boolean {
  const current = order.attempts.at(-1);
  return order.status === "PENDING" && current?.status === "OPEN" && current.providerCalled;
}

/** The order's key is in progress on the server (another tab, or an attempt cut off by a reload). */
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

function timesInWords(count: number): string {
  return count === 2 ? "twice" : `${count} times`;
}
