import type { ProviderDb } from "./db/client";

/** The faults a merchant's test lab can ask for, per order. */
export interface Faults {
  dropReplies: number;
  unavailable: number;
  timeouts: number;
  delayMs: number;
  decline: boolean;
  webhookTwice: boolean;
  holdReplyMs: number;
}

const NO_FAULTS: Faults = {
  dropReplies: 0,
  unavailable: 0,
  timeouts: 0,
  delayMs: 0,
  decline: false,
  webhookTwice: false,
  holdReplyMs: 0,
};

/** One account's faults for one of its orders: another account's switches never touch them. */
export class OrderFaults {
  readonly #where: { account_orderRef: { account: string; orderRef: string } };

  constructor(
    private readonly db: ProviderDb,
    account: string,
    orderRef: string,
  ) {
    this.#where = { account_orderRef: { account, orderRef } };
  }

  async read(): Promise<Faults> {
    const row = await this.db.faultSwitches.findUnique({
      where: this.#where,
      omit: { account: true, orderRef: true },
    });
    return row ?? NO_FAULTS;
  }

  /** Only the faults given change; the others keep their value (off for an order not seen yet). */
  set(change: Partial<Faults>): Promise<Faults> {
    return this.db.faultSwitches.upsert({
      where: this.#where,
      create: { ...this.#where.account_orderRef, ...change },
      update: change,
      omit: { account: true, orderRef: true },
    });
  }

  /** Spends one unit of a counter, atomically: of two requests racing for the last unit, exactly one gets it. */
  async spend(counter: "dropReplies" | "unavailable" | "timeouts"): Promise<boolean> {
    const { count } = await this.db.faultSwitches.updateMany({
      where: { ...this.#where.account_orderRef, [counter]: { gt: 0 } },
      data: { [counter]: { decrement: 1 } },
    });
    return count === 1;
  }
}
