"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatCents } from "~/app/_lib/money";
import { useTRPC } from "~/app/_trpc/provider";
import { RunOncePanel } from "./run-once-panel";

/** The session's ledger: per order, how many charges exist; below, every charge. */
export function LedgerView() {
  const trpc = useTRPC();
  const summary = useQuery(trpc.ledger.summary.queryOptions(undefined, { refetchInterval: 2_000 }));
  const entries = useQuery(trpc.ledger.entries.queryOptions(undefined, { refetchInterval: 2_000 }));

  return (
    <div className="stack">
      <section className="card" aria-labelledby="orders-heading">
        <h1 id="orders-heading">Ledger</h1>
        <p className="muted">
          Each order should show one charge, however often its Pay button was clicked. Replays count the
          requests that got the stored result instead of a new charge.
        </p>
        {summary.isError && <p role="alert">{summary.error.message}</p>}
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Charges per order</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Status</th>
                <th scope="col">Total</th>
                <th scope="col">Payment attempts</th>
                <th scope="col">Charges</th>
                <th scope="col">Charged</th>
                <th scope="col">Replays of its key</th>
              </tr>
            </thead>
            <tbody>
              {summary.data?.map((order) => (
                <tr key={order.orderId} data-order-summary={order.orderId}>
                  <td>
                    <Link href={`/orders/${order.orderId}`}>
                      <code>{order.orderId}</code>
                    </Link>
                  </td>
                  <td>
                    <span className={`badge status-${order.status.toLowerCase()}`}>{order.status}</span>
                  </td>
                  <td>{formatCents(order.totalCents)}</td>
                  <td>
                    <ol className="payment-attempts" data-testid="ledger-attempts">
                      {order.attempts.map((attempt) => (
                        <li key={attempt.key} data-attempt-status={attempt.status}>
                          <code>{attempt.key}</code>{" "}
                          <span className={`badge attempt-${attempt.status.toLowerCase()}`}>
                            {attempt.status.toLowerCase()}
                          </span>
                        </li>
                      ))}
                    </ol>
                  </td>
                  <td data-testid="charge-count" className={order.chargeCount > 1 ? "error" : undefined}>
                    {order.chargeCount}
                  </td>
                  <td>{formatCents(order.chargedCents)}</td>
                  <td data-testid="replay-count">{order.replayCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {summary.data?.length === 0 && <p className="muted">No orders yet in this session.</p>}
      </section>

      <section className="card" aria-labelledby="entries-heading">
        <h2 id="entries-heading">Charges</h2>
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Every charge in the ledger</caption>
            <thead>
              <tr>
                <th scope="col">Charge</th>
                <th scope="col">Order</th>
                <th scope="col">Amount</th>
                <th scope="col">Idempotency key</th>
                <th scope="col">Card</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {entries.data?.map((entry) => (
                <tr key={entry.id} data-charge-id={entry.id} data-order-id={entry.orderId}>
                  <td>
                    <code>{entry.id}</code>
                  </td>
                  <td>
                    <code>{entry.orderId}</code>
                  </td>
                  <td>{formatCents(entry.amountCents)}</td>
                  <td>
                    <code>{entry.idempotencyKey}</code>
                    {entry.naive && (
                      <span className="badge naive-mark" data-testid="naive-mark">
                        naive client: new key per attempt
                      </span>
                    )}
                  </td>
                  <td>•••• {entry.cardLast4}</td>
                  <td>
                    <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {entries.data?.length === 0 && <p className="muted">No charges yet.</p>}
      </section>

      <RunOncePanel />
    </div>
  );
}
