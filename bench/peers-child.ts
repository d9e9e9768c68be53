/**
 * The owner the peers bench kills: claims `key` with one system and hangs
 * inside the side effect's transaction (the row written, not committed).
 * Prints EXECUTING once it is there; the parent then SIGKILLs it.
 * Usage: tsx bench/peers-child.ts <system> <database url> <key>
 */
import { createDb, createSystem } from "./peers-systems";
import type { System } from "./peers-systems";

const [id, url, key] = process.argv.slice(2) as [System["id"], string, string];
const console_warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (!String(args[0]).includes("remaining time")) console_warn(...args);
};
const db = createDb(url);
const system = await createSystem(id, url, db);
await system.call(key, "hang", () => process.stdout.write("EXECUTING\n"));
