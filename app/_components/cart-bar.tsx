import { formatCents } from "~/app/_lib/money";

/** On a phone, a bar fixed at the bottom that leads to the cart; hidden on wide screens. */
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
