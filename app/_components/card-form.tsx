"use client";

import { useEffect } from "react";
import { TEST_CARDS } from "service-kit/card-field";
import type { CheckoutView } from "~/app/_lib/checkout";
import { useHydrated } from "~/app/_lib/use-hydrated";
import type { CardField } from "./card-field";

/** The provider's card field, its test cards one click away, and the Pay button. */
export function CardForm({
  label,
  view: { busy, status, finishing },
  cardField,
  error,
  onPay,
  unguarded,
}: {
  label: string;
  view: CheckoutView;
  cardField: CardField;
  /** Why the provider made no PaymentMethod of the card (its words): nothing went to the shop. */
  error: string | null;
  onPay: () => void;
  /** Pay stays enabled while a payment is out, so a second click sends a second request. */
  unguarded: boolean;
}) {
  const hydrated = useHydrated();
  const processing = status.kind === "processing" || status.kind === "card";
  const { disable } = cardField;
  useEffect(() => disable(busy), [busy, disable]);
  return (
    <form
      className="card-form"
      data-testid="pay-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onPay();
      }}
    >
      {cardField.field}
      <p id="card-help" className="muted small">
        Test cards:{" "}
        {TEST_CARDS.map((name, i) => (
          <span key={name}>
            {i > 0 && ", "}
            <button
              type="button"
              className="link-button"
              onClick={() => cardField.fill(name)}
              disabled={busy}
            >
              {name}
            </button>
          </span>
        ))}
        ; any future date and code. The card is typed in the payment provider&apos;s own frame: this shop
        never sees it.
      </p>
      {error && (
        <p role="alert" className="field-error" data-testid="card-error">
          {error}
        </p>
      )}
      <button
        className="primary pay-button"
        type="submit"
        disabled={!hydrated || (busy && !unguarded)}
        aria-busy={processing}
      >
        {processing && <span className="spinner" aria-hidden="true" />}
        {processing ? "Processing…" : status.kind === "offline" ? "Waiting for the connection…" : label}
      </button>
      {unguarded && (
        <p className="muted small" data-testid="pay-unguarded">
          Lab: this button stays enabled while a payment is out, so every click sends a request.
        </p>
      )}
      {finishing && (
        <p className="muted small" data-testid="resume-note">
          An earlier try did not report back. Finishing sends the same key: if it was charged, you get that
          charge, not a second one.
        </p>
      )}
    </form>
  );
}
