import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { callerOf, secretKeyOnly } from "./auth";
import { limitBody, readBody } from "./body";
import type { BodyEnv } from "./body";
import { asProviderError, requestError } from "./errors";
import type { ProviderDeps } from "./provider-deps";
import { cardFieldRoutes } from "./routes/card-field";
import { chargeRoutes } from "./routes/charges";
import { eventRoutes } from "./routes/events";
import { paymentIntentRoutes } from "./routes/payment-intents";
import { paymentMethodRoutes } from "./routes/payment-methods";
import { webhookDeliveryRoutes } from "./routes/webhook-deliveries";

/** A mock payment provider in Stripe's API shapes, idempotent by the shop's run-once core on its own DB. */
export function createProviderApp(deps: ProviderDeps): Hono<BodyEnv> {
  const app = new Hono<BodyEnv>();

  // Every answer names its request, as Stripe's do (its clients read it as lastResponse.requestId).
  app.use("*", async (c, next) => {
    const requestId = `req_${randomBytes(7).toString("hex")}`;
    c.set("requestId", requestId);
    c.header("Request-Id", requestId);
    await next();
  });
  app.get("/health", (c) => c.json({ ok: true }));
  app.get("/metrics", async () => {
    const { registry } = deps.metrics;
    return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
  });

  app.route("/", cardFieldRoutes());
  // Before the key check: a browser's preflight carries no key. Publishable keys are public, as at Stripe.
  app.use("/v1/payment_methods", cors({ origin: "*", allowHeaders: ["Authorization", "Content-Type"] }));
  app.use("/v1/*", async (c, next) => {
    const caller = callerOf(c.req.header("authorization"));
    if (!caller) {
      throw requestError(
        401,
        "api_key_invalid",
        "Send your API key as Authorization: Bearer sk_test_... (pk_test_... from a browser), or as the user of HTTP Basic.",
      );
    }
    c.set("account", caller.account);
    c.set("publishable", caller.publishable);
    await next();
  });
  app.post("/v1/*", limitBody, readBody);

  if (deps.lab) {
    app.post("/v1/payment_intents", secretKeyOnly, deps.lab.aroundCharges);
    app.route("/v1/test/faults", deps.lab.routes);
  }
  app.route("/v1/payment_methods", paymentMethodRoutes(deps));
  app.route("/v1/payment_intents", paymentIntentRoutes(deps));
  app.route("/v1/charges", chargeRoutes(deps));
  app.route("/v1/events", eventRoutes(deps));
  app.route("/v1/test_helpers/webhook_deliveries", webhookDeliveryRoutes(deps));

  app.notFound(() => {
    throw requestError(404, "resource_missing", "No such endpoint.");
  });
  // Every failure in Stripe's shape; anything unexpected (a database that is down) a retryable 503, never a 500.
  app.onError((thrown, c) => {
    const error = asProviderError(thrown);
    if (error.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.retryAfterSeconds));
    return c.json(error.toJSON(), error.status as 400);
  });
  return app;
}
