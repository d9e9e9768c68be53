import { randomBytes } from "node:crypto";
import cardValidator from "card-validator";
import { Hono } from "hono";
import { z } from "zod";
import { validBody } from "../body";
import type { BodyEnv } from "../body";
import { cardFingerprint, chargeableOf, findPaymentMethod } from "../cards";
import { refusePublishable } from "../auth";
import { cardError, missing } from "../errors";
import { idempotent } from "../idempotent";
import type { ProviderDeps } from "../provider-deps";
import { integer } from "../params";
import { paymentMethodJson } from "../stripe-objects";

const paymentMethodRequest = z.strictObject({
  type: z.literal("card"),
  card: z.strictObject({
    number: z.string().regex(/^\d{12,19}$/),
    exp_month: integer.pipe(z.number().min(1).max(12)),
    exp_year: integer.pipe(z.number().min(2000).max(2100)),
    cvc: z
      .string()
      .regex(/^\d{3,4}$/)
      .optional(),
  }),
});

/** PaymentMethods from the browser with a publishable key: the card never reaches the merchant. */
export function paymentMethodRoutes(deps: ProviderDeps) {
  const routes = new Hono<BodyEnv>();
  routes.post("/", async (c) => {
    const { card } = validBody(paymentMethodRequest, c.get("body"));
    refuseBadCard(card);
    const account = c.get("account");
    return idempotent(c, deps, "POST /v1/payment_methods", { card }, async (commit) =>
      commit(async (tx) => {
        const method = await tx.paymentMethod.create({
          data: {
            id: `pm_${randomBytes(12).toString("hex")}`,
            account,
            cardNumber: card.number,
            cardLast4: card.number.slice(-4),
            brand: cardValidator.number(card.number).card?.type ?? "unknown",
            expMonth: card.exp_month,
            expYear: card.exp_year,
            fingerprint: cardFingerprint(account, card.number),
          },
        });
        return paymentMethodJson(chargeableOf(method));
      }),
    );
  });

  routes.get("/:id", async (c) => {
    refusePublishable(c.get("publishable"));
    const method = await findPaymentMethod(deps.db, c.get("account"), c.req.param("id"));
    if (!method) throw missing("PaymentMethod", c.req.param("id"));
    return c.json(paymentMethodJson(method));
  });
  return routes;
}

/** A number that fails its check digit, or an expiry in the past: a card error, as Stripe answers it. */
function refuseBadCard(card: z.infer<typeof paymentMethodRequest>["card"]) {
  if (!cardValidator.number(card.number).isValid) {
    throw cardError("incorrect_number", "Your card number is incorrect.", { param: "card[number]" });
  }
  const expiry = cardValidator.expirationDate({ month: String(card.exp_month), year: String(card.exp_year) });
  if (!expiry.isValid) {
    throw cardError("invalid_expiry_year", "Your card's expiration year is invalid.", {
      param: "card[exp_year]",
    });
  }
}
