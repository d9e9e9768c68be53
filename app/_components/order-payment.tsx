"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { DEFAULT_RETRY_SETTINGS } from "retry-policy";
import { awaitingProvider, checkoutView } from "~/app/_lib/checkout";
import { usePayment } from "~/app/_lib/use-payment";
import type { SendCharge } from "~/app/_lib/use-payment";
import type { PaymentProviderEndpoint } from "~/app/_lib/provider-payment-method";
import { useTRPC } from "~/app/_trpc/provider";
import { untilReachable } from "~/app/_trpc/query-client";
import { isNotFound, isServerUnreachable } from "~/app/_trpc/server-unreachable";
import type { TabTry } from "~/app/_trpc/try-log";
import type { Order } from "~/app/_lib/order";
import type { ServerAccount } from "~/app/_lib/server-account";
import { TryTimeline } from "./try-timeline";
import { useCardField } from "./card-field";
import { OrderSummary } from "./order-summary";
import { PaymentCard } from "./payment-card";
import { heldKey } from "./payment-status";
import { ServerAccountView } from "./server-account";
import OrderNotFound from "~/app/orders/[orderId]/not-found";

/** How often the page reads an order whose payment is under way or unconfirmed, until it settles. */
const FOLLOW_MS = 1_000;

/** What a panel beside the payment (the lab's) is told. */
export interface PaymentView {
  order: Order;
  tries: readonly TabTry[];
  paying: boolean;
}

interface OrderPaymentProps {
  orderId: string;
  /** Read by the server at run time. */
  paymentProvider: PaymentProviderEndpoint;
  /** The lab swaps in its own. */
  send?: SendCharge;
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
        // While the order's key is under way elsewhere (another tab, before a reload), follow it until it settles.
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
  if (isNotFound(order.error)) return <OrderNotFound />;
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
  order: serverOrder,
  paymentProvider,
  send,
  payVerb = "Pay",
  unguarded = false,
  aside,
}: Omit<OrderPaymentProps, "orderId"> & { order: Order }) {
  const trpc = useTRPC();
  // The figure's own record (ServerAccountView reads the same query): the two cannot disagree.
  const accountQuery = useQuery(trpc.orders.serverAccount.queryOptions({ orderId: serverOrder.id }));
  const account = accountQuery.data;
  const cardField = useCardField(paymentProvider);
  const payment = usePayment(serverOrder, cardField.makePaymentMethod, send);
  const view = checkoutView(serverOrder, payment.state, payment.tries, {
    keyHeldElsewhere: heldKey(account, serverOrder) !== null,
    maxTries: DEFAULT_RETRY_SETTINGS.maxTries,
  });
  const { order } = view;
  return (
    <div className={aside ? "order-page with-aside" : "order-page"}>
      <OrderSummary order={order} />
      {/* Before the payment: on a phone, the one column reads what to do before the Pay button. */}
      {aside && (
        <div className="order-aside">{aside({ order, tries: payment.tries, paying: view.busy })}</div>
      )}
      <PaymentCard
        view={view}
        account={account}
        cardField={cardField}
        cardError={payment.state.step.name === "card_refused" ? payment.state.step.message : null}
        onPay={payment.pay}
        payVerb={payVerb}
        unguarded={unguarded}
      />
      <ServerAccountView
        order={order}
        triesEnded={payment.tries.filter((tabTry) => tabTry.endedAt !== null).length}
        heardAt={payment.tries.findLast((tabTry) => tabTry.status !== null)?.endedAt ?? null}
      />
      <TryTimeline
        tries={payment.tries}
        waitingSince={view.waitingSince}
        clockOrigin={pageClock(account, accountQuery.dataUpdatedAt, payment.tries)}
      />
    </div>
  );
}

/** The figures' zero on this browser's clock: the order's first request, less the server clock's lead. */
function pageClock(account: ServerAccount | undefined, readAt: number, tries: readonly TabTry[]) {
  const first = account?.requests[0];
  if (!account || !first) return tries[0]?.startedAt ?? null;
  return Date.parse(first.at) - (Date.parse(account.now) - readAt);
}
