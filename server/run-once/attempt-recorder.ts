import type { Json, KeyScope, RunOnceOutcome } from "run-once";
import type { KeyRecord } from "run-once/store";
import { WriteBehind } from "./write-behind";

/** The state a request found its key in: the row of the key state grid that answered it. */
export type FoundKeyState = KeyRecord["state"] | "absent" | "expired";

/** One request that reached a run-once operation, as the server saw and answered it. */
export interface AttemptRecord {
  id: string;
  scope: KeyScope;
  at: Date;
  /** Which server process answered: host and port, or pid. */
  instance: string;
  /** The key's generation that answered (Execution.generation), when one did. */
  generation: string | null;
  /** How the request ended (see RUN_ONCE_OUTCOMES). */
  decision: RunOnceOutcome;
  /** The grid's row, when the server knows it (a caller that went away may not). */
  keyState: FoundKeyState | null;
  /** The request body's fingerprint, shortened: the grid's column is read by comparing it with the key's previous request. */
  fingerprint: string;
  /** The request body as the integration lets it be kept (secrets masked), to show and to send again. */
  body: Json;
  /** The HTTP status of the answer. */
  status: number;
  durationMs: number;
  /** The answer was lost on its way back (the fault lab drops replies after commit). */
  replyLost: boolean;
  retryAfterSeconds: number | null;
  /** Until when the key is retained (the answer's Idempotency-Key-Expires). */
  keyExpiresAt: Date | null;
}

/** Where the server's account is kept. Writes come in batches, off the requests' path. */
export interface AttemptJournal {
  /** Appends the records, keeps only the newest `capPerKey` of each key they name, and counts their keys' replays. */
  append(records: AttemptRecord[], capPerKey: number): Promise<void>;
  /** Marks an attempt already written as one whose reply was lost. */
  markReplyLost(id: string): Promise<void>;
  /** The records of some keys of one caller and operation, oldest first. */
  list(caller: string, path: string, keys: string[]): Promise<AttemptRecord[]>;
  /** Deletes the records of keys that no longer exist, once their last record is older than `before`. */
  sweep(before: Date): Promise<number>;
}

/** The most requests kept per key: a retry storm keeps its latest. */
export const ATTEMPTS_KEPT_PER_KEY = 50;

/** Records attempts off the requests' path (see WriteBehind); a failed write is logged, never thrown. */
export class AttemptRecorder {
  readonly #batches: WriteBehind<AttemptRecord>;

  constructor(
    private readonly journal: Pick<AttemptJournal, "append" | "markReplyLost">,
    private readonly logger: { warn(details: object, message: string): void },
  ) {
    this.#batches = new WriteBehind((batch) =>
      journal.append(batch, ATTEMPTS_KEPT_PER_KEY).catch((error: unknown) => {
        logger.warn({ err: error, count: batch.length }, "could not record attempts");
      }),
    );
  }

  record(attempt: AttemptRecord): void {
    this.#batches.put(attempt.id, attempt);
  }

  /** The reply of a recorded attempt was lost: noted in its pending record, or on its written row. */
  replyLost(id: string): void {
    const pending = this.#batches.pending(id);
    if (pending) {
      pending.replyLost = true;
      return;
    }
    this.#batches.then(() =>
      this.journal.markReplyLost(id).catch((error: unknown) => {
        this.logger.warn({ err: error }, "could not record a lost reply");
      }),
    );
  }

  /** Writes what is pending now; resolves when it (and any earlier write) is written. */
  flush(): Promise<void> {
    return this.#batches.flush();
  }
}
