import type { Metadata } from "next";
import { LedgerView } from "~/app/_components/ledger-view";

export const metadata: Metadata = { title: "Ledger · Idempotent Checkout" };

export default function LedgerPage() {
  return <LedgerView />;
}
