export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/**
 * A plain-HTTP client of one server for one session (the Cookie header that
 * carries it: see signed-session.ts), as curl would be: tRPC's wire format
 * without tRPC's client, so tests see statuses and headers as sent.
 */
export function apiClient(baseUrl: string, cookie: string) {
  const send = async (path: string, init: RequestInit): Promise<ApiResponse> => {
    const response = await fetch(`${baseUrl}/api/trpc/${path}`, {
      ...init,
      headers: { cookie, ...(init.headers as Record<string, string> | undefined) },
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON: left to the test to judge.
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  return {
    post: (path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
      send(path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
        signal,
      }),
    get: (path: string, input?: unknown) =>
      send(input === undefined ? path : `${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
        method: "GET",
      }),
    /** Several queries in one batched GET, as httpBatchLink sends them. */
    batchGet: (calls: Array<[path: string, input: unknown]>) => {
      const inputs = Object.fromEntries(calls.map(([, input], index) => [index, input]));
      const paths = calls.map(([path]) => path).join(",");
      return send(`${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`, { method: "GET" });
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/** The data of a successful tRPC response. */
export function dataOf<T>(response: ApiResponse): T {
  return (response.json as { result: { data: T } }).result.data;
}

/** A tRPC call as the browser posts it, for a handler called in-process (no server listens). */
export function trpcPost(path: string, body: unknown, cookie: string, headers: Record<string, string> = {}) {
  return new Request(`http://shop.test/api/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, ...headers },
    body: JSON.stringify(body),
  });
}
