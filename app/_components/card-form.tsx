"use client";

import { useState } from "react";
import type { ReactNode } from "react";
import {
  cardBrand,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  securityCode,
  validateCard,
} from "~/app/_lib/card";
import type { CardErrors, CardFields } from "~/app/_lib/card";
import { useHydrated } from "~/app/_lib/use-hydrated";
import type { PaymentProgress } from "~/app/_lib/use-payment";

/** The test card that is approved, with a date and code that pass; the form starts with it, for the demo. */
const TEST_CARD: CardFields = { number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123" };

/**
 * Card number (with its brand), expiry and security code, checked before
 * anything is sent. Only the number goes to the server: the mock ledger
 * needs nothing else, and a real shop would hand all three to its payment
 * provider's own field instead.
 */
export function CardForm({
  label,
  progress,
  onPay,
  note,
}: {
  label: string;
  progress: PaymentProgress;
  onPay: (cardNumber: string) => void;
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

  return (
    <form
      className="card-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const problems = validateCard(card);
        setErrors(problems);
        if (Object.keys(problems).length === 0) onPay(digitsOf(card.number));
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
        <div className="field">
          <label htmlFor="card-expiry">Expiry</label>
          <input
            id="card-expiry"
            name="card-expiry"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            value={card.expiry}
            onChange={(event) => edit("expiry", formatExpiry(event.target.value))}
            disabled={busy}
            aria-invalid={errors.expiry ? true : undefined}
            aria-describedby={errors.expiry ? "card-expiry-error" : undefined}
          />
          {errors.expiry && (
            <p id="card-expiry-error" className="field-error">
              {errors.expiry}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="card-cvc">{code.name}</label>
          <input
            id="card-cvc"
            name="card-cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            value={card.cvc}
            onChange={(event) => edit("cvc", digitsOf(event.target.value).slice(0, code.size))}
            disabled={busy}
            aria-invalid={errors.cvc ? true : undefined}
            aria-describedby={errors.cvc ? "card-cvc-error" : undefined}
          />
          {errors.cvc && (
            <p id="card-cvc-error" className="field-error">
              {errors.cvc}
            </p>
          )}
        </div>
      </div>
      <p id="card-help" className="muted small">
        Test cards: 4242 4242 4242 4242 is approved; 4000 0000 0000 0002 is declined. Any future date and
        code.
      </p>
      <button
        className="primary pay-button"
        type="submit"
        disabled={!hydrated || busy}
        aria-busy={processing}
      >
        {processing && <span className="spinner" aria-hidden="true" />}
        {processing ? "Processing…" : waiting ? "Waiting for the connection…" : label}
      </button>
      {note}
    </form>
  );
}
