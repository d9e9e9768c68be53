import { formatCents } from "~/app/_lib/money";

/**
 * On a phone the cart sits below every product: this bar, fixed at the
 * bottom, says what is in it and leads there. Hidden on wide screens, where
 * the cart stays in view beside the products.
 */
export function CartBar({ count, totalCents }: { count: number; totalCents: number }) {
  if (count === 0) return null;
  return (
    <div className="cart-bar" data-testid="cart-bar">
      <p>
        <strong>
          {count} {count === 1 ? "item" : "items"}
        </strong>{" "}
        · {formatCents(totalCents)}
      </p>
      <a className="button primary" href="#cart">
        Checkout
      </a>
    </div>
  );
}
