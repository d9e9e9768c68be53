import { formatCents } from "~/app/_lib/money";
import type { Order } from "~/app/_lib/order";
import { lastDecline } from "~/app/_lib/checkout";
import { ShortId } from "./short-id";

const ATTEMPT_LABELS: Record<Order["attempts"][number]["status"], string> = {
  OPEN: "current key",
  DECLINED: "declined",
  SUCCEEDED: "charged",
  NEEDS_REVIEW: "needs review",
};

/** The server's record of the order's payment: every attempt's key and how it ended, and every charge. */
export function PaymentRecord({ order }: { order: Order }) {
  return (
    <>
      <h3>Payment keys</h3>
      <ol className="record-list" data-testid="payment-attempts">
        {order.attempts.map((attempt) => (
          <li key={attempt.key} data-attempt-status={attempt.status}>
            {/* The order's current key has its copy button in the line above. */}
            <ShortId value={attempt.key} name="attempt's key" copyable={attempt.key !== order.paymentKey} />
            <span className={`badge attempt-${attempt.status.toLowerCase()}`}>
              {ATTEMPT_LABELS[attempt.status]}
            </span>
            {attempt.cardLast4 && <span className="muted">•••• {attempt.cardLast4}</span>}
            {attempt.declineReason && <span className="muted">{attempt.declineReason}</span>}
            {attempt.settledBy === "completer" && (
              <span className="badge" data-testid="settled-by-completer">
                finished by the background completer
              </span>
            )}
            {attempt.settledBy === "webhook" && (
              <span className="badge" data-testid="settled-by-webhook">
                recorded from the provider&apos;s webhook
              </span>
            )}
          </li>
        ))}
      </ol>
      <h3>Charges</h3>
      <p data-testid="charge-count" className={order.charges.length > 1 ? "error" : "muted"}>
        {chargeCount(order)}
      </p>
      {order.charges.length > 0 && (
        <ul className="record-list">
          {order.charges.map((charge, index) => (
            <li
              key={charge.id}
              data-charge-id={charge.id}
              data-extra-charge={index > 0 ? "true" : undefined}
              className={index > 0 ? "extra-charge" : undefined}
            >
              <ShortId value={charge.id} name="charge id" />
              <span className="amount">{formatCents(charge.amountCents)}</span>
              <span className="muted">•••• {charge.cardLast4}</span>
              <span className="muted">
                key <ShortId value={charge.idempotencyKey} name="charge's key" />
              </span>
              {index > 0 && <span className="badge danger">extra charge</span>}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function chargeCount(order: Order): string {
  const count = order.charges.length;
  if (count === 0) return order.status === "PENDING" && !lastDecline(order) ? "No charge yet." : "No charge.";
  if (count === 1) return "One charge.";
  return `${count} charges for one order: ${count - 1} extra.`;
}
