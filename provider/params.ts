import qs from "qs";
import { z } from "zod";

/** An integer as JSON sends it, or as a form field (digits only: `amount[]=1` is not an amount). */
export const integer = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,12}$/)
      .transform(Number),
  ])
  .pipe(z.number().int());

/** A PaymentMethod's id, as the merchant sends it: one the browser created, or a test one (pm_card_visa). */
export const paymentMethodId = z.string().regex(/^pm_[A-Za-z0-9_]{1,100}$/);

/** A boolean as JSON sends it, or as a form field. */
export const boolean = z.union([
  z.boolean(),
  z.enum(["true", "false"]).transform((value) => value === "true"),
]);

/** Stripe's metadata: at most 50 string keys of 40 characters, values of 500. */
export const metadata = z
  .record(z.string().max(40), z.string().max(500))
  .refine((entries) => Object.keys(entries).length <= 50, "at most 50 keys")
  .default({});

/** What a GET asks to expand, as Stripe's clients send it (`expand[0]=latest_charge`, or `expand[]=`). */
export function expandsOf(url: string): string[] {
  const { expand } = qs.parse(new URL(url).search.slice(1));
  return Array.isArray(expand) ? expand.filter((field) => typeof field === "string") : [];
}
