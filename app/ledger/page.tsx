import type { Metadata } from "next";
import { LedgerView } from "~/app/_components/ledger-view";
import { HydrateClient, prefetch, trpc } from "~/app/_trpc/server";

export const metadata: Metadata = { title: "Ledger" };

export default async function LedgerPage() {
  await Promise.all([
    prefetch(trpc.ledger.counters.queryOptions()),
    prefetch(trpc.ledger.summary.queryOptions()),
    prefetch(trpc.ledger.entries.queryOptions()),
    prefetch(trpc.ledger.reconciliation.queryOptions()),
  ]);
  return (
    <HydrateClient>
      <LedgerView />
    </HydrateClient>
  );
}
