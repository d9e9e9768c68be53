/** A payment's attempts as this tab saw them, filled by the links: what really went over the wire. */

/** What the server said it did, in its Idempotency-Decision header. */
export const SERVER_DECISIONS = ["executed", "replayed", "coalesced", "taken_over", "expired"] as const;
export type ServerDecision = (typeof SERVER_DECISIONS)[number];

export type AttemptOutcome =
  | "in_flight"
  | "succeeded" // a 2xx answer: `decision` says how the server came by it
  | "final_error" // a final answer that is not a success (declined, refused)
  | "conflict" // 409: the key was still in progress elsewhere
  | "unavailable" // 429: throttled, nothing done; 502/503/504: nothing committed, or unknown
  | "timed_out" // no answer within the attempt's timeout: outcome unknown
  | "network_error" // no answer at all: outcome unknown
  | "cancelled"
  | "interrupted"; // the page was reloaded or closed before the answer came

export interface Attempt {
  number: number;
  /** The click (or other call) this attempt belongs to: retries share their run. */
  run: number;
  /** The idempotency key the request carried. */
  key: string;
  startedAt: number;
  /** Null while in flight, and for an attempt whose page died without a word. */
  endedAt: number | null;
  outcome: AttemptOutcome;
  status: number | null;
  decision: ServerDecision | null;
}

/** What the links report about the attempts of one operation. */
export interface AttemptRecorder {
  started(at: number): void;
  ended(at: number, answer: AttemptAnswer): void;
}

export type AttemptAnswer = Pick<Attempt, "outcome" | "status" | "decision">;

/** One call's attempts: its recorders share a run number. */
export interface AttemptRun {
  /** A recorder for requests that carry `key` (the naive client makes one per attempt). */
  recorder(key: string): AttemptRecorder;
}

/** Every attempt of a tab's payment, for the timeline; concurrent calls record into the one log. */
export class AttemptLog {
  readonly #attempts: Attempt[];
  readonly #listeners = new Set<() => void>();
  #snapshot: readonly Attempt[];
  #runs: number;

  /** `restored`: from before a reload (one then in flight was cut off); `persist` hears of every change. */
  constructor(
    restored: readonly Attempt[] = [],
    private readonly persist: (attempts: readonly Attempt[]) => void = () => undefined,
  ) {
    this.#attempts = restored.map((attempt) =>
      attempt.outcome === "in_flight" ? { ...attempt, outcome: "interrupted" as const } : { ...attempt },
    );
    this.#snapshot = this.#copy();
    this.#runs = Math.max(0, ...this.#attempts.map((attempt) => attempt.run));
  }

  /** An unchanging copy, replaced on every change (what React's useSyncExternalStore needs). */
  get attempts(): readonly Attempt[] {
    return this.#snapshot;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  startRun(): AttemptRun {
    const run = ++this.#runs;
    return { recorder: (key) => this.#recorder(run, key) };
  }

  /** The page is going away (a reload, a closed tab): attempts in flight end now, with no answer. */
  interruptInFlight(at: number) {
    const inFlight = this.#attempts.filter((attempt) => attempt.outcome === "in_flight");
    for (const attempt of inFlight) Object.assign(attempt, { outcome: "interrupted", endedAt: at });
    if (inFlight.length > 0) this.#changed();
  }

  #recorder(run: number, key: string): AttemptRecorder {
    // Retries of one operation are sequential: the recorder's latest attempt is the one answered.
    let current: Attempt | undefined;
    return {
      started: (at) => {
        current = {
          number: this.#attempts.length + 1,
          run,
          key,
          startedAt: at,
          endedAt: null,
          outcome: "in_flight",
          status: null,
          decision: null,
        };
        this.#attempts.push(current);
        this.#changed();
      },
      ended: (at, answer) => {
        if (!current || current.outcome !== "in_flight") return;
        Object.assign(current, { endedAt: at, ...answer });
        this.#changed();
      },
    };
  }

  #copy(): readonly Attempt[] {
    return this.#attempts.map((attempt) => ({ ...attempt }));
  }

  #changed() {
    this.#snapshot = this.#copy();
    this.persist(this.#snapshot);
    for (const listener of this.#listeners) listener();
  }
}
