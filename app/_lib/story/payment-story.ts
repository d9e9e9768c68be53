import type { Order } from "../order";
import type { ProviderCall, ServerAccount, ServerAttempt, WebhookDelivery } from "../server-account";
import { plural } from "./plural";

/** What the story needs of a charge in the shop's ledger: its key, and the record of the request that made it. */
export type LedgerCharge = Pick<Order["charges"][number], "id" | "idempotencyKey" | "naive" | "madeBy">;

/** Whether a reply reached the sender, was lost on the way, or was never sent (in flight, or its client had left). */
export type Reply = "received" | "lost" | "none";

/** One request (or completer run) of the server's account, as the figure and every sentence tell it. */
export interface RequestRow {
  /** The one numbering of the request lane: #n in the figure and in every sentence. */
  n: number;
  attempt: ServerAttempt;
  /** A client's request crosses the network; the completer runs inside a server. */
  crossesNetwork: boolean;
  reply: Reply;
  /** The ledger's charges this request made: its charge marks, one each. */
  charges: string[];
  /** The box drawn on the server's lane. */
  work: "charge" | "decline" | "wait" | "ran" | "";
  caption: string;
  /** The later request that took over this one's key when its server stopped. */
  takenOverBy: number | null;
}

/** One call of the shop to the provider, as the provider lane and its sentence tell it. */
export interface ProviderRow {
  /** The one numbering of the provider lane: "call n" in the figure and the sentence. */
  n: number;
  call: ProviderCall;
  reply: Reply;
  /** What the provider did under this call, from its reply or a later reply under the same key. */
  mark: "charge" | "decline" | null;
  caption: string;
}

/** One delivery of the provider's webhook, as the webhook lane and its sentence tell it. */
export interface WebhookRow {
  /** The one numbering of the webhook lane: "delivery n" in the figure and every sentence. */
  n: number;
  delivery: WebhookDelivery;
  /** The box at the shop: the event's key ran the handling, replayed its stored answer, or waited; none if refused first. */
  work: "ran" | "replay" | "wait" | "";
  /** The request lane's number of the run this delivery recorded the payment with, if it did. */
  recordedAs: number | null;
  caption: string;
}

export interface PaymentStory {
  requests: RequestRow[];
  /** "3 requests reached the server; 1 charge. #1 …". */
  whatHappened: string;
  providerCalls: ProviderRow[];
  providerSentence: string;
  webhookDeliveries: WebhookRow[];
  webhookSentence: string;
  /** Ledger charges that no recorded request or run made (a record swept, or never written). */
  unrecordedCharges: string[];
  /** Set when the order was charged more than once: why, from the records that made each charge. */
  overcharge: string | null;
  /** Set when the shared store has no row for a key that a request ran or was answered under. */
  keyNotInStore: string | null;
}

const DECLINED = 402;
const CLIENT_GONE = 499;
const RAN = new Set<ServerAttempt["decision"]>(["executed", "taken_over", "expired"]);

const timesInWords = (count: number) => (count === 1 ? "once" : count === 2 ? "twice" : `${count} times`);

/** Everything the order page says of its payment, computed once from the server's account and the ledger. */
export function paymentStory(account: ServerAccount, charges: readonly LedgerCharge[]): PaymentStory {
  const attempts = account.attempts;
  const madeBy = new Map<string, string[]>();
  for (const charge of charges) {
    if (charge.madeBy) madeBy.set(charge.madeBy, [...(madeBy.get(charge.madeBy) ?? []), charge.id]);
  }
  const requests = attempts.map((attempt, i) => requestRow(attempts, i, madeBy.get(attempt.id) ?? []));
  const drawn = new Set(requests.flatMap((row) => row.charges));
  const providerCalls = providerRows(account.providerCalls);
  const webhookDeliveries = webhookRows(account.webhookDeliveries, requests);
  return {
    requests,
    whatHappened: whatHappened(requests, charges, webhookDeliveries),
    providerCalls,
    providerSentence: providerSentence(providerCalls),
    webhookDeliveries,
    webhookSentence: webhookSentence(webhookDeliveries),
    unrecordedCharges: charges.filter((charge) => !drawn.has(charge.id)).map((charge) => charge.id),
    overcharge: overchargeCause(requests, charges),
    keyNotInStore: keyNotInStore(account, requests),
  };
}

