/** The card as the provider takes it (Stripe's `card` hash). */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** Why no payment method was made: the provider refused the card or the request (its message), or did not answer. */
export class PaymentMethodError extends Error {
  constructor(
    readonly reason: "refused" | "no_answer",
    message: string,
  ) {
    super(message);
    this.name = "PaymentMethodError";
  }
}

/** The provider's answer: a PaymentMethod, or a Stripe error. */
interface ProviderAnswer {
  id?: unknown;
  error?: { type?: string; message?: string };
}

/** One try's budget: past it the field says the provider did not answer (the shop's own tries get 8 s). */
const TIMEOUT_MS = 8_000;

/** Creates a card PaymentMethod, as Stripe.js does from its frame: the number goes to the provider only. */
export async function createPaymentMethod(
  endpoint: { url: string; publishableKey: string },
  card: CardDetails,
  { timeoutMs = TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${endpoint.url.replace(/\/+$/, "")}/v1/payment_methods`, {
      method: "POST",
      headers: { Authorization: `Bearer ${endpoint.publishableKey}` },
      // Form-encoded as Stripe.js sends it: card[number]=…&card[exp_month]=…
      body: new URLSearchParams({
        type: "card",
        "card[number]": card.number,
        "card[exp_month]": String(card.expMonth),
        "card[exp_year]": String(card.expYear),
        "card[cvc]": card.cvc,
      }),
      credentials: "omit",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw new PaymentMethodError(
      "no_answer",
      "The payment provider did not answer: nothing was charged. Check the connection and press Pay again.",
    );
  }
  const answer = (await response.json().catch(() => ({}))) as ProviderAnswer;
  if (response.ok && typeof answer.id === "string" && answer.id.startsWith("pm_")) return answer.id;
  const said = answer.error?.message ?? `it answered HTTP ${response.status}.`;
  throw new PaymentMethodError(
    "refused",
    answer.error?.type === "card_error" ? said : `The payment provider refused the card details: ${said}`,
  );
}
