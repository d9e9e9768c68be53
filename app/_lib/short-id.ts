/** An id short enough for a phone, still telling ids apart: prefix and last four characters (`ord_…9kX2`). */
export function shortId(id: string): string {
  const prefixEnd = id.indexOf("_") + 1;
  if (id.length <= prefixEnd + 8) return id;
  return `${id.slice(0, prefixEnd)}…${id.slice(-4)}`;
}
