"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { usePayment } from "~/app/_lib/use-payment";
import type { SendCharge } from "~/app/_lib/use-payment";
import type { PaymentProviderEndpoint } from "~/app/_lib/provider-payment-method";
import { useTRPC } from "~/app/_trpc/provider";
import { untilReachable } from "~/app/_trpc/query-client";
import { isNotFound, isServerUnreachable } from "~/app/_trpc/server-unreachable";
import type { Attempt } from "~/app/_trpc/attempt-log";
import type { Order } from "~/app/_lib/order";
import { AttemptTimeline } from "./attempt-timeline";
import { OrderSummary } from "./order-summary";
import { PaymentCard } from "./payment-card";
import { awaitingProvider } from "./payment-status";
import { ServerAccountView } from "./server-account";

/** How often the page reads an order whose payment is under way or unconfirmed, until it settles. */
const FOLLOW_MS = 1_000;

/** What a panel beside the payment (the lab's) is told. */
export interface PaymentView {
  order: Order;
  attempts: readonly Attempt[];
  paying: boolean;
}

interface OrderPaymentProps {
  orderId: string;
  /** Where the card goes: the provider's public URL and publishable key, read by the server at run time. */
  paymentProvider: PaymentProviderEndpoint;
  /** How charges are sent: the production client unless the lab swaps in another. */
  send?: SendCharge;
  /** The Pay button's verb. */
  payVerb?: string;
  /** Pay stays enabled while a payment is out (the lab's double-click lesson): only the server's guard is left. */
  unguarded?: boolean;
  /** A panel beside the payment, next to the Pay button (a side column on wide screens, above it on a phone). */
  aside?: (payment: PaymentView) => ReactNode;
}

export function OrderPayment({ orderId, ...view }: OrderPaymentProps) {
  const trpc = useTRPC();
  const order = useQuery(
    trpc.orders.get.queryOptions(
      { orderId },
      {
        // While a payment with the order's key is under way somewhere (another tab, before a
        // reload), follow it until it settles, so the page shows the outcome without a click.
        refetchInterval: (query) => {
          const data = query.state.data;
          if (data && (data.paymentKeyState === "in_progress" || awaitingProvider(data))) return FOLLOW_MS;
          return untilReachable(query);
        },
      },
    ),
  );

  // Data on screen stays there through failed reads; the connection notice says the server is unreachable.
  if (order.data) return <OrderView order={order.data} {...view} />;
  if (isNotFound(order.error)) {
    return (
      <section className="card" aria-labelledby="missing-heading">
        <h1 id="missing-heading">Order not found</h1>
        <p>There is no order {orderId} in this session. Orders belong to the browser that placed them.</p>
        <Link href="/orders">Your orders</Link>
      </section>
    );
  }
  if (order.isError && !isServerUnreachable(order.error)) {
    return (
      <p role="alert" className="error">
        The order could not be read: {order.error.message}
      </p>
    );
  }
  return <p className="muted">Loading the order…</p>;
}

function OrderView({
  order,
  paymentProvider,
  send,
  payVerb = "Pay",
  unguarded = false,
  aside,
}: Omit<OrderPaymentProps, "orderId"> & { order: Order }) {
  const payment = usePayment(order, paymentProvider, send);
  const paying =
    payment.progress.phase === "processing" || payment.progress.phase === "waiting_for_connection";
  return (
    <div className={aside ? "order-page with-aside" : "order-page"}>
      <OrderSummary order={order} />
      {/* Before the payment: on a phone, the one column reads what to do before the Pay button. */}
      {aside && <div className="order-aside">{aside({ order, attempts: payment.attempts, paying })}</div>}
      <PaymentCard order={order} payment={payment} payVerb={payVerb} unguarded={unguarded} />
      <ServerAccountView
        order={order}
        attemptsEnded={payment.attempts.filter((attempt) => attempt.endedAt !== null).length}
      />
      <AttemptTimeline
        attempts={payment.attempts}
        waitingSince={payment.progress.phase === "waiting_for_connection" ? payment.progress.since : null}
      />
    </div>
  );
}
