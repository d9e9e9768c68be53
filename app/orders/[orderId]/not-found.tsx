import Link from "next/link";

/** An order id that names no order of this session (orders belong to the browser that placed them). */
export default function OrderNotFound() {
  return (
    <section className="card not-found" aria-labelledby="not-found-heading">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-heading">Order not found</h1>
      <p className="muted">
        No order with this id belongs to this session. Orders are kept per browser: another browser, or a
        cleared cookie, sees none of them.
      </p>
      <p className="not-found-links">
        <Link href="/orders">Your orders</Link>
        <Link href="/">Shop</Link>
      </p>
    </section>
  );
}
