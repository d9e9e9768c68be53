import { KeyReusedError } from "./errors";
import { RecentOutcomes } from "./recent-outcomes";
import type { RunResult } from "./types";

interface InFlight {
  fingerprint: string;
  settled: Promise<RunResult>;
}

/** Duplicates within one process share the key's one resolution, or a recent outcome, without the database. */
export class InProcessDuplicates {
  readonly #inFlight = new Map<string, InFlight>();
  readonly #recent: RecentOutcomes;

  constructor(recentOutcomesMs: number) {
    this.#recent = new RecentOutcomes(recentOutcomesMs);
  }

  /** A recent outcome of this key, if this process settled or read one. */
  recent(id: string, fingerprint: string, now: number): RunResult | undefined {
    const remembered = this.#recent.get(id, now);
    if (remembered && remembered.fingerprint !== fingerprint) throw new KeyReusedError("completed");
    return remembered?.result;
  }

  isInFlight(id: string): boolean {
    return this.#inFlight.has(id);
  }

  /** The resolution in flight for this key, if any, to join. */
  inFlight(id: string, fingerprint: string): Promise<RunResult> | undefined {
    const entry = this.#inFlight.get(id);
    if (entry && entry.fingerprint !== fingerprint) throw new KeyReusedError("in_progress");
    return entry?.settled;
  }

  /** Starts the key's one resolution; duplicates join it until it settles. */
  share(
    id: string,
    fingerprint: string,
    resolve: () => Promise<RunResult>,
    now: () => number,
  ): Promise<RunResult> {
    const settled = resolve()
      .then((result) => {
        this.#recent.remember(id, fingerprint, result, now());
        return result;
      })
      .finally(() => this.#inFlight.delete(id));
    // A failure whose callers all went away is not reported as unhandled.
    settled.catch(() => undefined);
    this.#inFlight.set(id, { fingerprint, settled });
    return settled;
  }
}
