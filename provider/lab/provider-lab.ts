import { setTimeout as sleep } from "node:timers/promises";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { lostReply } from "service-kit/http/lost-reply";
import { providerFaultsSchema } from "service-kit/lab/provider-faults";
import { secretKeyOnly } from "../auth";
import { validBody } from "../body";
import type { BodyEnv } from "../body";
import type { ProviderDb } from "../db/client";
import { unavailable } from "../errors";
import type { CardNetwork } from "../test-cards";
import type { SendsAgain } from "../webhooks/deliverer";
import { OrderFaults } from "./order-faults";

/** Only the faults given change. */
const faultsRequest = providerFaultsSchema.strict().partial();

const orderOfBody = z.object({ metadata: z.object({ order: z.string() }) });

/** The test lab, composed around the provider from outside: the charge route knows none of its faults. */
export function providerLab(db: ProviderDb, timeoutHoldMs: number) {
  const faultsOf = (account: string, order: string) => new OrderFaults(db, { account, orderRef: order });

  /** The merchant's switches: GET and POST /v1/test/faults/:order. */
  const routes = new Hono<BodyEnv>()
    .use(secretKeyOnly)
    .get("/:order", async (c) => c.json(await faultsOf(c.get("account"), c.req.param("order")).read()))
    .post("/:order", async (c) =>
      c.json(
        await faultsOf(c.get("account"), c.req.param("order")).set(validBody(faultsRequest, c.get("body"))),
      ),
    );

  /** Around creating a PaymentIntent: a 503 before anything, a succeeded reply held or lost after its commit. */
  const aroundCharges = createMiddleware<BodyEnv>(async (c, next) => {
    const body = orderOfBody.safeParse(c.get("body"));
    if (!body.success) return next();
    const faults = faultsOf(c.get("account"), body.data.metadata.order);
    const on = await faults.read();
    if (on.unavailable && (await faults.spend("unavailable"))) {
      throw unavailable("The provider is unavailable (test lab).");
    }
    await next();
    if (!c.res.ok) return;
    // "Webhook first": the reply (a replay's too) waits, and the charge's event goes out meanwhile.
    if (on.holdReplyMs) await sleep(on.holdReplyMs);
    if (on.dropReplies && (await faults.spend("dropReplies"))) c.res = lostReply(await c.res.text(), c.res);
  });

  /** The card network, slow past the shop's timeout, slow, or declining, while the charge holds its key. */
  const cardNetwork =
    (inner: CardNetwork): CardNetwork =>
    async (charge) => {
      if (charge.order === undefined) return inner(charge);
      const faults = faultsOf(charge.account, charge.order);
      const on = await faults.read();
      if (on.timeouts && (await faults.spend("timeouts"))) await sleep(timeoutHoldMs);
      if (on.delayMs) await sleep(on.delayMs);
      return on.decline ? "generic_decline" : inner(charge);
    };

  /** The order's events delivered twice: once more after the first 2xx. */
  const sendsAgain: SendsAgain = async (event) =>
    event.orderRef !== null && (await faultsOf(event.account, event.orderRef).read()).webhookTwice;

  return { routes, aroundCharges, cardNetwork, sendsAgain };
}

export type ProviderLab = ReturnType<typeof providerLab>;
