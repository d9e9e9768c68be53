import { Hono } from "hono";
import qs from "qs";
import { z } from "zod";
import { secretKeyOnly } from "../auth";
import { validBody } from "../body";
import type { BodyEnv } from "../body";
import type { Prisma } from "../db/generated/sqlite/client";
import { invalidRequest, missing } from "../errors";
import { boolean, integer } from "../params";
import type { ProviderDeps } from "../provider-deps";

const range = z.strictObject({ gt: integer, gte: integer, lt: integer, lte: integer }).partial();

/** `stripe.events.list`'s parameters, as its client sends them (`created[gte]=...`, `types[0]=...`). */
const listQuery = z
  .strictObject({
    /** Unix seconds: one second, or a range. */
    created: z.union([integer, range]).optional(),
    /** One type, or a group with a wildcard (`payment_intent.*`). */
    type: z.string().max(100).optional(),
    types: z.array(z.string().max(100)).min(1).max(20).optional(),
    /** Whether the endpoint has answered the event 2xx yet. */
    delivery_success: boolean.optional(),
    limit: integer.pipe(z.number().min(1).max(100)).default(10),
    starting_after: z.string().max(100).optional(),
    ending_before: z.string().max(100).optional(),
  })
  .refine((query) => !(query.type && query.types), "type and types cannot both be given")
  .refine(
    (query) => !(query.starting_after && query.ending_before),
    "page one way: starting_after or ending_before",
  );

const EVENT_FIELDS = { payload: true, deliveredAt: true } as const;

/** The account's events, as Stripe lists them: how a merchant catches up with missed deliveries. */
export function eventRoutes(deps: ProviderDeps) {
  const routes = new Hono<BodyEnv>().use(secretKeyOnly);

  routes.get("/", async (c) => {
    const query = validBody(listQuery, qs.parse(new URL(c.req.url).search.slice(1)));
    const account = c.get("account");
    const cursor = await cursorOf(deps, account, query);
    // Paging back (ending_before) reads the nearest newer events first, then turns the page newest first.
    const order = query.ending_before ? "asc" : "desc";
    const rows = await deps.db.webhookEvent.findMany({
      where: {
        account,
        createdAt: createdFilter(query.created),
        type: typeFilter(query),
        ...(query.delivery_success === undefined
          ? {}
          : { deliveredAt: query.delivery_success ? { not: null } : null }),
        ...(cursor && beyond(cursor, query.ending_before ? "gt" : "lt")),
      },
      orderBy: [{ createdAt: order }, { id: order }],
      take: query.limit + 1,
      select: EVENT_FIELDS,
    });
    const page = rows.slice(0, query.limit);
    return c.json({
      object: "list",
      url: "/v1/events",
      has_more: rows.length > query.limit,
      data: (query.ending_before ? page.reverse() : page).map(eventJson),
    });
  });

  routes.get("/:id", async (c) => {
    const event = await deps.db.webhookEvent.findFirst({
      where: { id: c.req.param("id"), account: c.get("account") },
      select: EVENT_FIELDS,
    });
    if (!event) throw missing("event", c.req.param("id"));
    return c.json(eventJson(event));
  });
  return routes;
}

/** The event as delivered, with its pending webhooks as of now. */
function eventJson(event: { payload: string; deliveredAt: Date | null }) {
  return { ...(JSON.parse(event.payload) as object), pending_webhooks: event.deliveredAt ? 0 : 1 };
}

async function cursorOf(deps: ProviderDeps, account: string, query: z.infer<typeof listQuery>) {
  const id = query.starting_after ?? query.ending_before;
  if (id === undefined) return null;
  const cursor = await deps.db.webhookEvent.findFirst({
    where: { id, account },
    select: { id: true, createdAt: true },
  });
  if (!cursor) {
    throw invalidRequest(
      "resource_missing",
      `No such event: '${id}'`,
      query.starting_after ? "starting_after" : "ending_before",
    );
  }
  return cursor;
}

/** The events after the cursor in the list's order (older: lt) or before it (newer: gt); ties broken by id. */
function beyond(cursor: { id: string; createdAt: Date }, side: "lt" | "gt"): Prisma.WebhookEventWhereInput {
  return {
    OR: [
      { createdAt: { [side]: cursor.createdAt } },
      { createdAt: cursor.createdAt, id: { [side]: cursor.id } },
    ],
  };
}

/** Stripe's `created` in seconds, as a range of the rows' milliseconds: `created=t` is the whole second t. */
function createdFilter(created: number | z.infer<typeof range> | undefined) {
  if (created === undefined) return undefined;
  const { gt, gte, lt, lte } = typeof created === "number" ? { gte: created, lte: created } : created;
  const from = [gte, gt === undefined ? undefined : gt + 1].filter((s) => s !== undefined);
  const until = [lt, lte === undefined ? undefined : lte + 1].filter((s) => s !== undefined);
  return {
    ...(from.length ? { gte: new Date(Math.max(...from) * 1000) } : {}),
    ...(until.length ? { lt: new Date(Math.min(...until) * 1000) } : {}),
  };
}

/** One type, a group (`*` stands for any run of characters, once), or any of several types. */
function typeFilter(query: { type?: string; types?: string[] }): Prisma.StringFilter | undefined {
  if (query.types) return { in: query.types };
  if (query.type === undefined) return undefined;
  const [prefix, ...rest] = query.type.split("*");
  if (rest.length === 0) return { equals: query.type };
  if (rest.length > 1) throw invalidRequest("parameter_invalid", "type takes one * at most.", "type");
  return { startsWith: prefix, endsWith: rest[0] };
}
