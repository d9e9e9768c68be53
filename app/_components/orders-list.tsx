"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCents } from "~/app/_lib/money";
import { useTRPC } from "~/app/_trpc/provider";
import { isServerUnreachable } from "~/app/_trpc/server-unreachable";
import { LocalTime } from "./local-time";
import { OrderLinkCell, StatusCell } from "./order-cells";
import { TableHead } from "./table-head";

/** The session's orders, newest first: a table on wide screens, a card per order on a phone. */
export function OrdersList() {
  const trpc = useTRPC();
  const orders = useQuery(trpc.orders.list.queryOptions());
  return (
    <section className="card" aria-labelledby="orders-heading">
      <h1 id="orders-heading">Your orders</h1>
      {orders.isPending && <p className="muted">Loading…</p>}
      {orders.isError && !isServerUnreachable(orders.error) && <p role="alert">{orders.error.message}</p>}
      {orders.data?.length === 0 && (
        <p className="muted">
          No orders yet. <Link href="/">Go shopping</Link>.
        </p>
      )}
      {orders.data && orders.data.length > 0 && (
        <table className="responsive-table orders-table">
          <caption className="visually-hidden">Your orders, newest first</caption>
          <TableHead columns={["Order", "Status", "Items", "Total", "Placed"]} numeric={["Total"]} />
          <tbody>
            {orders.data.map((order) => (
              <tr key={order.id} data-order-id={order.id}>
                <OrderLinkCell orderId={order.id} />
                <StatusCell status={order.status} />
                <td data-label="Items">
                  {order.items.map((item) => `${item.name} × ${item.quantity}`).join(", ")}
                </td>
                <td data-label="Total" className="numeric">
                  {formatCents(order.totalCents)}
                </td>
                <td data-label="Placed">
                  <LocalTime iso={order.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
