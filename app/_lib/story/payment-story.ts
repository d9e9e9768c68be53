import type { Order } from "../order";
import type {
  ProviderCall,
  RequestView,
  ServerAccount,
  WebhookDelivery,
  WebhookTry,
} from "../server-account";
import { plural } from "./plural";

/** What the story needs of a charge in the shop's ledger: its keys, the provider's request that made it, the run that recorded it. */
export type LedgerCharge = Pick<
  Order["charges"][number],
  "id" | "idempotencyKey" | "providerKey" | "providerRequestId" | "naive" | "recordedBy"
>;

/** Whether a reply reached the sender, was lost on the way, or was never sent (in flight, or its client had left). */
export type Reply = "received" | "lost" | "none";

/** One run of the server's account (a request, a completer run, a webhook's run), as the figure and every sentence tell it. */
export interface RequestRow {
  /** The one numbering of the request lane: #n in the figure and in every sentence. */
  n: number;
  record: RequestView;
  /** A client's request crosses the network; the completer and the webhook's runs are the server's own. */
  crossesNetwork: boolean;
  reply: Reply;
  /** The ledger's charges whose card this run's provider call charged: its charge marks, one each. */
  charges: string[];
  /** The ledger's charges this run recorded that another run's call made. */
  recorded: string[];
  work: "charge" | "record" | "decline" | "wait" | "ran" | "";
  caption: string;
  /** The later run that took over this one's key when its server stopped. */
  takenOverBy: number | null;
}

/** One call of the shop to the provider, as the provider lane and its sentence tell it. */
export interface ProviderRow {
  n: number;
  call: ProviderCall;
  reply: Reply;
  /** What the provider did under this call: the ledger's charge names it, or its reply (or a later one's) says so. */
  mark: "charge" | "decline" | null;
  caption: string;
}

/** One delivery of the provider's webhook (one try of an event), as the webhook lane and its sentence tell it. */
export interface WebhookRow {
  n: number;
  /** The provider's record of this try; null for a delivery its record does not show (or where it shows none). */
  try: WebhookTry | null;
  /** The shop's record of it; null where none was written (its server stopped first). */
  delivery: WebhookDelivery | null;
  /** What the lane shows of it, from the provider's record where there is one, else the shop's. */
  event: string;
  type: string;
  at: string;
  /** The shop's answer; null in flight, or none came. */
  status: number | null;
  decision: WebhookDelivery["decision"];
  durationMs: number | null;
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
  /** Ledger charges that no run on record charged or recorded. */
  unrecordedCharges: string[];
  /** Set when the order was charged more than once: why, from the records that made each charge. */
  overcharge: string | null;
  /** Set when the shared store has no row for a key that a request ran or was answered under. */
  keyNotInStore: string | null;
}

const DECLINED = 402;
const CLIENT_GONE = 499;
/** The decisions, the shop's and the provider's, that ran the call under its key. */
const RAN = new Set<string | null>(["executed", "taken_over", "expired"]);

export const timesInWords = (count: number) =>
  count === 1 ? "once" : count === 2 ? "twice" : `${count} times`;

/** Everything the order page says of its payment, computed once from the server's account and the ledger. */
export function paymentStory(account: ServerAccount, charges: readonly LedgerCharge[]): PaymentStory {
  const calls = providerRows(account.providerCalls, charges);
  const acts = actsOf(account.requests, calls, charges);
  const requests = account.requests.map((record, i) => requestRow(account.requests, i, acts.get(record.id)!));
  const drawn = new Set(requests.flatMap((row) => [...row.charges, ...row.recorded]));
  const known = { requests, charges };
  for (const row of calls) row.caption = providerCaption(row, calls, known);
  const webhookDeliveries = webhookRows(account, known);
  return {
    requests,
    whatHappened: whatHappened(known, webhookDeliveries),
    providerCalls: calls,
    providerSentence: providerSentence(calls),
    webhookDeliveries,
    webhookSentence: webhookSentence(webhookDeliveries),
    unrecordedCharges: charges.filter((charge) => !drawn.has(charge.id)).map((charge) => charge.id),
    overcharge: overchargeCause(requests, charges),
    keyNotInStore: keyNotInStore(account, requests),
  };
}

