/**
 * The client's address as the hop in front of the app saw it: the last
 * X-Forwarded-For entry. `next start` writes the peer's address there when the
 * request has no such header, and a reverse proxy in front of it (nginx, a
 * load balancer) appends the address it saw. With no proxy in front, a client
 * that sends the header itself names its own address, and only the
 * per-session limit holds: deploy behind one.
 */
export function clientAddress(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || "unknown";
}
