"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCents } from "~/app/_lib/money";
import { useTRPC } from "~/app/_trpc/provider";

export function OrdersList() {
  const trpc = useTRPC();
  const orders = useQuery(trpc.orders.list.queryOptions());
  return (
    <section className="card" aria-labelledby="orders-heading">
      <h1 id="orders-heading">Your orders</h1>
      {orders.isPending && <p className="muted">Loading…</p>}
      {orders.isError && <p role="alert">{orders.error.message}</p>}
      {orders.data?.length === 0 && (
        <p className="muted">
          No orders yet. <Link href="/">Go shopping</Link>.
        </p>
      )}
      <ul className="order-list">
        {orders.data?.map((order) => (
          <li key={order.id}>
            <Link href={`/orders/${order.id}`}>
              <code>{order.id}</code>
            </Link>
            <span className={`badge status-${order.status.toLowerCase()}`}>{order.status}</span>
            <span>{formatCents(order.totalCents)}</span>
            <time dateTime={order.createdAt}>{new Date(order.createdAt).toLocaleString()}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}
