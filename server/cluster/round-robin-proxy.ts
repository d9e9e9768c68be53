import http from "node:http";
import type { AddressInfo } from "node:net";
import { createProxyServer } from "http-proxy-3";
import { SERVED_BY_HEADER, VIA_ROUND_ROBIN_PROXY_HEADER } from "./proxy-headers";

/** How long an instance that refused a connection is left out of the rotation. */
const REFUSED_INSTANCE_REST_MS = 5_000;

/** A load balancer: each route's requests take the instances in turn, so a retry lands elsewhere. */
export async function startRoundRobinProxy(opts: {
  targets: readonly string[];
  port: number;
  host?: string;
}) {
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

  // Keep-alive: else http-proxy sends "Connection: close" and a reset reply may read as whole.
  const agent = new http.Agent({ keepAlive: true });
  const proxy = createProxyServer({ xfwd: true, agent });
  proxy.on("proxyReq", (upstreamRequest) => {
    // The instance learns that a proxy spreads its page's requests (the lab's stall guide says so).
    upstreamRequest.setHeader(VIA_ROUND_ROBIN_PROXY_HEADER, "1");
  });
  proxy.on("proxyRes", (upstream, _request, response) => {
    // A reply cut off upstream is reset here too, never read as a whole short one.
    upstream.on("close", () => {
      if (!upstream.complete) response.socket?.resetAndDestroy();
    });
  });

  const server = http.createServer((request, response) => {
    const target = nextTarget(`${request.method} ${request.url?.split("?")[0]}`);
    response.setHeader(SERVED_BY_HEADER, target);
    proxy.web(request, response, { target }, (error) => {
      const refused = (error as NodeJS.ErrnoException).code === "ECONNREFUSED";
      if (!refused || response.headersSent) {
        response.socket?.resetAndDestroy();
        return;
      }
      restingUntil.set(target, Date.now() + REFUSED_INSTANCE_REST_MS);
      response.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
      response.end(`The instance at ${target} refused the connection: it is down. Retry.\n`);
      request.resume();
    });
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
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        proxy.close();
        agent.destroy();
      }),
  };
}
