import { randomUUID } from "node:crypto";
import { KeyInProgressError, KeyReusedError, RunOnceError } from "run-once";
import type { Execution, FinalErrors, Json, KeyScope, RunOnceOutcome, RunResult } from "run-once";
import type { Db, Tx } from "../db/client";
import type { CallRecorder, ProviderCall, ProviderReply } from "../payment-provider/payment-provider";
import { callAnswered, callSent } from "./provider-calls";
import { IN_FLIGHT, KEY_STATE_OF_DECISION, REQUESTS_KEPT_PER_KEY, keyIdOf } from "./request-record";
import type { RequestEnding, RequestJournal, RequestRecord } from "./request-record";
import type { Road } from "./road";
import { WriteBehind } from "./write-behind";

/** The response header that names the server's record of a request, so the lab and the page can point at it. */
export const REQUEST_RECORD_HEADER = "Run-Once-Request";

export interface Arrival {
  road: Road;
  scope: KeyScope;
  /** The body's fingerprint, shortened; "" where no key compares bodies. */
  fingerprint: string;
  /** What was sent, as it may be kept; a run's acts may add to it. */
  body: Json;
  /** The statuses a road with a waiting client answers: none for a road no one waits on (the completer's). */
  answers?: { ok: number; error(error: unknown): number };
}

/** How a run ended: with its key's outcome, failing, or (the naive client) having run with no key at all. */
export type RunEnding =
  { result: RunResult } | { error: unknown; retryAfterSeconds?: number } | { unkeyed: true };

/** The server's account of each run; a crash loses only what the work does not depend on. */
export class Account {
  /** Arrivals, endings and replies, written in later batches: a failed write is logged, never thrown. */
  readonly batches: WriteBehind<RequestRecord>;

  constructor(
    readonly journal: RequestJournal,
    readonly deps: {
      db: Db;
      /** This process's name in the account (see instanceName). */
      instance: string;
      /** Whether a failure thrown while its key was claimed is an answer (refused) or a failure (released). */
      finalErrors: Pick<FinalErrors, "isFinal">;
      logger: { warn(details: object, message: string): void };
    },
  ) {
    this.batches = new WriteBehind(
      (batch) =>
        journal.append(batch, REQUESTS_KEPT_PER_KEY).catch((error: unknown) => {
          deps.logger.warn({ err: error, count: batch.length }, "could not write the account");
        }),
      (record) => keyIdOf(record.scope),
    );
  }

  arrived(arrival: Arrival): AccountedRun {
    return new AccountedRun(this, arrival);
  }

  /** A recorded run's reply was lost (the lab dropped it): noted in its pending record, or on its written row. */
  replyLost(id: string): void {
    const pending = this.batches.pending(id);
    if (pending) pending.replyLost = true;
    else
      this.batches.then(() =>
        this.journal.markReplyLost(id).catch((error: unknown) => {
          this.deps.logger.warn({ err: error }, "could not record a lost reply");
        }),
      );
  }

  flush(): Promise<void> {
    return this.batches.flush();
  }
}

export class AccountedRun implements CallRecorder {
  readonly id = randomUUID();
  readonly road: Road;
  #record: RequestRecord;
  #claimed: Pick<Execution<Tx>, "decision" | "generation"> | undefined;
  readonly #startedAt = performance.now();

  constructor(
    private readonly account: Account,
    private readonly arrival: Arrival,
  ) {
    const { road: sentBy, scope, fingerprint, body } = arrival;
    this.road = sentBy;
    this.#record = {
      ...IN_FLIGHT,
      id: this.id,
      scope,
      at: new Date(),
      instance: account.deps.instance,
      fingerprint,
      body,
      sentBy,
      durationMs: 0,
      replyLost: false,
    };
    account.batches.put(this.id, this.#record);
  }