/** Where a key stands in progress on the server: its lease, and the request that holds it (its number), if recorded. */
export function keyInProgress(account: ServerAccount, rows: readonly RequestRow[], key: string) {
  const lifecycle = account.keys.find((k) => k.key === key);
  if (lifecycle?.state !== "in_progress") return null;
  const holder = rows.findLast((row) => row.attempt.key === key && holdsKey(row.attempt));
  return { leaseExpiresAt: lifecycle.lockedUntil, request: holder?.n ?? null };
}

/** A key the shared store holds no row of, though a request ran or was answered under it: kept in one instance's memory. */
function keyNotInStore(account: ServerAccount, rows: readonly RequestRow[]): string | null {
  const latest = rows.filter((row) => row.attempt.sentBy !== "naive client").at(-1)?.attempt.key;
  const state = account.keys.find((key) => key.key === latest)?.state;
  if (latest === undefined || (state !== undefined && state !== "absent")) return null;
  const under = rows.filter((row) => row.attempt.key === latest);
  const answered = under.find(
    (row) => row.attempt.decision === "replayed" || row.attempt.decision === "coalesced",
  );
  const ran = under.find((row) => RAN.has(row.attempt.decision) && row.attempt.status === 200);
  if (answered) {
    return `Not in the shared store, yet #${answered.n} was answered from a stored result: the instance that answered kept the key in its own memory, where no other instance sees it.`;
  }
  return ran
    ? `Not in the shared store, though #${ran.n} ran under it: its instance kept the key in its own memory, where no other instance sees it.`
    : null;
}

/** The request still runs its key's execution: in flight, or its client gone while it went on. */
export function holdsKey(attempt: ServerAttempt): boolean {
  return attempt.decision === null || (attempt.decision === "abandoned" && attempt.generation !== null);
}

/** The request took its key over from a dead owner: answered so, or claimed so before it failed or its client left. */
function tookOver(attempt: ServerAttempt): boolean {
  return (
    attempt.decision === "taken_over" ||
    (attempt.decision !== "coalesced" && attempt.keyState === "in_progress" && attempt.generation !== null)
  );
}

/** A run the server started itself (the completer), or the provider's webhook: no client waits for its reply. */
const noClient = (attempt: ServerAttempt) => attempt.sentBy === "completer" || attempt.sentBy === "webhook";

function replyOf(attempt: ServerAttempt): Reply {
  if (noClient(attempt) || attempt.decision === null) return "none";
  if (attempt.decision === "abandoned" || attempt.status === CLIENT_GONE) return "none";
  return attempt.replyLost ? "lost" : "received";
}

function requestRow(attempts: readonly ServerAttempt[], i: number, charges: string[]): RequestRow {
  const attempt = attempts[i]!;
  const takenOverBy = holdsKey(attempt)
    ? attempts.findIndex((a, j) => j > i && a.key === attempt.key && tookOver(a)) + 1 || null
    : null;
  const waited = attempt.decision === "coalesced" || attempt.decision === "conflict";
  const declined =
    attempt.status === DECLINED && (RAN.has(attempt.decision) || attempt.sentBy === "naive client");
  const work =
    charges.length > 0
      ? "charge"
      : declined
        ? "decline"
        : waited || (attempt.decision === "abandoned" && attempt.generation === null)
          ? "wait"
          : noClient(attempt)
            ? "ran"
            : "";
  return {
    n: i + 1,
    attempt,
    crossesNetwork: !noClient(attempt),
    reply: replyOf(attempt),
    charges,
    work,
    caption:
      caption(attempts, i, charges.length, takenOverBy) +
      (attempt.replyLost && !noClient(attempt) ? ", and its reply was lost" : ""),
    takenOverBy,
  };
}

/** The request whose execution a duplicate waited for: the one that ran the key's same generation. */
function executionOf(attempts: readonly ServerAttempt[], i: number): number | null {
  const attempt = attempts[i]!;
  if (attempt.generation === null) return null;
  const j = attempts.findIndex(
    (a, k) => k !== i && a.key === attempt.key && a.generation === attempt.generation && !waitedFor(a),
  );
  return j === -1 ? null : j + 1;
}

const waitedFor = (attempt: ServerAttempt) =>
  attempt.decision === "coalesced" || attempt.decision === "conflict" || attempt.decision === "replayed";