/** The calls that may have made a charge: the one the provider names, else those under its key whose reply never came. */
export function chargingCalls(charge: LedgerCharge, calls: readonly ProviderRow[]): ProviderRow[] {
  const { providerRequestId } = charge;
  const named = calls.filter((row) => providerRequestId !== null && row.call.requestId === providerRequestId);
  if (named.length > 0) return named;
  return calls.filter(
    (row) =>
      row.call.key === charge.providerKey &&
      row.call.purpose === "charge" &&
      (row.reply !== "received" || (providerRequestId === null && chargedByReply(row.call))),
  );
}

/** The call's own reply says it ran and charged. */
const chargedByReply = (call: ProviderCall) => RAN.has(call.decision) && call.status === 200;

/** What the lanes after the request lane are told of: its rows, and the ledger's charges. */
interface Known {
  requests: readonly RequestRow[];
  charges: readonly LedgerCharge[];
}

/** What a run did: the charges its calls made (its marks), and those it recorded that another run's calls made. */
interface Acts extends Pick<RequestRow, "charges" | "recorded"> {
  /** The calls that made the charges it charged, or recorded. */
  chargedBy: ProviderRow[];
  recordedFrom: ProviderRow[];
}

function actsOf(
  records: readonly RequestView[],
  calls: readonly ProviderRow[],
  charges: readonly LedgerCharge[],
) {
  const acts = new Map<string, Acts>(
    records.map((record) => [record.id, { charges: [], recorded: [], chargedBy: [], recordedFrom: [] }]),
  );
  for (const charge of charges) {
    const made = chargingCalls(charge, calls);
    const runs = new Set(made.map((row) => row.call.run));
    const charger = runs.size === 1 ? acts.get([...runs][0]!) : undefined;
    charger?.charges.push(charge.id);
    charger?.chargedBy.push(...made);
    const recorder = charge.recordedBy === null ? undefined : acts.get(charge.recordedBy);
    if (recorder && recorder !== charger) {
      recorder.recorded.push(charge.id);
      recorder.recordedFrom.push(...made);
    }
  }
  return acts;
}

/** Where a key stands in progress on the server: its lease, and the request that holds it (its number), if recorded. */
export function keyInProgress(account: ServerAccount, rows: readonly RequestRow[], key: string) {
  const lifecycle = account.keys.find((k) => k.key === key);
  if (lifecycle?.state !== "in_progress") return null;
  const holder = rows.findLast((row) => row.record.key === key && holdsKey(row.record));
  return { leaseExpiresAt: lifecycle.lockedUntil, request: holder?.n ?? null };
}

/** A key the shared store holds no row of, though a request ran or was answered under it: kept in one instance's memory. */
function keyNotInStore(account: ServerAccount, rows: readonly RequestRow[]): string | null {
  const latest = rows.filter((row) => row.record.sentBy !== "naive client").at(-1)?.record.key;
  const state = account.keys.find((key) => key.key === latest)?.state;
  if (latest === undefined || (state !== undefined && state !== "absent")) return null;
  const under = rows.filter((row) => row.record.key === latest);
  const answered = under.find(
    (row) => row.record.decision === "replayed" || row.record.decision === "coalesced",
  );
  const ran = under.find((row) => RAN.has(row.record.decision) && row.record.status === 200);
  if (answered) {
    return `Not in the shared store, yet #${answered.n} was answered from a stored result: the instance that answered kept the key in its own memory, where no other instance sees it.`;
  }
  return ran
    ? `Not in the shared store, though #${ran.n} ran under it: its instance kept the key in its own memory, where no other instance sees it.`
    : null;
}

/** The run still holds its key's execution: in flight, or its client gone while it went on. */
export function holdsKey(record: RequestView): boolean {
  return record.decision === null || (record.decision === "abandoned" && record.generation !== null);
}

/** The run took its key over from a dead owner: answered so, or claimed so before it failed or its client left. */
function tookOver(record: RequestView): boolean {
  return (
    record.decision === "taken_over" ||
    (record.decision !== "coalesced" && record.keyState === "in_progress" && record.generation !== null)
  );
}

/** A run the server started itself (the completer, the catch-up), or the provider's webhook: no client waits for its reply. */
const noClient = (record: RequestView) =>
  record.sentBy === "completer" || record.sentBy === "webhook" || record.sentBy === "catch-up";

function replyOf(record: RequestView): Reply {
  if (noClient(record) || record.decision === null) return "none";
  if (record.decision === "abandoned" || record.status === CLIENT_GONE) return "none";
  return record.replyLost ? "lost" : "received";
}