  /** The run claimed its key: its commit() writes this record in the work's transaction. */
  claimed(execution: Execution<Tx>): Execution<Tx> {
    this.#claimed = execution;
    this.#change({ generation: execution.generation, keyState: KEY_STATE_OF_DECISION[execution.decision] });
    const answers = this.arrival.answers;
    return {
      ...execution,
      commit: (work) =>
        execution.commit(async (tx) => {
          try {
            const done = await work(tx);
            await this.writtenIn(tx);
            return done;
          } catch (error) {
            // A final error (a decline) commits with what the work wrote, this record too; any other rolls back.
            if (this.account.deps.finalErrors.isFinal(error))
              await this.writtenIn(tx, answers?.error(error) ?? null);
            throw error;
          }
        }),
    };
  }

  /** The record is written in the work's `tx`, ended as the work came to unless its client left. */
  writtenIn(tx: Tx, status = this.arrival.answers?.ok ?? null): Promise<void> {
    const ended = this.#record.decision !== null;
    // Not into the batches: the transaction may roll back, and then the run's ending tells what happened.
    const written = this.#with({
      ...(ended ? {} : { decision: this.#claimed?.decision ?? "executed", status }),
      durationMs: this.#elapsed(),
    });
    return this.account.journal.write(tx, [written]);
  }

  /** What the run found to add to what was sent (a delivery's outcome): kept with its record. */
  noted(body: Json): void {
    this.#change({ body });
  }

  /** A provider call, written before it leaves (in flight, with this run) so that a charge can name it. */
  async called(call: ProviderCall): Promise<(reply: ProviderReply) => void> {
    const sent = callSent(this.#record, call);
    await this.account.journal.write(this.account.deps.db, [this.#record, sent]);
    // Written now: a pending copy of this very version need not be written again.
    if (this.account.batches.pending(this.id) === this.#record) this.account.batches.drop(this.id);
    const sentAt = performance.now();
    return (reply) =>
      this.account.batches.put(sent.id, callAnswered(sent, reply, performance.now() - sentAt));
  }

  /** The run ended: the account keeps how, written in a later batch. */
  ended(ending: RunEnding, status: number | null = this.arrival.answers ? 200 : null): void {
    this.#change({ ...this.#endingOf(ending, status), durationMs: this.#elapsed() });
  }

  #endingOf(ending: RunEnding, status: number | null): RequestEnding {
    if ("unkeyed" in ending) return { ...IN_FLIGHT, decision: "executed", status };
    if ("result" in ending) {
      const { decision, generation, expiresAt } = ending.result;
      const keyState = KEY_STATE_OF_DECISION[decision];
      return { ...IN_FLIGHT, decision, keyState, generation, status, keyExpiresAt: expiresAt };
    }
    const { error, retryAfterSeconds = null } = ending;
    const claimed = this.#claimed;
    const decision = outcomeOfFailure(error, claimed !== undefined, this.account.deps.finalErrors);
    const keyState =
      decision === "mismatch"
        ? (error as KeyReusedError).keyState
        : decision === "conflict" || decision === "coalesced"
          ? "in_progress"
          : claimed && KEY_STATE_OF_DECISION[claimed.decision];
    return {
      ...IN_FLIGHT,
      decision,
      keyState: keyState ?? null,
      generation: claimed?.generation ?? null,
      status,
      retryAfterSeconds,
    };
  }

  #change(change: Partial<RequestRecord>): void {
    this.#record = this.#with(change);
    this.account.batches.put(this.id, this.#record);
  }

  /** The record with a change; a claim keeps its generation and the state it found through an ending that knew neither. */
  #with(change: Partial<RequestRecord>): RequestRecord {
    const claim = this.#record.generation
      ? { generation: this.#record.generation, keyState: this.#record.keyState }
      : {};
    return { ...this.#record, ...change, ...claim };
  }

  #elapsed(): number {
    return performance.now() - this.#startedAt;
  }
}

/** A held or reused key of another run's failed this run's work; an unclaimed run shared a failure. */
function outcomeOfFailure(
  error: unknown,
  claimed: boolean,
  finalErrors: Pick<FinalErrors, "isFinal">,
): RunOnceOutcome {
  const anotherKey = claimed && (error instanceof KeyInProgressError || error instanceof KeyReusedError);
  if (error instanceof RunOnceError && !anotherKey) return error.outcome;
  if (!claimed) return "coalesced";
  return finalErrors.isFinal(error) ? "refused" : "released";
}
