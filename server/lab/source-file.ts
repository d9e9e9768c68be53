import { readFile } from "node:fs/promises";
import path from "node:path";
import { ENFORCING_LINES } from "./pitfalls/enforcing-lines";
import type { PitfallId } from "./pitfalls/enforcing-lines";

/** The files the lab's source page shows: those that enforce the guide's rules, and no other. */
const SHOWN_FILES: ReadonlySet<string> = new Set(Object.values(ENFORCING_LINES).map((line) => line.path));

export async function readShownSource(file: string): Promise<string[] | null> {
  if (!SHOWN_FILES.has(file)) return null;
  // Read from the checkout at run time (the lab runs from its source tree), so the build need not trace it.
  return (await readFile(path.join(/* turbopackIgnore: true */ process.cwd(), file), "utf8")).split("\n");
}

/** The 1-based line that enforces the pitfall's rule in its file's lines: its marker's one line. */
export function enforcingLineIn(lines: readonly string[], pitfall: PitfallId): number {
  const { path: file, marker } = ENFORCING_LINES[pitfall];
  const found = lines.flatMap((line, index) => (line.includes(marker) ? [index + 1] : []));
  if (found.length !== 1 || found[0] === undefined) {
    throw new Error(`${file} holds "${marker}" ${found.length} times; the lab's link needs it once`);
  }
  return found[0];
}
