import type { Metadata } from "next";
import { OrdersList } from "~/app/_components/orders-list";
import { HydrateClient, prefetch, trpc } from "~/app/_trpc/server";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage() {
  await prefetch(trpc.orders.list.queryOptions());
  return (
    <HydrateClient>
      <OrdersList />
    </HydrateClient>
  );
}
