import { z } from "zod";
import { RUN_ONCE_OUTCOMES } from "run-once";
import type { Json, KeyScope, RunOnceOutcome, RunResult } from "run-once";
import type { KeyRecord } from "run-once/store";
import type { Db, Tx } from "../db/client";
import type { Road } from "./road";

/** The state a request found its key in: the row of the key state grid that answered it. */
export type FoundKeyState = KeyRecord["state"] | "absent" | "expired";

/** One run under a key (a request, a completer run, a delivery...) or one of its provider calls, as the server saw it. */
export interface RequestRecord {
  id: string;
  scope: KeyScope;
  at: Date;
  /** Which server process answered: host and port, or pid. */
  instance: string;
  /** The key's generation that answered (Execution.generation), when one did. */
  generation: string | null;
  /** How the request ended (see RUN_ONCE_OUTCOMES); null while it is in flight. */
  decision: RunOnceOutcome | null;
  /** The grid's row, when the server knows it (a caller that went away may not). */
  keyState: FoundKeyState | null;
  /** The request body's fingerprint, shortened: the grid's column is read by comparing it with the key's previous request. */
  fingerprint: string;
  /** The request body as the integration lets it be kept (secrets masked), to show and to send again. */
  body: Json;
  /** The HTTP status of the answer; null while it is in flight. */
  status: number | null;
  durationMs: number;
  /** The answer was lost on its way back (the fault lab drops replies after commit). */
  replyLost: boolean;
  retryAfterSeconds: number | null;
  /** Until when the key is retained (the answer's Idempotency-Key-Expires). */
  keyExpiresAt: Date | null;
  /** The road the run came by; for a provider call, the road of the run that sent it. */
  sentBy: Road;
}

/** What every record shows the page: when, where, how it ended (null in flight), how long it took. */
export const recordViewSchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  instance: z.string(),
  /** The core's words (RUN_ONCE_OUTCOMES); for a provider call, the provider's Idempotency-Decision. */
  decision: z.enum(RUN_ONCE_OUTCOMES).nullable(),
  status: z.number().int().nullable(),
  durationMs: z.number().int(),
});

export function viewOf(record: RequestRecord): z.infer<typeof recordViewSchema> {
  const { id, at, instance, decision, status, durationMs } = record;
  return { id, at: at.toISOString(), instance, decision, status, durationMs: Math.round(durationMs) };
}

export type RequestEnding = Pick<
  RequestRecord,
  "decision" | "keyState" | "generation" | "status" | "retryAfterSeconds" | "keyExpiresAt"
>;

/** The grid's row that each decision with an outcome answered from. */
export const KEY_STATE_OF_DECISION: Record<RunResult["decision"], FoundKeyState> = {
  executed: "absent",
  expired: "expired",
  taken_over: "in_progress",
  replayed: "completed",
  coalesced: "in_progress",
};

export const IN_FLIGHT: RequestEnding = {
  decision: null,
  keyState: null,
  generation: null,
  status: null,
  retryAfterSeconds: null,
  keyExpiresAt: null,
};

/** Where the server's account is kept. Writes come in batches, off the requests' path. */
export interface RequestJournal {
  /** Appends the records, keeps each key's newest `capPerKey`, and counts their keys' replays. */
  append(records: RequestRecord[], capPerKey: number): Promise<void>;
  markReplyLost(id: string): Promise<void>;
  /** Writes the records now on `client` (a transaction's), never back to in flight. */
  write(client: Db | Tx, records: RequestRecord[]): Promise<void>;
  /** The records of some keys (or all) of one caller and operation, oldest first. */
  list(caller: string, path: string, keys?: string[]): Promise<RequestRecord[]>;
  /** Deletes the records of keys that no longer exist, once their last record is older than `before`. */
  sweep(before: Date): Promise<number>;
}

export const keyIdOf = (scope: KeyScope) => JSON.stringify([scope.caller, scope.path, scope.key]);

/** The most requests kept per key: a retry storm keeps its latest. */
export const REQUESTS_KEPT_PER_KEY = 50;
