import { hostname } from "node:os";

/** How this server process is named in the account of runs: host and port, or host and pid. */
export function instanceName(port: number | undefined): string {
  return port === undefined ? `${hostname()} pid ${process.pid}` : `${hostname()}:${port}`;
}
