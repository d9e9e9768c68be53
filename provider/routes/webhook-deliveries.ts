import { Hono } from "hono";
import { secretKeyOnly } from "../auth";
import type { BodyEnv } from "../body";
import { invalidRequest } from "../errors";
import type { ProviderDeps } from "../provider-deps";

/** The provider's record of its webhook tries for an order's events, oldest first. */
export function webhookDeliveryRoutes(deps: ProviderDeps) {
  const routes = new Hono<BodyEnv>().use(secretKeyOnly);

  routes.get("/", async (c) => {
    const order = c.req.query("order");
    if (!order)
      throw invalidRequest("parameter_missing", "Name the order: ?order=<metadata.order>.", "order");
    const tries = await deps.db.webhookDelivery.findMany({
      where: { event: { account: c.get("account"), orderRef: order } },
      include: { event: { select: { type: true } } },
      orderBy: [{ at: "asc" }, { try: "asc" }],
    });
    return c.json({
      object: "list",
      data: tries.map(({ eventId, event, at, durationMs, ...delivery }) => ({
        ...delivery,
        event: eventId,
        type: event.type,
        at: at.toISOString(),
        duration_ms: durationMs,
      })),
    });
  });
  return routes;
}
