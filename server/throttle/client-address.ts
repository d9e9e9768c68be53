/** The last X-Forwarded-For entry: the peer as the hop in front of the app saw it. */
export function clientAddress(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || "unknown";
}
