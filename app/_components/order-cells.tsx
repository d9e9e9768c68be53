import Link from "next/link";
import { shortId } from "~/app/_lib/short-id";

/** An order's row heading: its short id, linking to its page. */
export function OrderLinkCell({ orderId }: { orderId: string }) {
  return (
    <th scope="row" data-label="Order">
      <Link href={`/orders/${orderId}`} title={orderId}>
        <code>{shortId(orderId)}</code>
      </Link>
    </th>
  );
}

export function StatusCell({ status }: { status: string }) {
  return (
    <td data-label="Status">
      <span className={`badge status-${status.toLowerCase()}`}>{status}</span>
    </td>
  );
}
