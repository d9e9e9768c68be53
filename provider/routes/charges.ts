import { Hono } from "hono";
import { secretKeyOnly } from "../auth";
import type { BodyEnv } from "../body";
import { invalidRequest, missing } from "../errors";
import type { ProviderDeps } from "../provider-deps";
import { chargeJson } from "../stripe-objects";

/** The account's charges, read-only as Stripe's are: each PaymentIntent's tries, succeeded or failed. */
export function chargeRoutes(deps: ProviderDeps) {
  const routes = new Hono<BodyEnv>().use(secretKeyOnly);

  routes.get("/", async (c) => {
    const limit = Number(c.req.query("limit") ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      throw invalidRequest("parameter_invalid", "limit must be an integer from 1 to 100.", "limit");
    }
    const paymentIntent = c.req.query("payment_intent");
    const charges = await deps.db.charge.findMany({
      where: { account: c.get("account"), ...(paymentIntent ? { paymentIntent } : {}) },
      // Newest first, as Stripe lists.
      orderBy: { createdAt: "desc" },
      take: limit + 1,
    });
    return c.json({
      object: "list",
      url: "/v1/charges",
      has_more: charges.length > limit,
      data: charges.slice(0, limit).map(chargeJson),
    });
  });

  routes.get("/:id", async (c) => {
    const charge = await deps.db.charge.findFirst({
      where: { id: c.req.param("id"), account: c.get("account") },
    });
    if (!charge) throw missing("charge", c.req.param("id"));
    return c.json(chargeJson(charge));
  });
  return routes;
}
