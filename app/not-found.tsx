import type { Metadata } from "next";
import Link from "next/link";
import { NotFoundCard } from "./_components/not-found-card";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <NotFoundCard
      title="Page not found"
      text="There is nothing at this address. The shop, your orders and the ledger are here:"
    >
      <Link href="/">Shop</Link>
      <Link href="/orders">Your orders</Link>
      <Link href="/ledger">Ledger</Link>
    </NotFoundCard>
  );
}
