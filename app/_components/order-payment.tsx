"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import { formatCents } from "~/app/_lib/money";
import { usePayment } from "~/app/_lib/use-payment";
import type { PaymentState } from "~/app/_lib/use-payment";
import { useLabTRPC, useTRPC } from "~/app/_trpc/provider";
import type { AppRouter } from "~/server/trpc/routers/_app";
import { AttemptTimeline } from "./attempt-timeline";
import { LabPanel } from "./lab-panel";
import { ProductImage } from "./product-image";

type Order = inferRouterOutputs<AppRouter>["orders"]["get"];

export function OrderPayment({ orderId, labEnabled }: { orderId: string; labEnabled: boolean }) {
  const trpc = useTRPC();
  const order = useQuery(trpc.orders.get.queryOptions({ orderId }, { retry: false }));

  if (order.isPending) return <p className="muted">Loading the order…</p>;
  if (order.isError) {
    return (
      <div className="card">
        <h1>Order not found</h1>
        <p role="alert">{order.error.message}</p>
        <Link href="/">Back to the shop</Link>
      </div>
    );
  }
  return <PaymentPanel order={order.data} labEnabled={labEnabled} />;
}

function PaymentPanel({ order, labEnabled }: { order: Order; labEnabled: boolean }) {
  const labTrpc = useLabTRPC();
  const lab = useQuery({ ...labTrpc.lab.switches.queryOptions({ orderId: order.id }), enabled: labEnabled });
  const naive = labEnabled && lab.data?.shop.naiveClient === true;
  const { state, attempts, pay, interrupted } = usePayment(order, { naive });
  const [card, setCard] = useState("4242 4242 4242 4242");
  const statusRef = useRef<HTMLDivElement>(null);
  const settled = state.phase === "charged" || state.phase === "declined" || state.phase === "failed";

  useEffect(() => {
    // Move focus to the answer, so a screen reader (and the keyboard) lands on it.
    if (settled) statusRef.current?.focus();
  }, [settled]);

  const pending = state.phase === "processing";
  const declined = lastDecline(order);
  const paying = naive ? "Pay naively" : "Pay";
  const resumable = order.status === "PENDING" && (interrupted || order.paymentKeyState === "in_progress");
  const payLabel = pending
    ? "Processing…"
    : resumable
      ? `Finish payment of ${formatCents(order.totalCents)}`
      : declined
        ? `${paying} ${formatCents(order.totalCents)} with another card`
        : `${paying} ${formatCents(order.totalCents)}`;

  return (
    <div className="order-layout">
      <section className="card" aria-labelledby="order-heading">
        <h1 id="order-heading">
          Order <code data-testid="order-id">{order.id}</code>
        </h1>
        <p>
          <span className={`badge status-${order.status.toLowerCase()}`} data-testid="order-status">
            {order.status}
          </span>
        </p>
        <ul className="cart-lines">
          {order.items.map((item) => (
            <li key={item.sku}>
              <span className="line-name">
                <ProductImage sku={item.sku} size="small" />
                {item.name} × {item.quantity}
              </span>
              <span>{formatCents(item.unitPriceCents * item.quantity)}</span>
            </li>
          ))}
        </ul>
        <p className="cart-total">
          <span>Total</span>
          <strong data-testid="order-total">{formatCents(order.totalCents)}</strong>
        </p>
        <p className="key-note">
          Payment key <code data-testid="payment-key">{order.paymentKey}</code>: created with this payment
          attempt and stored on the order, so every retry, in any tab and after any reload, sends the same
          key.
        </p>
      </section>

      <section className="card" aria-labelledby="pay-heading">
        <h2 id="pay-heading">Payment</h2>
        {order.status === "PENDING" ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              pay(card.replace(/\s+/g, ""));
            }}
          >
            <label htmlFor="card-number">Card number</label>
            <input
              id="card-number"
              name="card-number"
              inputMode="numeric"
              autoComplete="cc-number"
              value={card}
              onChange={(event) => setCard(event.target.value)}
              disabled={pending}
              aria-describedby="card-help"
            />
            <p id="card-help" className="muted small">
              Test cards: 4242 4242 4242 4242 is approved; 4000 0000 0000 0002 is declined.
            </p>
            <button className="primary" type="submit" disabled={pending} aria-busy={pending}>
              {payLabel}
            </button>
            {resumable && !pending && (
              <p className="muted small" data-testid="resume-note">
                An earlier attempt did not report back. Finishing sends the same key: if it was charged, you
                get that charge, not a second one.
              </p>
            )}
          </form>
        ) : (
          <p className="muted">This order is {order.status.toLowerCase()}.</p>
        )}
        <div
          ref={statusRef}
          tabIndex={-1}
          role="status"
          aria-live="polite"
          className="payment-status"
          data-testid="payment-status"
        >
          <StatusMessage state={state} order={order} />
        </div>
        <h3>Payment attempts</h3>
        <ol className="payment-attempts" data-testid="payment-attempts">
          {order.attempts.map((attempt) => (
            <li key={attempt.key} data-attempt-status={attempt.status}>
              <code>{attempt.key}</code>{" "}
              <span className={`badge attempt-${attempt.status.toLowerCase()}`}>
                {ATTEMPT_LABELS[attempt.status]}
              </span>
              {attempt.cardLast4 && <span className="muted"> •••• {attempt.cardLast4}</span>}
              {attempt.declineReason && <span className="muted"> · {attempt.declineReason}</span>}
            </li>
          ))}
        </ol>
        <h3>Charges for this order</h3>
        {order.charges.length === 0 ? (
          <p className="muted" data-testid="charge-count">
            {declined ? "No charge." : "No charge yet."}
          </p>
        ) : (
          <p data-testid="charge-count">
            {order.charges.length === 1 ? "Charged once" : `Charged ${order.charges.length} times`}:{" "}
            {order.charges
              .map(
                (charge) =>
                  `${formatCents(charge.amountCents)} (${charge.id}${charge.naive ? ", naive client" : ""})`,
              )
              .join(", ")}
          </p>
        )}
        <p>
          <Link href="/ledger">See the ledger</Link>
        </p>
      </section>

      <AttemptTimeline attempts={attempts} />
      {labEnabled && <LabPanel order={order} reusableKey={lastUsedKey(order)} disabled={pending} />}
    </div>
  );
}