/** What a run came to, by its outcome: charged, declined, failed and stored, or nothing recorded. */
function ranTo(attempt: ServerAttempt, charged: number): string {
  const status = attempt.status ?? 0;
  if (charged > 0) return charged === 1 ? "charged the card" : `charged the card ${timesInWords(charged)}`;
  if (status === DECLINED) return "the card was declined; the decline is stored as final";
  // Only a final answer should be stored; the lab's "cache errors" pitfall stores any failure.
  if (status >= 400) return `failed (HTTP ${status}), and the failure was stored as the key's outcome`;
  return "no charge recorded";
}

/** The request's caption: its decision and its outcome together, never the decision alone. */
function caption(
  attempts: readonly ServerAttempt[],
  i: number,
  charged: number,
  takenOverBy: number | null,
): string {
  const attempt = attempts[i]!;
  const status = attempt.status ?? 0;
  const stopped = takenOverBy === null ? "" : `; its server stopped, and #${takenOverBy} took its key over`;
  const over = tookOver(attempt) && attempt.decision !== "taken_over" ? "took over a dead owner's key, " : "";
  if (attempt.sentBy === "naive client") {
    if (attempt.decision === null) return "in flight, without run-once";
    if (charged > 0) return `ran without run-once: ${ranTo(attempt, charged)}`;
    return status === DECLINED
      ? "ran without run-once: the card was declined"
      : `ran without run-once: failed (HTTP ${status})`;
  }
  const shared = () => {
    const first = executionOf(attempts, i);
    return first === null ? "the execution in flight" : `#${first}`;
  };
  switch (attempt.decision) {
    case null:
      return takenOverBy === null ? "in flight: no answer yet" : `got no answer${stopped}`;
    case "executed":
      return `executed: ${ranTo(attempt, charged)}`;
    case "taken_over":
      return `took over a dead owner's key and ran: ${ranTo(attempt, charged)}`;
    case "expired":
      return `found the key expired and ran again: ${ranTo(attempt, charged)}`;
    case "replayed":
      if (status === DECLINED) return "replayed the stored decline: charged nothing";
      if (status >= 400) return `replayed the stored failure (HTTP ${status}): charged nothing`;
      return "replayed the stored result: charged nothing";
    case "coalesced":
      return `waited for ${shared()} and shared its result`;
    case "conflict":
      return "waited past the wait bound, and was told 409: retry later";
    case "mismatch":
      return "was refused with 422: the key holds another body";
    case "refused":
      return `was refused (HTTP ${status}) before any write; the key was released`;
    case "released":
      return charged > 0
        ? `${over}${ranTo(attempt, charged)}, then failed (HTTP ${status}) before completing its key, and released it`
        : `${over}failed (HTTP ${status}) before its key was completed; the key was released`;
    case "lease_lost":
      return "lost its lease; nothing of it was committed";
    case "abandoned":
      if (attempt.generation === null) return "waited; its client had left";
      return `${over}was left by its client; its execution went on${charged > 0 ? ` and ${ranTo(attempt, charged)}` : ""}${stopped}`;
  }
}

/** How "What happened" names request #n; a webhook's run by the delivery that ran it. */
function nameOf(row: RequestRow, deliveries: readonly WebhookRow[]): string {
  if (row.attempt.sentBy === "completer") return `#${row.n} (the background completer)`;
  if (row.attempt.sentBy === "webhook") {
    const delivery = deliveries.find((d) => d.recordedAs === row.n);
    return `#${row.n} (the provider's webhook${delivery ? `, delivery ${delivery.n}` : ""})`;
  }
  return row.attempt.sentBy === "naive client" ? `#${row.n} (naive, a key of its own)` : `#${row.n}`;
}

/** The most requests told one by one; the rest are counted. */
const TOLD = 6;

/** What happened, a sentence a request: the same numbering and captions as the figure. */
function whatHappened(
  rows: readonly RequestRow[],
  charges: readonly LedgerCharge[],
  deliveries: readonly WebhookRow[],
): string {
  const keys = new Set(rows.map((row) => row.attempt.key)).size;
  const sent = rows.filter((row) => row.crossesNetwork).length;
  const runsOf = (sentBy: string) => rows.filter((row) => row.attempt.sentBy === sentBy).length;
  const [runs, webhooks] = [runsOf("completer"), runsOf("webhook")];
  const requests =
    (sent === 0
      ? "No request reached the server"
      : `${plural(sent, "request")} reached the server${keys > 1 ? ` under ${keys} keys` : ""}`) +
    (runs > 0 ? `, and the background completer ran ${timesInWords(runs)}` : "") +
    (webhooks > 0 ? `, and the provider's webhook recorded the payment` : "");
  const told = rows.slice(0, TOLD).map((row) => ` ${nameOf(row, deliveries)} ${row.caption}.`);
  const rest = rows.length - told.length;
  return `${requests}; ${plural(charges.length, "charge")}.${told.join("")}${rest > 0 ? ` And ${rest} more.` : ""}`;
}

