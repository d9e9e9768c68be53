import { createHash } from "node:crypto";
import { createMiddleware } from "hono/factory";
import type { BodyEnv } from "./body";
import { requestError } from "./errors";

const TEST_KEY = /^(sk|pk)_test_([A-Za-z0-9_]{4,100})$/;

/** The caller from its test key, as Stripe takes it (Bearer, or Basic's user); the key is never stored. */
export function callerOf(authorization: string | undefined) {
  const [scheme, credentials = ""] = (authorization ?? "").split(" ", 2);
  const key =
    scheme === "Bearer"
      ? credentials
      : scheme === "Basic"
        ? Buffer.from(credentials, "base64").toString("utf8").replace(/:$/, "")
        : "";
  const [, kind, name] = TEST_KEY.exec(key) ?? [];
  if (!name) return null;
  return {
    account: `acct_${createHash("sha256").update(name).digest("hex").slice(0, 16)}`,
    publishable: kind === "pk",
  };
}

/** Only creating a PaymentMethod is open to a publishable key; everything else needs the secret one. */
export function refusePublishable(publishable: boolean) {
  if (publishable) {
    throw requestError(
      401,
      "secret_key_required",
      "This API call cannot be made with a publishable API key. Please use a secret API key.",
    );
  }
}

/** Routes a browser's publishable key may not reach. */
export const secretKeyOnly = createMiddleware<BodyEnv>(async (c, next) => {
  refusePublishable(c.get("publishable"));
  await next();
});
