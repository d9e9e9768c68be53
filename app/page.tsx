import { Checkout } from "./_components/checkout";
import { HydrateClient, prefetch, trpc } from "./_trpc/server";

export default async function ShopPage() {
  await prefetch(trpc.catalog.list.queryOptions());
  return (
    <HydrateClient>
      <Checkout />
    </HydrateClient>
  );
}
