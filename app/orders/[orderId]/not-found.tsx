import Link from "next/link";
import { NotFoundCard } from "~/app/_components/not-found-card";

/** An order id that names no order of this session (orders belong to the browser that placed them). */
export default function OrderNotFound() {
  return (
    <NotFoundCard
      title="Order not found"
      text="No order with this id belongs to this session. Orders are kept per browser: another browser, or a cleared cookie, sees none of them."
    >
      <Link href="/orders">Your orders</Link>
      <Link href="/">Shop</Link>
    </NotFoundCard>
  );
}
