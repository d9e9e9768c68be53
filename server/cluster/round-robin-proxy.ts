import http from "node:http";
import type { AddressInfo } from "node:net";
import { createProxyServer } from "http-proxy-3";
import { SERVED_BY_HEADER, VIA_ROUND_ROBIN_PROXY_HEADER } from "./proxy-headers";

/** How long an instance that refused a connection is left out of the rotation. */
const REFUSED_INSTANCE_REST_MS = 5_000;

export interface RoundRobinProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * One address in front of several instances, as a load balancer is: each
 * request of a route (method and path) goes to the next instance in turn, so
 * a retry lands on another instance than its first attempt did, however many
 * reads of other routes (a page's polling) come between. The proxying is
 * http-proxy-3's (a maintained rewrite of http-proxy); only the choice of
 * instance is ours.
 *
 * A failure is passed on as the client would see it without the proxy: an
 * instance that breaks its connection mid-reply (a crash, the lab's lost
 * reply) breaks the client's; one that refuses connections (it is down) gets
 * 502 and rests out of the rotation for a while, so the client's retry lands
 * on an instance that is up.
 */
export async function startRoundRobinProxy(opts: {
  targets: readonly string[];
  port: number;
  host?: string;
}): Promise<RoundRobinProxy> {
  const { targets } = opts;
  if (targets.length === 0) throw new Error("a proxy needs at least one instance behind it");
  const restingUntil = new Map<string, number>();
  const turns = new Map<string, number>();

  const nextTarget = (route: string): string => {
    const now = Date.now();
    let turn = turns.get(route) ?? 0;
    let target = targets[turn++ % targets.length]!;
    for (let tried = 1; tried < targets.length && (restingUntil.get(target) ?? 0) > now; tried++) {
      target = targets[turn++ % targets.length]!;
    }
    // Routes are few (a page's procedures); a flood of made-up paths must not grow the map for ever.
    if (turns.size >= 1_000) turns.clear();
    turns.set(route, turn);
    return target;
  };

  // A keep-alive agent: without one, http-proxy asks for "Connection: close", and
  // a client may then read a reply cut short by a reset as a whole one.
  const agent = new http.Agent({ keepAlive: true });
  const proxy = createProxyServer({ xfwd: true, agent });
  proxy.on("proxyReq", (upstreamRequest) => {
    // The instance learns that a proxy spreads its page's requests (the lab's stall guide says so).
    upstreamRequest.setHeader(VIA_ROUND_ROBIN_PROXY_HEADER, "1");
  });
  proxy.on("proxyRes", (upstream, _request, response) => {
    // A reply cut off upstream is cut off here too, with a reset: a body that merely
    // stopped could read, to a client, as a whole (if short) reply.
    upstream.on("close", () => {
      if (!upstream.complete) response.socket?.resetAndDestroy();
    });
  });
  const onError = (
    error: Error,
    target: string,
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ) => {
    const refused = (error as NodeJS.ErrnoException).code === "ECONNREFUSED";
    if (!refused || response.headersSent) {
      response.socket?.resetAndDestroy();
      return;
    }
    restingUntil.set(target, Date.now() + REFUSED_INSTANCE_REST_MS);
    response.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    response.end(`The instance at ${target} refused the connection: it is down. Retry.\n`);
    request.resume();
  };

  const server = http.createServer((request, response) => {
    const target = nextTarget(`${request.method} ${request.url?.split("?")[0]}`);
    response.setHeader(SERVED_BY_HEADER, target);
    proxy.web(request, response, { target }, (error) => onError(error, target, request, response));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host ?? "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://localhost:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        proxy.close();
        agent.destroy();
      }),
  };
}
