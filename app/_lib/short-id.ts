/**
 * An id short enough for a phone, still telling ids apart: its prefix and its
 * last four characters (`ord_…9kX2`). The whole id stays one click away.
 */
export function shortId(id: string): string {
  const prefixEnd = id.indexOf("_") + 1;
  if (id.length <= prefixEnd + 8) return id;
  return `${id.slice(0, prefixEnd)}…${id.slice(-4)}`;
}
