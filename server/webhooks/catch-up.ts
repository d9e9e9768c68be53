import type { RunOnce } from "run-once";
import type Stripe from "stripe";
import type { Logger } from "service-kit/logger";
import { PeriodicJob } from "service-kit/periodic-job";
import type { Tx } from "../db/client";
import type { HandlerServices } from "./event-handler";
import { handleEvent } from "./handle-event";

/** The cursor's row in CatchUpCursor. */
const CURSOR = "payment provider events";

/** The provider's events in a range of `created` seconds its webhook has not delivered, newest first. */
export type UndeliveredEvents = (created: { gt: number; lte: number }) => AsyncIterable<Stripe.Event>;

/** The catch-up road: undelivered events since a durable cursor, each under its id's key, so any road or instance handles it once. */
export class CatchUp extends PeriodicJob<number> {
  /** An event younger than one interval is left to its webhook's first delivery. */
  #settleMs = 0;

  constructor(
    private readonly deps: {
      services: HandlerServices;
      eventRunOnce: RunOnce<Tx>;
      undeliveredEvents: UndeliveredEvents;
      /** How far back it lists, whatever the cursor: event keys are kept at least this long (env.ts checks). */
      lookBackMs: number;
      logger: Pick<Logger, "warn">;
      clock?: () => Date;
    },
  ) {
    // Each pass resolves with how many events it handled.
    super(
      () => this.#pass(),
      (error) => deps.logger.warn({ err: error }, "the catch-up's pass failed; the next one retries"),
    );
  }

  /** A pass now, then one every interval. */
  override start(intervalMs: number): void {
    this.#settleMs = intervalMs;
    void this.tick().catch(this.onError);
    super.start(intervalMs);
  }

  /** A pass now that leaves no event to its webhook, however fresh: the lab's button. */
  passNow(): Promise<number> {
    return this.#pass(0);
  }

  async #pass(settleMs = this.#settleMs): Promise<number> {
    const { db } = this.deps.services;
    const now = (this.deps.clock ?? (() => new Date()))().getTime();
    const cursor = await db.catchUpCursor.findUnique({ where: { name: CURSOR } });
    // Whole seconds, each listed until all its events were handled: then the cursor passes it, never to list it again.
    const gt = Math.max(cursor?.createdAt ?? 0, Math.floor((now - this.deps.lookBackMs) / 1000));
    const lte = Math.ceil((now - settleMs) / 1000) - 1;
    if (lte <= gt) return 0;
    const events: Stripe.Event[] = [];
    for await (const event of this.deps.undeliveredEvents({ gt, lte })) events.push(event);
    let handled = 0;
    let reached = lte;
    for (const event of events.reverse()) {
      try {
        await handleEvent(this.deps.services, this.deps.eventRunOnce, event, "catch-up");
      } catch (error) {
        // The cursor stays before this event's second: the next pass handles it again.
        this.deps.logger.warn({ err: error, event: event.id }, "the catch-up could not handle an event");
        reached = event.created - 1;
        break;
      }
      handled += 1;
    }
    if (reached > gt)
      await db.catchUpCursor.upsert({
        where: { name: CURSOR },
        create: { name: CURSOR, createdAt: reached },
        update: { createdAt: reached },
      });
    return handled;
  }
}