function requestRow(records: readonly RequestView[], i: number, acts: Acts): RequestRow {
  const record = records[i]!;
  const takenOverBy = holdsKey(record)
    ? records.findIndex((r, j) => j > i && r.key === record.key && tookOver(r)) + 1 || null
    : null;
  const waited = record.decision === "coalesced" || record.decision === "conflict";
  const declined =
    record.status === DECLINED && (RAN.has(record.decision) || record.sentBy === "naive client");
  const work =
    acts.charges.length > 0
      ? "charge"
      : acts.recorded.length > 0
        ? "record"
        : declined
          ? "decline"
          : waited || (record.decision === "abandoned" && record.generation === null)
            ? "wait"
            : noClient(record)
              ? "ran"
              : "";
  const { charges, recorded } = acts;
  const row = {
    n: i + 1,
    record,
    crossesNetwork: !noClient(record),
    reply: replyOf(record),
    charges,
    recorded,
  };
  const lost = record.replyLost && !noClient(record) ? ", and its reply was lost" : "";
  return { ...row, work, takenOverBy, caption: caption(records, { ...row, takenOverBy }, acts) + lost };
}

/** The run whose execution a duplicate waited for, by its number: the one that ran the key's same generation. */
function executionOf(records: readonly RequestView[], i: number): string {
  const record = records[i]!;
  const j = records.findIndex(
    (r, k) => k !== i && r.key === record.key && r.generation === record.generation && !waitedFor(r),
  );
  return record.generation === null || j === -1 ? "the execution in flight" : `#${j + 1}`;
}

const waitedFor = (record: RequestView) =>
  record.decision === "coalesced" || record.decision === "conflict" || record.decision === "replayed";

/** "call 1", "call 1 or 3": calls by their lane's numbers. */
function callsNamed(rows: readonly ProviderRow[], or = "or"): string {
  const numbers = [...new Set(rows.map((row) => row.n))];
  const last = numbers.pop();
  return numbers.length === 0 ? `call ${last}` : `calls ${numbers.join(", ")} ${or} ${last}`;
}

/** What a run came to, by its acts and outcome: charged the card, recorded another's charge, declined, failed and stored, or nothing. */
function ranTo(record: RequestView, acts: Acts): string {
  const status = record.status ?? 0;
  const charged = acts.charges.length;
  if (charged > 0) return charged === 1 ? "charged the card" : `charged the card ${timesInWords(charged)}`;
  if (acts.recorded.length > 0) {
    const made =
      acts.recordedFrom.length > 0 ? callsNamed(acts.recordedFrom) : "no call of the shop's on record";
    return `recorded the charge that ${made} made`;
  }
  if (status === DECLINED) return "the card was declined; the decline is stored as final";
  // Only a final answer should be stored; the lab's "cache errors" pitfall stores any failure.
  if (status >= 400) return `failed (HTTP ${status}), and the failure was stored as the key's outcome`;
  return "no charge recorded";
}

/** The run's caption: its decision and its outcome together, never the decision alone. */
function caption(
  records: readonly RequestView[],
  row: Pick<RequestRow, "n" | "record" | "takenOverBy">,
  acts: Acts,
): string {
  const { record, takenOverBy } = row;
  const status = record.status ?? 0;
  const charged = acts.charges.length > 0;
  const done = ranTo(record, acts);
  const stopped = takenOverBy === null ? "" : `; its server stopped, and #${takenOverBy} took its key over`;
  const over = tookOver(record) && record.decision !== "taken_over" ? "took over a dead owner's key, " : "";
  if (record.sentBy === "naive client") {
    if (record.decision === null) return "in flight, without run-once";
    if (charged) return `ran without run-once: ${done}`;
    return status === DECLINED
      ? "ran without run-once: the card was declined"
      : `ran without run-once: failed (HTTP ${status})`;
  }
  switch (record.decision) {
    case null:
      if (takenOverBy === null)
        return charged ? `in flight: ${done}; no answer yet` : "in flight: no answer yet";
      return `${charged ? `${done} (${callsNamed(acts.chargedBy)}), then ` : ""}got no answer${stopped}`;
    case "executed":
      return `executed: ${done}`;
    case "taken_over": {
      // A dead owner that is not on the page: its server stopped before writing its account of it.
      const ownerOnRecord = records.slice(0, row.n - 1).some((r) => r.key === record.key && holdsKey(r));
      const owner = ownerOnRecord
        ? "a dead owner's key"
        : "the key of a dead owner its server never wrote an account of";
      return acts.recorded.length > 0 && !charged
        ? `took over ${owner} and ${done}`
        : `took over ${owner} and ran: ${done}`;
    }
    case "expired":
      return `found the key expired and ran again: ${done}`;
    case "replayed":
      if (status === DECLINED) return "replayed the stored decline: charged nothing";
      if (status >= 400) return `replayed the stored failure (HTTP ${status}): charged nothing`;
      return "replayed the stored result: charged nothing";
    case "coalesced":
      return `waited for ${executionOf(records, row.n - 1)} and shared its result`;
    case "conflict":
      return "waited past the wait bound, and was told 409: retry later";
    case "mismatch":
      return "was refused with 422: the key holds another body";
    case "refused":
      return `was refused (HTTP ${status}) before any write; the key was released`;
    case "released":
      return charged || acts.recorded.length > 0
        ? `${over}${done}, then failed (HTTP ${status}) before completing its key, and released it`
        : `${over}failed (HTTP ${status}) before its key was completed; the key was released`;
    case "lease_lost":
      return "lost its lease; nothing of it was committed";
    case "abandoned":
      if (record.generation === null) return "waited; its client had left";
      return `${over}was left by its client; its execution went on${charged || acts.recorded.length > 0 ? ` and ${done}` : ""}${stopped}`;
  }
}

