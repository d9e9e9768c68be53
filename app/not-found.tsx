import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <section className="card not-found" aria-labelledby="not-found-heading">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-heading">Page not found</h1>
      <p className="muted">
        There is nothing at this address. The shop, your orders and the ledger are here:
      </p>
      <p className="not-found-links">
        <Link href="/">Shop</Link>
        <Link href="/orders">Your orders</Link>
        <Link href="/ledger">Ledger</Link>
      </p>
    </section>
  );
}