/** Why an order holds more than one charge, told from the requests that made them. */
function overchargeCause(rows: readonly RequestRow[], charges: readonly LedgerCharge[]): string | null {
  if (charges.length < 2) return null;
  const makers = rows.filter((row) => row.charges.length > 0);
  const named = makers.map((row) => `#${row.n}`).join(" and ");
  const keys = new Set(charges.map((charge) => charge.idempotencyKey)).size;
  if (keys > 1) return `each charge carries a key of its own (${named}), so each looked like a new payment`;
  const released = makers.find((row) => row.attempt.decision === "released");
  if (released) {
    return `#${released.n} charged the card, then released its key before completing it, so a retry under the same key ran again`;
  }
  const instances = new Set(makers.map((row) => row.attempt.instance)).size;
  if (makers.length > 1 && makers.every((row) => row.attempt.keyState === "absent")) {
    return instances > 1
      ? `${named} each found the key absent on their own instance: the instances keep keys apart, in memory`
      : `${named} each found the key absent`;
  }
  return makers.length > 0 ? `the charges were made by ${named}` : "no recorded request made them";
}

/** The provider's decisions that ran the call under its key. */
const PROVIDER_RAN = new Set(["executed", "taken_over", "expired"]);

function providerRows(calls: readonly ProviderCall[]): ProviderRow[] {
  const rows = calls.map((call, i): ProviderRow => {
    const reply: Reply = call.noReply || call.status === null ? (call.noReply ? "lost" : "none") : "received";
    const ran = reply === "received" && call.decision !== null && PROVIDER_RAN.has(call.decision);
    const mark = !ran ? null : call.status === DECLINED ? "decline" : call.status === 200 ? "charge" : null;
    return { n: i + 1, call, reply, mark, caption: "" };
  });
  // A replay or shared answer under a key no answered call ran: the provider ran it under an earlier call whose reply never came.
  for (const row of rows) {
    const { decision, status, key } = row.call;
    if (row.reply !== "received" || (decision !== "replayed" && decision !== "coalesced")) continue;
    if (rows.some((r) => r.call.key === key && r.mark !== null)) continue;
    const maker = rows.find((r) => r.n < row.n && r.call.key === key && r.reply !== "received");
    if (maker) maker.mark = status === DECLINED ? "decline" : status === 200 ? "charge" : null;
  }
  for (const row of rows) row.caption = providerCaption(row, rows);
  return rows;
}

const DID: Record<NonNullable<ProviderRow["mark"]>, string> = {
  charge: "charged the card",
  decline: "declined the card",
};

function providerCaption(row: ProviderRow, rows: readonly ProviderRow[]): string {
  const { call } = row;
  const answeredLater = (verb: string) => {
    const later = rows.find((r) => r.n > row.n && r.call.key === call.key && r.reply === "received");
    return later ? `${verb} (call ${later.n}'s answer shows it)` : verb;
  };
  if (row.reply === "lost") {
    return row.mark
      ? answeredLater(`${DID[row.mark]}; its reply never reached the shop`)
      : "no reply reached the shop (lost, or timed out)";
  }
  if (row.reply === "none") return "in flight: no reply yet";
  if (row.mark) return DID[row.mark];
  switch (call.decision) {
    case "conflict":
      return "409: the key is in use at the provider; retry later";
    case "replayed":
      return call.status === DECLINED
        ? "replayed the stored decline"
        : "replayed the stored result: charged nothing";
    case "coalesced":
      return "waited for the call in flight and shared its result";
    default:
      return `HTTP ${call.status}: no final answer`;
  }
}

/** The provider lane in words, numbered as its figure: "3 calls under 2 keys; 1 charge made. Call 1 …". */
function providerSentence(rows: readonly ProviderRow[]): string {
  if (rows.length === 0) return "The shop has not called the provider yet.";
  const keys = new Set(rows.map((row) => row.call.key)).size;
  const made = rows.filter((row) => row.mark === "charge").length;
  const told = rows.map((row) => ` Call ${row.n} (${row.call.purpose}) ${row.caption}.`).join("");
  return `${plural(rows.length, "call")} under ${plural(keys, "key")}; ${plural(made, "charge")} made.${told}`;
}

