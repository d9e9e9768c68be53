import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Scratch space for test databases and logs, ignored by git. */
export const TMP = path.join(ROOT, ".tmp");
