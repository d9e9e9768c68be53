import type { z } from "zod";
import type { brokenRuleSchema } from "../schemas";

/** A rule of the guide's "Pitfalls" that the lab's pitfall charge breaks. */
export type BrokenRule = z.infer<typeof brokenRuleSchema>;
