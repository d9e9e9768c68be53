import type { Tx } from "../server/db/client";
import type { Authorization, ChargeRequest, Ledger, LedgerEntry } from "../server/ledger/ledger";
import { MockLedger } from "../server/ledger/mock-ledger";

/**
 * The mock ledger with hooks for tests: count calls, hold an authorization
 * until the test releases it, or fail while recording (inside the transaction).
 */
export class ControllableLedger implements Ledger {
  authorizeCalls = 0;
  recordCalls = 0;
  /** Awaited inside authorize: a test can keep an execution in flight. */
  beforeAuthorize: (() => Promise<void>) | undefined;
  /** Called inside record, after the ledger row is written and before commit. */
  afterRecord: (() => Promise<void>) | undefined;
  readonly #inner = new MockLedger();

  async authorize(request: ChargeRequest): Promise<Authorization> {
    this.authorizeCalls += 1;
    await this.beforeAuthorize?.();
    return this.#inner.authorize(request);
  }

  async record(tx: Tx, request: ChargeRequest, authorization: Authorization): Promise<LedgerEntry> {
    this.recordCalls += 1;
    const entry = await this.#inner.record(tx, request, authorization);
    await this.afterRecord?.();
    return entry;
  }
}

/** A promise a test resolves when it chooses. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
