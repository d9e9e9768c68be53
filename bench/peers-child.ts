/**
 * The owner the peers report kills: calls one system with `key` and hangs
 * inside the side effect's transaction (the row written, not committed),
 * printing EXECUTING once there; the parent then SIGKILLs it.
 * Usage: node --import tsx bench/peers-child.ts <system> <database url> <key>
 */
import { createDb } from "../server/db/client";
import { createSystem } from "./peers-systems";
import type { SystemId } from "./peers-systems";

const [id, url, key] = process.argv.slice(2) as [SystemId, string, string];
const system = await createSystem(id, url, createDb(url));
await system.call(key, "hang", () => process.stdout.write("EXECUTING\n"));
