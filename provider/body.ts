import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import qs from "qs";
import type { z } from "zod";
import { invalidRequest, requestError } from "./errors";

/** A card, a charge or the lab's switches fit in far less; anything bigger is refused before it is read. */
export const BODY_LIMIT_BYTES = 16 * 1024;

export type BodyEnv = {
  Variables: { account: string; publishable: boolean; body: unknown; requestId: string };
};

/** Refuses a body over the limit before anything reads it: by its Content-Length, or while it streams in. */
export const limitBody = bodyLimit({
  maxSize: BODY_LIMIT_BYTES,
  onError: () => {
    throw requestError(413, "request_too_large", `The body is over ${BODY_LIMIT_BYTES} bytes.`);
  },
});

/** Reads a POST body as Stripe's clients send it (form-encoded, `metadata[order]=...`), or as JSON. */
export const readBody = createMiddleware<BodyEnv>(async (c, next) => {
  const type = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") c.set("body", qs.parse(await c.req.text()));
  else if (type === "application/json") c.set("body", parseJson(await c.req.text()));
  else {
    throw requestError(
      415,
      "content_type_invalid",
      "Send the body as application/x-www-form-urlencoded, as Stripe's clients do, or as application/json.",
    );
  }
  await next();
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest("body_invalid", "The body is not valid JSON.");
  }
}

/** A body that does not validate is refused before anything is done, so nothing is stored under its key. */
export function validBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
  throw invalidRequest("parameter_invalid", `Invalid request: ${problems.join("; ")}.`);
}
