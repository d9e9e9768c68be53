import cardValidator from "card-validator";
import type { CardDetails } from "./payment-method";

/** What the card field holds, in the provider's frame: it goes to the provider, never to the merchant's page. */
export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardErrors = Partial<Record<keyof CardFields, string>>;

/** The card network a number belongs to ("Visa"), as soon as its first digits tell. */
export function cardBrand(number: string): string | null {
  return cardValidator.number(digitsOf(number)).card?.niceType ?? null;
}

/** The name and length of the security code on this card ("CVC", 3; Amex: "CID", 4). */
export function securityCode(number: string): { name: string; size: number } {
  return cardValidator.number(digitsOf(number)).card?.code ?? { name: "CVC", size: 3 };
}

/** The number grouped as printed on the card (4-4-4-4; Amex 4-6-5). */
export function formatCardNumber(value: string): string {
  const digits = digitsOf(value).slice(0, 19);
  const gaps = cardValidator.number(digits).card?.gaps ?? [4, 8, 12, 16];
  return [...digits].map((digit, index) => (gaps.includes(index) ? ` ${digit}` : digit)).join("");
}

/** MM / YY as the customer types it: the slash comes by itself. */
export function formatExpiry(value: string): string {
  const digits = digitsOf(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** Every field's problem, in words; empty when the card can be sent. */
export function validateCard(fields: CardFields): CardErrors {
  const errors: CardErrors = {};
  if (!cardValidator.number(digitsOf(fields.number)).isValid) {
    errors.number = "This card number is not valid: check its digits.";
  }
  if (!cardValidator.expirationDate(fields.expiry.replace(/\s/g, "")).isValid) {
    errors.expiry = "Enter the expiry date as MM / YY, not in the past.";
  }
  const code = securityCode(fields.number);
  if (!cardValidator.cvv(digitsOf(fields.cvc), code.size).isValid) {
    errors.cvc = `Enter the ${code.size}-digit ${code.name} from the back of the card.`;
  }
  return errors;
}

/** A valid card as the provider takes it: digits only, the expiry's month and four-digit year. */
export function cardDetailsOf(fields: CardFields): CardDetails {
  const { month, year } = cardValidator.expirationDate(fields.expiry.replace(/\s/g, ""));
  return {
    number: digitsOf(fields.number),
    expMonth: Number(month),
    // card-validator reads a two-digit year in this century, as the form's MM / YY means it.
    expYear: year && year.length === 2 ? 2000 + Number(year) : Number(year),
    cvc: digitsOf(fields.cvc),
  };
}

export function digitsOf(value: string): string {
  return value.replace(/\D/g, "");
}