/** How "What happened" names request #n; a webhook's run by the delivery that ran it. */
function nameOf(row: RequestRow, deliveries: readonly WebhookRow[]): string {
  if (row.record.sentBy === "completer") return `#${row.n} (the background completer)`;
  if (row.record.sentBy === "webhook" || row.record.sentBy === "catch-up") {
    const delivery = deliveries.find((d) => d.recordedAs === row.n);
    const road = row.record.sentBy === "webhook" ? "the provider's webhook" : "the catch-up";
    return `#${row.n} (${road}${delivery ? `, ${laneName(delivery).toLowerCase()}` : ""})`;
  }
  return row.record.sentBy === "naive client" ? `#${row.n} (naive, a key of its own)` : `#${row.n}`;
}

/** The most requests told one by one; the rest are counted. */
const TOLD = 6;

/** What happened, a sentence a request: the same numbering and captions as the figure. */
function whatHappened({ requests: rows, charges }: Known, deliveries: readonly WebhookRow[]): string {
  const keys = new Set(rows.map((row) => row.record.key)).size;
  const sent = rows.filter((row) => row.crossesNetwork).length;
  const runsOf = (sentBy: string) => rows.filter((row) => row.record.sentBy === sentBy).length;
  const [runs, webhooks, catchUps] = [runsOf("completer"), runsOf("webhook"), runsOf("catch-up")];
  const requests =
    (sent === 0
      ? "No request reached the server"
      : `${plural(sent, "request")} reached the server${keys > 1 ? ` under ${keys} keys` : ""}`) +
    (runs > 0 ? `, and the background completer ran ${timesInWords(runs)}` : "") +
    (webhooks > 0 ? `, and the provider's webhook recorded the payment` : "") +
    (catchUps > 0 ? `, and the catch-up recorded the payment from the provider's events` : "");
  const told = rows.slice(0, TOLD).map((row) => ` ${nameOf(row, deliveries)} ${row.caption}.`);
  const rest = rows.length - told.length;
  return `${requests}; ${plural(charges.length, "charge")}.${told.join("")}${rest > 0 ? ` And ${rest} more.` : ""}`;
}

/** Why an order holds more than one charge, told from the runs that made them. */
function overchargeCause(rows: readonly RequestRow[], charges: readonly LedgerCharge[]): string | null {
  if (charges.length < 2) return null;
  const makers = rows.filter((row) => row.charges.length > 0);
  const named = makers.map((row) => `#${row.n}`).join(" and ");
  const keys = new Set(charges.map((charge) => charge.idempotencyKey)).size;
  if (keys > 1) return `each charge carries a key of its own (${named}), so each looked like a new payment`;
  const released = makers.find((row) => row.record.decision === "released");
  if (released) {
    return `#${released.n} charged the card, then released its key before completing it, so a retry under the same key ran again`;
  }
  const instances = new Set(makers.map((row) => row.record.instance)).size;
  if (makers.length > 1 && makers.every((row) => row.record.keyState === "absent")) {
    return instances > 1
      ? `${named} each found the key absent on their own instance: the instances keep keys apart, in memory`
      : `${named} each found the key absent`;
  }
  return makers.length > 0 ? `the charges were made by ${named}` : "no recorded request made them";
}

