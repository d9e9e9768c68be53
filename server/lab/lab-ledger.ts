import { setTimeout as sleep } from "node:timers/promises";
import type { Db, Tx } from "../db/client";
import type { Authorization, ChargeRequest, Ledger, LedgerEntry } from "../ledger/ledger";
import { readSwitches, spend } from "./switches";

/** How long a stalled attempt holds its transaction open: under Prisma's 5 s transaction timeout. */
export const STALL_MS = 4_000;

/**
 * The ledger as the lab bends it, per order: a slow card network, a decline,
 * a failure before anything is written, or a stall inside the transaction
 * (after the ledger write, before the commit: the moment to kill a server).
 * Counters are spent in authorize, outside the transaction, so that spending
 * one is not rolled back with the attempt it failed.
 */
export class LabLedger implements Ledger {
  readonly #stalled = new WeakSet<ChargeRequest>();

  constructor(
    private readonly db: Db,
    private readonly inner: Ledger,
  ) {}

  async authorize(request: ChargeRequest): Promise<Authorization> {
    const switches = await readSwitches(this.db, request.orderId);
    if (switches.ledgerDelayMs > 0) await sleep(switches.ledgerDelayMs);
    if (await spend(this.db, request.orderId, "failuresBeforeCommit")) {
      throw new Error("Lab fault: the card network dropped the connection before anything was written.");
    }
    if (await spend(this.db, request.orderId, "stallsBeforeCommit")) this.#stalled.add(request);
    const authorization = await this.inner.authorize(request);
    if (switches.decline) {
      return {
        approved: false,
        cardLast4: authorization.cardLast4,
        declineReason: "The card was declined (lab).",
      };
    }
    return authorization;
  }

  async record(tx: Tx, request: ChargeRequest, authorization: Authorization): Promise<LedgerEntry> {
    const entry = await this.inner.record(tx, request, authorization);
    if (this.#stalled.has(request)) await sleep(STALL_MS);
    return entry;
  }
}