const ATTEMPT_LABELS: Record<Order["attempts"][number]["status"], string> = {
  OPEN: "current key",
  DECLINED: "declined",
  SUCCEEDED: "charged",
};

/** The key of the latest attempt that reached the server, if any: the current one once used, or the last settled one. */
function lastUsedKey(order: Order): string | undefined {
  if (order.paymentKeyState !== "unused") return order.paymentKey;
  return order.attempts.filter((attempt) => attempt.status !== "OPEN").at(-1)?.key;
}

/** The decline the customer is answering with another card: the last settled attempt, if it was declined. */
function lastDecline(order: Order) {
  if (order.status !== "PENDING") return undefined;
  const settled = order.attempts.filter((attempt) => attempt.status !== "OPEN").at(-1);
  return settled?.status === "DECLINED" ? settled : undefined;
}

function StatusMessage({ state, order }: { state: PaymentState; order: Order }) {
  const amount = formatCents(order.totalCents);
  switch (state.phase) {
    case "processing":
      return state.attempt === 1 ? (
        <span>Processing the payment of {amount}…</span>
      ) : (
        <span>
          No answer yet: retrying with the same key (attempt {state.attempt} of {state.maxAttempts})…
        </span>
      );
    case "charged":
      return (
        <span className="success">
          Charged {amount} to the card ending {state.cardLast4} for order {order.id}.
        </span>
      );
    case "declined":
      return (
        <span className="error">
          Declined: {state.message} Nothing was charged. Try another card: it is a new attempt, with a new
          key.
        </span>
      );
    case "failed":
      return (
        <span className="error">
          The payment of {amount} did not complete: {state.message} Try again: the same key is sent, so you
          cannot be charged twice.
        </span>
      );
    case "idle": {
      if (order.status === "PAID") return <span className="success">Paid.</span>;
      const declined = lastDecline(order);
      return declined ? (
        <span className="error">
          Declined: {declined.declineReason} Nothing was charged. Try another card: it is a new attempt, with
          a new key.
        </span>
      ) : null;
    }
  }
}