/** The provider lane's rows: a charge mark on each ledger charge's one call, or where a reply says it charged. */
function providerRows(calls: readonly ProviderCall[], charges: readonly LedgerCharge[]): ProviderRow[] {
  const rows = calls.map((call, i): ProviderRow => {
    const reply: Reply = call.noReply ? "lost" : call.status === null ? "none" : "received";
    const ran = reply === "received" && RAN.has(call.decision);
    const mark = !ran ? null : call.status === DECLINED ? "decline" : call.status === 200 ? "charge" : null;
    return { n: i + 1, call, reply, mark, caption: "" };
  });
  for (const charge of charges) {
    const made = chargingCalls(charge, rows);
    if (made.length === 1) made[0]!.mark = "charge";
  }
  // A decline replayed under a key no answered call ran: the provider declined under an earlier call whose reply never came.
  for (const row of rows) {
    const { decision, status, key } = row.call;
    if (
      row.reply !== "received" ||
      status !== DECLINED ||
      (decision !== "replayed" && decision !== "coalesced")
    )
      continue;
    if (rows.some((r) => r.call.key === key && r.mark !== null)) continue;
    const maker = rows.find((r) => r.n < row.n && r.call.key === key && r.reply !== "received");
    if (maker) maker.mark = "decline";
  }
  return rows;
}