/** The box a delivery's decision draws: a failed run ran too; a refusal before the event's key draws none. */
const WEBHOOK_WORK: Partial<Record<NonNullable<WebhookDelivery["decision"]>, WebhookRow["work"]>> = {
  executed: "ran",
  taken_over: "ran",
  expired: "ran",
  released: "ran",
  replayed: "replay",
  coalesced: "wait",
  conflict: "wait",
};

/** The run under the payment's key that a delivery's handling made, by the delivery it names. */
const runOf = (delivery: WebhookDelivery, requests: readonly RequestRow[]) =>
  requests.find((row) => row.attempt.sentBy === "webhook" && row.attempt.body.delivery === delivery.id);

function webhookRows(deliveries: readonly WebhookDelivery[], requests: readonly RequestRow[]): WebhookRow[] {
  const rows = deliveries.map((delivery, i): WebhookRow => {
    const { decision } = delivery;
    const work = decision === null ? "" : (WEBHOOK_WORK[decision] ?? "");
    return { n: i + 1, delivery, work, recordedAs: runOf(delivery, requests)?.n ?? null, caption: "" };
  });
  return rows.map((row) => ({ ...row, caption: webhookCaption(row, rows, requests) }));
}

/** The request that ran under the payment's key, which a delivery found recorded, or waited for. */
function recorderOf(paymentKey: string, requests: readonly RequestRow[]): RequestRow | undefined {
  return requests.find(
    (row) => row.attempt.key === paymentKey && (RAN.has(row.attempt.decision) || holdsKey(row.attempt)),
  );
}

function webhookCaption(
  row: WebhookRow,
  rows: readonly WebhookRow[],
  requests: readonly RequestRow[],
): string {
  const { delivery } = row;
  const recorder = recorderOf(delivery.paymentKey, requests);
  const by = recorder && recorder.n !== row.recordedAs ? ` by #${recorder.n}` : "";
  const ranEarlier = rows.find(
    (r) =>
      r.n < row.n && r.delivery.event === delivery.event && r.work === "ran" && r.delivery.status === 200,
  );
  const earlier = ranEarlier ? `delivery ${ranEarlier.n}` : "an earlier delivery";
  const retried = "; the provider delivers it again";
  // A payment_failed event tells of a decline, which is recorded as final like a charge.
  const what = delivery.type.endsWith(".payment_failed") ? "the decline" : "the payment";
  switch (delivery.decision) {
    case null:
      return "in flight: being handled";
    case "executed":
    case "taken_over":
    case "expired":
      if (delivery.outcome === "recorded") {
        return row.recordedAs === null
          ? `ran under the event's id and recorded ${what}`
          : `ran under the event's id and recorded ${what}, as #${row.recordedAs}`;
      }
      if (delivery.outcome === "shared") {
        return `ran under the event's id, found the payment's key held${by}, waited, and shared its record: recorded nothing itself`;
      }
      return `ran under the event's id and found ${what} already recorded${by}: recorded nothing`;
    case "replayed":
      return `replayed the stored answer of ${earlier} ("${delivery.outcome}"): recorded nothing`;
    case "coalesced":
      return delivery.status === 200
        ? `waited for ${earlier}, in flight, and shared its answer: recorded nothing`
        : `waited for a delivery in flight, which failed (HTTP ${delivery.status}): recorded nothing${retried}`;
    case "conflict":
      return `found the event's key held by another delivery past the wait bound: told 409, recorded nothing${retried}`;
    case "released":
      return delivery.outcome === "payment key held"
        ? `ran, but the payment's key stayed held${by} past the wait bound: told 409, recorded nothing${retried}`
        : `ran and failed before the event's key was completed: told HTTP ${delivery.status}, recorded nothing${retried}`;
    default:
      return `HTTP ${delivery.status}: recorded nothing`;
  }
}

/** The webhook lane in words, numbered as its figure: "2 deliveries of 1 event. Delivery 1 …". */
function webhookSentence(rows: readonly WebhookRow[]): string {
  if (rows.length === 0) return "The provider's webhook has not told the shop of this payment yet.";
  const events = new Set(rows.map((row) => row.delivery.event)).size;
  const told = rows.map((row) => ` Delivery ${row.n} (${row.delivery.type}) ${row.caption}.`).join("");
  return `${plural(rows.length, "delivery", "deliveries")} of ${plural(events, "event")}.${told}`;
}
