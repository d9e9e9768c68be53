/** A payment's tries as this tab saw them, filled by the links: what really went over the wire. */

/** What the server said it did, in its Idempotency-Decision header. */
export const SERVER_DECISIONS = ["executed", "replayed", "coalesced", "taken_over", "expired"] as const;
export type ServerDecision = (typeof SERVER_DECISIONS)[number];

export type TryOutcome =
  | "in_flight"
  | "succeeded" // a 2xx answer: `decision` says how the server came by it
  | "final_error" // a final answer that is not a success (declined, refused)
  | "conflict" // 409: the key was still in progress elsewhere
  | "unavailable" // 429: throttled, nothing done; 502/503/504: nothing committed, or unknown
  | "timed_out" // no answer within the try's timeout: outcome unknown
  | "network_error" // no answer at all: outcome unknown
  | "cancelled"
  | "interrupted"; // the page was reloaded or closed before the answer came

export interface TabTry {
  number: number;
  /** The click (or other call) this try belongs to: retries share their run. */
  run: number;
  /** The idempotency key the request carried. */
  key: string;
  startedAt: number;
  /** Null while in flight, and for a try whose page died without a word. */
  endedAt: number | null;
  outcome: TryOutcome;
  status: number | null;
  decision: ServerDecision | null;
}

/** What the links report about the tries of one operation. */
export interface TryRecorder {
  started(at: number): void;
  ended(at: number, answer: TryAnswer): void;
}

export type TryAnswer = Pick<TabTry, "outcome" | "status" | "decision">;

/** One call's tries: its recorders share a run number. */
export interface TryRun {
  /** A recorder for requests that carry `key` (the naive client makes one per try). */
  recorder(key: string): TryRecorder;
}

/** Every try of a tab's payment, for the timeline; concurrent calls record into the one log. */
export class TryLog {
  readonly #tries: TabTry[];
  readonly #listeners = new Set<() => void>();
  #snapshot: readonly TabTry[];
  #runs: number;

  /** `restored`: from before a reload (one then in flight was cut off); `persist` hears of every change. */
  constructor(
    restored: readonly TabTry[] = [],
    private readonly persist: (tries: readonly TabTry[]) => void = () => undefined,
  ) {
    this.#tries = restored.map((tabTry) =>
      tabTry.outcome === "in_flight" ? { ...tabTry, outcome: "interrupted" as const } : { ...tabTry },
    );
    this.#snapshot = this.#copy();
    this.#runs = Math.max(0, ...this.#tries.map((tabTry) => tabTry.run));
  }

  /** An unchanging copy, replaced on every change (what React's useSyncExternalStore needs). */
  get tries(): readonly TabTry[] {
    return this.#snapshot;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  startRun(): TryRun {
    const run = ++this.#runs;
    return { recorder: (key) => this.#recorder(run, key) };
  }

  /** The page is going away (a reload, a closed tab): tries in flight end now, with no answer. */
  interruptInFlight(at: number) {
    const inFlight = this.#tries.filter((tabTry) => tabTry.outcome === "in_flight");
    for (const tabTry of inFlight) Object.assign(tabTry, { outcome: "interrupted", endedAt: at });
    if (inFlight.length > 0) this.#changed();
  }

  #recorder(run: number, key: string): TryRecorder {
    // Retries of one operation are sequential: the recorder's latest try is the one answered.
    let current: TabTry | undefined;
    return {
      started: (at) => {
        current = {
          number: this.#tries.length + 1,
          run,
          key,
          startedAt: at,
          endedAt: null,
          outcome: "in_flight",
          status: null,
          decision: null,
        };
        this.#tries.push(current);
        this.#changed();
      },
      ended: (at, answer) => {
        if (!current || current.outcome !== "in_flight") return;
        Object.assign(current, { endedAt: at, ...answer });
        this.#changed();
      },
    };
  }

  #copy(): readonly TabTry[] {
    return this.#tries.map((tabTry) => ({ ...tabTry }));
  }

  #changed() {
    this.#snapshot = this.#copy();
    this.persist(this.#snapshot);
    for (const listener of this.#listeners) listener();
  }
}