function providerCaption(row: ProviderRow, rows: readonly ProviderRow[], { requests, charges }: Known) {
  const { call } = row;
  // In flight on record, but its run's server stopped: no reply came, or none was written before it stopped.
  const stopped =
    row.reply === "none" && requests.some((r) => r.record.id === call.run && r.takenOverBy !== null);
  const why = stopped
    ? "its server stopped before a reply was on record"
    : "its reply never reached the shop";
  if (row.mark !== null) {
    const did = row.mark === "charge" ? "charged the card" : "declined the card";
    if (row.reply !== "lost" && !stopped) return did;
    const later = rows.find((r) => r.n > row.n && r.call.key === call.key && r.reply === "received");
    return `${did}; ${why}${later ? ` (call ${later.n}'s answer shows it)` : ""}`;
  }
  if (row.reply === "lost" || stopped) {
    const couldHave = charges.map((charge) => chargingCalls(charge, rows)).find((made) => made.includes(row));
    return couldHave
      ? `no reply reached the shop (${why}); one of ${callsNamed(couldHave, "and")} made the charge, and the records cannot tell which`
      : `no reply reached the shop (${stopped ? why : "lost, or timed out"})`;
  }
  if (row.reply === "none") return "in flight: no reply yet";
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

/** A delivery reaches the shop a moment after the provider sends it, on the same clock: a record earlier than its try is another's. */
const SEND_SKEW_MS = 50;

/** Each provider try with the shop's record of it; deliveries sent by hand are drawn too, in time order. */
export function pairTries(account: ServerAccount): Array<Pick<WebhookRow, "try" | "delivery">> {
  const deliveries = account.webhookDeliveries;
  if (account.webhookTries === null) return deliveries.map((delivery) => ({ try: null, delivery }));
  const pairs = account.webhookTries.map((t) => ({ try: t, delivery: null as WebhookDelivery | null }));
  const unpaired: WebhookDelivery[] = [];
  for (const delivery of deliveries) {
    // Only the webhook's deliveries are the provider's tries; the catch-up's listings are the shop's own.
    if (delivery.road === "catch-up") {
      unpaired.push(delivery);
      continue;
    }
    const came = Date.parse(delivery.at) + SEND_SKEW_MS;
    const pair = pairs.findLast((p) => p.try.event === delivery.event && Date.parse(p.try.at) <= came);
    if (pair && pair.delivery === null) pair.delivery = delivery;
    else unpaired.push(delivery);
  }
  const at = (p: Pick<WebhookRow, "try" | "delivery">) => Date.parse(p.try?.at ?? p.delivery!.at);
  return [...pairs, ...unpaired.map((delivery) => ({ try: null, delivery }))].sort((a, b) => at(a) - at(b));
}

/** How the lane and the sentences name an event's arrival: a delivery of the webhook, or a catch-up. */
export const laneName = (row: Pick<WebhookRow, "n" | "delivery">) =>
  `${row.delivery?.road === "catch-up" ? "Catch-up" : "Delivery"} ${row.n}`;

function webhookRows(account: ServerAccount, known: Known): WebhookRow[] {
  const rows = pairTries(account).map((pair, i): WebhookRow => {
    const { delivery } = pair;
    const decision = delivery?.decision ?? null;
    const shared = delivery?.outcome === "shared";
    const work = decision === null ? "" : shared ? "wait" : (WEBHOOK_WORK[decision] ?? "");
    const run = delivery && known.requests.find((row) => row.record.delivery === delivery.id);
    const told = (pair.try ?? delivery)!;
    return {
      n: i + 1,
      ...pair,
      event: told.event,
      type: told.type,
      at: told.at,
      status: pair.try ? pair.try.status : delivery!.status,
      decision,
      durationMs: told.durationMs,
      work,
      recordedAs: run?.n ?? null,
      caption: "",
    };
  });
  return rows.map((row) => ({ ...row, caption: webhookCaption(row, rows, known) }));
}

/** The run under the payment's key that had recorded it, or held its key, when a delivery came. */
function holderAt(paymentKey: string | null, at: string, { requests, charges }: Known) {
  const recorder = charges.find((charge) => charge.idempotencyKey === paymentKey)?.recordedBy;
  const before = requests.filter(
    (row) => row.record.key === paymentKey && Date.parse(row.record.at) <= Date.parse(at),
  );
  return (
    before.find((row) => row.record.id === recorder) ??
    before.findLast((row) => RAN.has(row.record.decision) || holdsKey(row.record))
  );
}

function webhookCaption(row: WebhookRow, rows: readonly WebhookRow[], known: Known): string {
  const { delivery } = row;
  const retried = rows.some((r) => r.n > row.n && r.event === row.event)
    ? "; the provider delivered it again"
    : "; the provider delivers it again";
  if (delivery === null) {
    const t = row.try!;
    if (t.status !== null) return `answered HTTP ${t.status}; the shop wrote no account of it`;
    if (t.error !== null) return `got no answer (${t.error}): the shop's server never answered${retried}`;
    return "in flight";
  }
  const holder = holderAt(delivery.paymentKey, delivery.at, known);
  const by = holder && holder.n !== row.recordedAs ? ` by #${holder.n}` : "";
  // The earlier delivery whose handling the stored answer is: it ran under the event's key, or waited and shared.
  const ranEarlier = rows.find(
    (r) =>
      r.n < row.n &&
      r.event === delivery.event &&
      (r.work === "ran" || r.delivery?.outcome === "shared") &&
      (r.delivery?.status === 200 || r.delivery?.road === "catch-up"),
  );
  const earlier = ranEarlier ? laneName(ranEarlier).toLowerCase() : "an earlier delivery";
  const what = delivery.tells === "decline" ? "the decline" : "the payment";
  if (delivery.decision === null) {
    return row.try?.error
      ? `reached ${delivery.instance}, which never answered (${row.try.error}): its server stopped${retried}`
      : "in flight: being handled";
  }
  switch (delivery.outcome) {
    case "not a payment of this shop's":
      return "told of a payment the shop did not make (the lab's own charge): answered 200, recorded nothing";
    case "ignored":
      return `told of ${delivery.type}, which the shop does not handle: answered 200, recorded nothing`;
  }
  switch (delivery.decision) {
    case "executed":
    case "taken_over":
    case "expired":
      if (delivery.outcome === "recorded") {
        return row.recordedAs === null
          ? `ran under the event's id and recorded ${what}`
          : `ran under the event's id and recorded ${what}, as #${row.recordedAs}`;
      }
      if (delivery.outcome === "shared") {
        return `waited for ${holder ? `#${holder.n}` : "the run"} holding the payment's key, and shared its record: recorded nothing itself`;
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

/** The webhook lane in words, numbered as its figure: "2 deliveries and 1 catch-up of 1 event. Delivery 1 …". */
function webhookSentence(rows: readonly WebhookRow[]): string {
  if (rows.length === 0) return "The provider's webhook has not told the shop of this payment yet.";
  const events = new Set(rows.map((row) => row.event)).size;
  const catchUps = rows.filter((row) => row.delivery?.road === "catch-up").length;
  const told = rows.map((row) => ` ${laneName(row)} (${row.type}) ${row.caption}.`).join("");
  const counted = `${plural(rows.length - catchUps, "delivery", "deliveries")}${catchUps ? ` and ${plural(catchUps, "catch-up")}` : ""}`;
  return `${counted} of ${plural(events, "event")}.${told}`;
}
