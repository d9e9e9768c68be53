import type { ReactNode } from "react";
import { ShortId } from "./short-id";

/** Each order checked against a second record (the provider's ledger, the mailbox), damage marked. */
export function LedgerCheck<Row extends { orderId: string }>({
  name,
  title,
  intro,
  query,
  empty,
  failure,
  damaged,
  attributes,
  children,
}: {
  /** The section's test id and the stem of its heading's id. */
  name: string;
  title: string;
  intro: string;
  /** The record as read: a query's data, whether it has been read, and why not. */
  query: { data?: Row[]; isSuccess: boolean; error: { message: string } | null };
  empty: string;
  /** What to say when the record cannot be read; unsaid, the page's connection notice speaks for it. */
  failure?: (message: string) => string;
  damaged: (row: Row) => boolean;
  /** Each line's data attributes, for the tests. */
  attributes: (row: Row) => Record<`data-${string}`, string | number | boolean>;
  children: (row: Row) => ReactNode;
}) {
  const rows = query.data ?? [];
  return (
    <section className="card" aria-labelledby={`${name}-heading`} data-testid={name}>
      <h2 id={`${name}-heading`}>{title}</h2>
      <p className="muted">{intro}</p>
      {failure && query.error && <p role="alert">{failure(query.error.message)}</p>}
      {rows.length === 0 && query.isSuccess && <p className="muted">{empty}</p>}
      <ul className="record-list">
        {rows.map((row) => (
          <li key={row.orderId} {...attributes(row)} className={damaged(row) ? "extra-charge" : undefined}>
            <ShortId value={row.orderId} name="order id" />
            {children(row)}
          </li>
        ))}
      </ul>
    </section>
  );
}
