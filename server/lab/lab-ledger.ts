import { setTimeout as sleep } from "node:timers/promises";
import type { Db, Tx } from "../db/client";
import type { Authorization, ChargeRequest, Ledger, LedgerEntry } from "../ledger/ledger";
import { readSwitches, spend } from "./switches";

/**
 * The ledger as the lab bends it, per order: a slow card network, a decline,
 * or a failure before anything is written. The faults strike in authorize,
 * outside the transaction, so that spending a counter is not rolled back
 * with the attempt it failed.
 */
export class LabLedger implements Ledger {
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

  record(tx: Tx, request: ChargeRequest, authorization: Authorization): Promise<LedgerEntry> {
    return this.inner.record(tx, request, authorization);
  }
}
