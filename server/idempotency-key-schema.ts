import { z } from "zod";
import { KEY_RULE } from "run-once/http";

/** An idempotency key in an input field: the core's format, so that the field and the header agree. */
export const idempotencyKeySchema = z.string().regex(KEY_RULE.pattern, { message: KEY_RULE.message });
