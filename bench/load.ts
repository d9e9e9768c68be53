import autocannon from "autocannon";

export interface LoadResult {
  latenciesMs: number[];
  statuses: Record<number, number>;
  /** Requests that got no response: connection errors and timeouts. */
  errors: number;
}

export interface LoadOptions {
  url: string;
  path: string;
  cookie: string;
  connections: number;
  /** A number of requests, or a duration in seconds. */
  amount?: number;
  durationSeconds?: number;
  /** Requests per second over all connections, for a steady load. */
  overallRate?: number;
  /** The body of each POST; called once per request. Without it, GET. */
  body?: () => string;
}

/** One autocannon run, keeping every latency so runs merge and percentiles are exact. */
export function load(options: LoadOptions): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  const statuses: Record<number, number> = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${options.url}${options.path}`,
        connections: options.connections,
        ...(options.amount !== undefined ? { amount: options.amount } : {}),
        ...(options.durationSeconds !== undefined ? { duration: options.durationSeconds } : {}),
        ...(options.overallRate !== undefined ? { overallRate: options.overallRate } : {}),
        timeout: 30,
        method: options.body ? "POST" : "GET",
        headers: { "content-type": "application/json", cookie: options.cookie },
        requests: [{ setupRequest: (request) => ({ ...request, body: options.body?.() }) }],
      },
      // autocannon counts timeouts among its errors.
      (error, result) => (error ? reject(error) : resolve({ latenciesMs, statuses, errors: result.errors })),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      latenciesMs.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}

/** The nearest-rank percentile: the smallest value with at least p % of the values at or below it. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The instance's statements, round trips and run-once outcomes, from /api/metrics. */
export async function countersOf(url: string) {
  const lines = (await (await fetch(`${url}/api/metrics`)).text()).split("\n");
  const outcomes: Record<string, number> = {};
  let queries = Number.NaN;
  let roundTrips = Number.NaN;
  for (const line of lines) {
    const value = Number(line.split(" ").at(-1));
    if (line.startsWith("db_queries_total ")) queries = value;
    if (line.startsWith("db_round_trips_total ")) roundTrips = value;
    const outcome = /^idempotency_requests_total\{.*outcome="([a-z_]+)"\}/.exec(line)?.[1];
    if (outcome) outcomes[outcome] = (outcomes[outcome] ?? 0) + value;
  }
  return { queries, roundTrips, outcomes };
}

/** The runs' answers by status, with "no response" for the requests that got none. */
export function answers(results: LoadResult[]): Record<string, number> {
  const all: Record<string, number> = {};
  for (const result of results) {
    for (const [status, count] of Object.entries(result.statuses)) all[status] = (all[status] ?? 0) + count;
    if (result.errors > 0) all["no response"] = (all["no response"] ?? 0) + result.errors;
  }
  return all;
}
