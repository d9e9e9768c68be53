import { formatCents } from "~/app/_lib/money";
import type { Order } from "~/app/_lib/order";
import { ProductImage } from "./product-image";
import { ShortId } from "./short-id";

export function OrderSummary({ order }: { order: Order }) {
  const overcharged = order.charges.length > 1;
  return (
    <section className="card order-summary" aria-labelledby="order-heading">
      <h1 id="order-heading">
        Order <ShortId value={order.id} name="order id" testId="order-id" />
      </h1>
      <p className="badges">
        <span className={`badge status-${order.status.toLowerCase()}`} data-testid="order-status">
          {order.status}
        </span>
        {overcharged && <span className="badge danger">charged {order.charges.length} times</span>}
      </p>
      <ul className="cart-lines">
        {order.items.map((item) => (
          <li key={item.sku}>
            <span className="line-name">
              <ProductImage sku={item.sku} size="small" />
              {item.name} × {item.quantity}
            </span>
            <span className="amount">{formatCents(item.unitPriceCents * item.quantity)}</span>
          </li>
        ))}
      </ul>
      <p className="cart-total">
        <span>Total</span>
        <strong data-testid="order-total">{formatCents(order.totalCents)}</strong>
      </p>
    </section>
  );
}
