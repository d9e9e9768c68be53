"use client";

import { useState } from "react";
import type { ReactNode } from "react";
import {
  cardBrand,
  cardDetailsOf,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  securityCode,
  validateCard,
} from "~/app/_lib/card";
import type { CardErrors, CardFields } from "~/app/_lib/card";
import type { CardDetails } from "~/app/_lib/provider-payment-method";
import { useHydrated } from "~/app/_lib/use-hydrated";
import type { PaymentProgress } from "~/app/_lib/use-payment";

/** The provider's test cards (Stripe's numbers), one click each; the form starts with the approved one. */
const TEST_CARDS = [
  { name: "Approved", number: "4242 4242 4242 4242" },
  { name: "Declined", number: "4000 0000 0000 0002" },
] as const;
const TEST_CARD: CardFields = { number: TEST_CARDS[0].number, expiry: "12 / 34", cvc: "123" };

/** Card number, expiry and code, checked before they go to the payment provider (never to the shop). */
export function CardForm({
  label,
  progress,
  onPay,
  unguarded,
  note,
}: {
  label: string;
  progress: PaymentProgress;
  onPay: (card: CardDetails) => void;
  /** Pay stays enabled while a payment is out, so a second click sends a second request. */
  unguarded: boolean;
  note: ReactNode;
}) {
  const hydrated = useHydrated();
  const [card, setCard] = useState<CardFields>(TEST_CARD);
  const [errors, setErrors] = useState<CardErrors>({});
  const processing = progress.phase === "processing";
  const waiting = progress.phase === "waiting_for_connection";
  const busy = processing || waiting;
  const brand = cardBrand(card.number);
  const code = securityCode(card.number);

  const edit = (field: keyof CardFields, value: string) => {
    setCard((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  // The expiry and the code: a field each, with its error below it.
  const field = (
    name: "expiry" | "cvc",
    label: string,
    autoComplete: string,
    format: (value: string) => string,
    placeholder?: string,
  ) => (
    <div className="field">
      <label htmlFor={`card-${name}`}>{label}</label>
      <input
        id={`card-${name}`}
        name={`card-${name}`}
        inputMode="numeric"
        autoComplete={autoComplete}
        placeholder={placeholder}
        value={card[name]}
        onChange={(event) => edit(name, format(event.target.value))}
        disabled={busy}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `card-${name}-error` : undefined}
      />
      {errors[name] && (
        <p id={`card-${name}-error`} className="field-error">
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <form
      className="card-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const problems = validateCard(card);
        setErrors(problems);
        if (Object.keys(problems).length > 0) return;
        onPay(cardDetailsOf(card));
      }}
    >
      <div className="field card-number">
        <label htmlFor="card-number">Card number</label>
        <div className="input-with-brand">
          <input
            id="card-number"
            name="card-number"
            inputMode="numeric"
            autoComplete="cc-number"
            value={card.number}
            onChange={(event) => edit("number", formatCardNumber(event.target.value))}
            disabled={busy}
            aria-invalid={errors.number ? true : undefined}
            aria-describedby={errors.number ? "card-number-error card-help" : "card-help"}
          />
          <span className="card-brand" data-testid="card-brand" aria-live="polite">
            {brand ?? ""}
          </span>
        </div>
        {errors.number && (
          <p id="card-number-error" className="field-error">
            {errors.number}
          </p>
        )}
      </div>
      <div className="field-row">
        {field("expiry", "Expiry", "cc-exp", formatExpiry, "MM / YY")}
        {field("cvc", code.name, "cc-csc", (value) => digitsOf(value).slice(0, code.size))}
      </div>
      <p id="card-help" className="muted small">
        Test cards:{" "}
        {TEST_CARDS.map((test, i) => (
          <span key={test.name}>
            {i > 0 && ", "}
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setCard({ ...TEST_CARD, number: test.number });
                setErrors({});
              }}
              disabled={busy}
            >
              {test.name}
            </button>{" "}
            {test.number}
          </span>
        ))}
        ; any future date and code. The card goes to the payment provider, never to this shop.
      </p>
      {progress.phase === "no_payment_method" && (
        <p role="alert" className="field-error" data-testid="card-error">
          {progress.message}
        </p>
      )}
      <button
        className="primary pay-button"
        type="submit"
        disabled={!hydrated || (busy && !unguarded)}
        aria-busy={processing}
      >
        {processing && <span className="spinner" aria-hidden="true" />}
        {processing ? "Processing…" : waiting ? "Waiting for the connection…" : label}
      </button>
      {unguarded && (
        <p className="muted small" data-testid="pay-unguarded">
          Lab: this button stays enabled while a payment is out, so every click sends a request.
        </p>
      )}
      {note}
    </form>
  );
}
