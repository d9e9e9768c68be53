/** The owner the peers report kills: hangs in the side effect's transaction and prints EXECUTING. */
import { createDb } from "../server/db/client";
import { createSystem } from "./peers-systems";
import type { SystemId } from "./peers-systems";

const [id, url, key] = process.argv.slice(2) as [SystemId, string, string];
const system = await createSystem(id, url, createDb(url));
await system.call(key, "hang", () => process.stdout.write("EXECUTING\n"));
