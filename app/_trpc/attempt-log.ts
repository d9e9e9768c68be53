/**
 * One operation's attempts, as the client saw them: the data behind the
 * payment timeline. Filled by the links (see links.ts) through the operation's
 * context, so it records what really went over the wire.
 */

export type AttemptOutcome =
  | "in_flight"
  | "executed" // the server ran the operation for this attempt
  | "replayed" // the server answered with the stored outcome of an earlier attempt
  | "timed_out" // no answer within the attempt's timeout: outcome unknown
  | "network_error" // no answer at all: outcome unknown
  | "conflict" // 409: the key was still in progress elsewhere
  | "unavailable" // 429: throttled, nothing done; 502/503/504: nothing committed, or unknown
  | "final_error" // a final answer that is not a success (declined, rejected)
  | "cancelled"
  | "interrupted"; // the page was reloaded or closed before the answer came

export interface Attempt {
  number: number;
  startedAt: number;
  endedAt: number | null;
  outcome: AttemptOutcome;
  status: number | null;
  /** Set when the client decided to retry after this attempt. */
  retryDelayMs: number | null;
}

export interface AttemptRecorder {
  started(at: number): void;
  ended(at: number, outcome: AttemptOutcome, status: number | null): void;
  retrying(delayMs: number): void;
}

/** Collects attempts and tells a listener (the timeline) after every change. */
export class AttemptLog implements AttemptRecorder {
  readonly attempts: Attempt[];

  /** `earlier` attempts (of earlier clicks or before a reload) are kept, and numbering goes on from them. */
  constructor(
    private readonly onChange: (attempts: readonly Attempt[]) => void = () => undefined,
    earlier: readonly Attempt[] = [],
  ) {
    // An attempt a reload cut off never learned its outcome.
    this.attempts = earlier.map((attempt) =>
      attempt.outcome === "in_flight" ? { ...attempt, outcome: "interrupted" as const } : { ...attempt },
    );
  }

  started(at: number) {
    this.attempts.push({
      number: this.attempts.length + 1,
      startedAt: at,
      endedAt: null,
      outcome: "in_flight",
      status: null,
      retryDelayMs: null,
    });
    this.#changed();
  }

  ended(at: number, outcome: AttemptOutcome, status: number | null) {
    const last = this.attempts.at(-1);
    if (!last || last.endedAt !== null) return;
    Object.assign(last, { endedAt: at, outcome, status });
    this.#changed();
  }

  retrying(delayMs: number) {
    const last = this.attempts.at(-1);
    if (!last) return;
    last.retryDelayMs = delayMs;
    this.#changed();
  }

  #changed() {
    this.onChange(this.attempts.map((attempt) => ({ ...attempt })));
  }
}
