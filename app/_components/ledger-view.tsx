"use client";

import { useQuery } from "@tanstack/react-query";
import { formatCents } from "~/app/_lib/money";
import { useTRPC } from "~/app/_trpc/provider";
import { isServerUnreachable } from "~/app/_trpc/server-unreachable";
import { LocalTime } from "./local-time";
import { OrderLinkCell, StatusCell } from "./order-cells";
import { Mailbox } from "./mailbox";
import { Reconciliation } from "./reconciliation";
import { RunOncePanel } from "./run-once-panel";
import { SessionCounters } from "./session-counters";
import { ShortId } from "./short-id";
import { TableHead } from "./table-head";

const REFRESH_MS = 2_000;

/** The session's ledger: its counts, per order how many charges exist, and every charge. */
export function LedgerView() {
  const trpc = useTRPC();
  const summary = useQuery(trpc.ledger.summary.queryOptions(undefined, { refetchInterval: REFRESH_MS }));
  const entries = useQuery(trpc.ledger.entries.queryOptions(undefined, { refetchInterval: REFRESH_MS }));
  const extraCharges = extraChargeIds(entries.data ?? []);

  return (
    <div className="stack">
      <section className="card" aria-labelledby="ledger-heading">
        <h1 id="ledger-heading">Ledger</h1>
        <p className="muted">
          Each order should show one charge, however often its Pay button was clicked. Replays count the
          requests that got the stored result instead of a new charge.
        </p>
        <SessionCounters />
      </section>

      <section className="card" aria-labelledby="orders-heading">
        <h2 id="orders-heading">Orders</h2>
        {summary.isError && !isServerUnreachable(summary.error) && (
          <p role="alert">{summary.error.message}</p>
        )}
        {summary.data?.length === 0 && <p className="muted">No orders yet in this session.</p>}
        {summary.data && summary.data.length > 0 && (
          <table className="responsive-table">
            <caption className="visually-hidden">Charges per order</caption>
            <TableHead
              columns={["Order", "Status", "Total", "Payment attempts", "Charges", "Charged", "Replays"]}
              numeric={["Total", "Charges", "Charged", "Replays"]}
            />
            <tbody>
              {summary.data.map((order) => (
                <tr
                  key={order.orderId}
                  data-order-summary={order.orderId}
                  className={order.chargeCount > 1 ? "overcharged" : undefined}
                >
                  <OrderLinkCell orderId={order.orderId} />
                  <StatusCell status={order.status} />
                  <td data-label="Total" className="numeric">
                    {formatCents(order.totalCents)}
                  </td>
                  <td data-label="Attempts">
                    <ol className="record-list" data-testid="ledger-attempts">
                      {order.attempts.map((attempt) => (
                        <li key={attempt.key} data-attempt-status={attempt.status}>
                          <ShortId value={attempt.key} name="attempt's key" />
                          <span className={`badge attempt-${attempt.status.toLowerCase()}`}>
                            {attempt.status.toLowerCase().replace("_", " ")}
                          </span>
                        </li>
                      ))}
                    </ol>
                  </td>
                  <td data-label="Charges" data-testid="charge-count" className="numeric">
                    {order.chargeCount}
                  </td>
                  <td data-label="Charged" className="numeric">
                    {formatCents(order.chargedCents)}
                  </td>
                  <td data-label="Replays" data-testid="replay-count" className="numeric">
                    {order.replayCount}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-labelledby="entries-heading">
        <h2 id="entries-heading">Charges</h2>
        {entries.data?.length === 0 && <p className="muted">No charges yet.</p>}
        {entries.data && entries.data.length > 0 && (
          <table className="responsive-table">
            <caption className="visually-hidden">Every charge in the ledger, newest first</caption>
            <TableHead
              columns={["Charge", "Order", "Amount", "Idempotency key", "Card", "Time"]}
              numeric={["Amount"]}
            />
            <tbody>
              {entries.data.map((entry) => {
                const extra = extraCharges.has(entry.id);
                return (
                  <tr
                    key={entry.id}
                    data-charge-id={entry.id}
                    data-order-id={entry.orderId}
                    data-extra-charge={extra ? "true" : undefined}
                    className={extra ? "extra-charge" : undefined}
                  >
                    <th scope="row" data-label="Charge">
                      <ShortId value={entry.id} name="charge id" />
                      {extra && <span className="badge danger">extra charge</span>}
                    </th>
                    <td data-label="Order">
                      <ShortId value={entry.orderId} name="order id" />
                    </td>
                    <td data-label="Amount" className="numeric">
                      {formatCents(entry.amountCents)}
                    </td>
                    <td data-label="Key">
                      <ShortId value={entry.idempotencyKey} name="idempotency key" />
                      {entry.naive && (
                        <span className="badge danger" data-testid="naive-mark">
                          naive client: new key per try
                        </span>
                      )}
                    </td>
                    <td data-label="Card">•••• {entry.cardLast4}</td>
                    <td data-label="Time">
                      <LocalTime iso={entry.createdAt} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      <Reconciliation refreshMs={REFRESH_MS} />
      <Mailbox refreshMs={REFRESH_MS} />

      <details className="card process-counters">
        <summary>This server process, all sessions</summary>
        <RunOncePanel />
      </details>
    </div>
  );
}

/** Every charge after its order's first: one order, one charge, and the rest is damage. */
function extraChargeIds(entries: ReadonlyArray<{ id: string; orderId: string; createdAt: string }>) {
  const byTime = [...entries].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const charged = new Set<string>();
  const extra = new Set<string>();
  for (const entry of byTime) {
    if (charged.has(entry.orderId)) extra.add(entry.id);
    charged.add(entry.orderId);
  }
  return extra;
}
