import { z } from "zod";
import { DEFAULT_RUN_ONCE_SETTINGS } from "run-once";
import { databaseUrl, milliseconds, parseEnvironment, unsetIfEmpty } from "service-kit/env";
import { PROVIDER_DEFAULT_PORT, WEBHOOK_RETRY_WINDOW_DEFAULT_MS } from "../provider/defaults";

/** The embedded default: a SQLite file in the checkout, so the demo needs no setup. */
const DEFAULT_DATABASE_URL = "file:./data/checkout.db";

const envSchema = z.object({
  DATABASE_URL: databaseUrl(DEFAULT_DATABASE_URL),
  IDEMPOTENCY_LEASE_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.leaseMs),
  IDEMPOTENCY_TTL_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.ttlMs),
  IDEMPOTENCY_WAIT_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.waitMs),
  IDEMPOTENCY_SWEEP_INTERVAL_MS: milliseconds(60_000),
  /** Keys the stored request fingerprints (HMAC-SHA-256); without it, a key generated once and kept in the database. */
  IDEMPOTENCY_FINGERPRINT_SECRET: z.string().min(16).optional(),
  /** The payment provider (provider/main.ts, started by `npm start` unless this names one already running). */
  PAYMENT_PROVIDER_URL: z.url().default(`http://127.0.0.1:${PROVIDER_DEFAULT_PORT}`),
  /** The shop's test-mode secret key at the provider: its account there. */
  PAYMENT_PROVIDER_KEY: z
    .string()
    .regex(/^sk_test_\w{4,100}$/)
    .default("sk_test_idempotent_checkout"),
  /** The signing secret of the provider's webhook endpoint (whsec_...; `npm start` makes one); unset, the endpoint answers 404. */
  WEBHOOK_SECRET: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^whsec_\w{16,100}$/)
      .optional(),
  ),
  /** How long the provider retries an undelivered event: three days at Stripe. */
  WEBHOOK_RETRY_WINDOW_MS: milliseconds(WEBHOOK_RETRY_WINDOW_DEFAULT_MS),
  /** How long a webhook event's run-once key is kept: it must outlive the retry window and the look-back (checked at start). */
  WEBHOOK_KEY_TTL_MS: milliseconds(7 * 24 * 60 * 60 * 1000),
  /** How often the catch-up lists the provider's events its webhook has not delivered for as long (and once at start). */
  WEBHOOK_CATCH_UP_INTERVAL_MS: milliseconds(60_000),
  /** How far back the catch-up lists, whatever its cursor says: the provider's retry window by default. */
  WEBHOOK_CATCH_UP_LOOKBACK_MS: milliseconds(WEBHOOK_RETRY_WINDOW_DEFAULT_MS),
  /** What the browser calls to create payment methods (Stripe.js calls api.stripe.com); unset, PAYMENT_PROVIDER_URL. */
  PAYMENT_PROVIDER_PUBLIC_URL: z.url().optional(),
  /** The shop's publishable key at the provider: the browser sends it with the card. */
  PAYMENT_PROVIDER_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_test_\w{4,100}$/)
    .default("pk_test_idempotent_checkout"),
  /** How often the background completer looks for payments left between the provider's charge and the record. */
  PAYMENT_COMPLETER_INTERVAL_MS: milliseconds(5_000),
  /** Past this, a stranded payment is only looked up: the provider may have forgotten its key. */
  PAYMENT_REDRIVE_CUTOFF_MS: milliseconds(12 * 60 * 60 * 1000),
  /** The port `next start` listens on: names this instance in the server's account of runs. */
  PORT: z.coerce.number().int().positive().optional(),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** The fault-injection lab: on in development, off in production unless LAB_ENABLED=1. */
  LAB_ENABLED: z.enum(["0", "1", "true", "false"]).optional(),
  /** The benchmark's baseline: payments.charge's handler without the middleware (npm run bench). */
  BENCH_BASELINE: z.enum(["0", "1"]).default("0"),
  /** Signs session ids; unset, a key generated once and kept in the database (see server-secret.ts). */
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Mutations one session, and one client address, may send per window (see server/throttle/). */
  RATE_LIMIT_SESSION_MUTATIONS: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_ADDRESS_MUTATIONS: z.coerce.number().int().positive().default(300),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /** Counts the mutations in this Redis, shared by every instance; unset, each instance counts in its memory. */
  REDIS_URL: z.preprocess(unsetIfEmpty, z.url({ protocol: /^rediss?$/ }).optional()),
  /** Starts this app's keys in Redis, so that several deployments (or tests) can share one server. */
  REDIS_KEY_PREFIX: z.string().min(1).default("idempotent-checkout"),
});

type Env = z.infer<typeof envSchema>;

/** The guide's TTL rule: an event's key must outlive its redelivery and its catch-up's look-back; null when kept. */
export function webhookRetentionProblem(
  config: Pick<Env, "WEBHOOK_KEY_TTL_MS" | "WEBHOOK_RETRY_WINDOW_MS" | "WEBHOOK_CATCH_UP_LOOKBACK_MS">,
) {
  const outlived = (["WEBHOOK_RETRY_WINDOW_MS", "WEBHOOK_CATCH_UP_LOOKBACK_MS"] as const).find(
    (name) => config.WEBHOOK_KEY_TTL_MS < config[name],
  );
  if (!outlived) return null;
  return (
    `WEBHOOK_KEY_TTL_MS (${config.WEBHOOK_KEY_TTL_MS} ms) is shorter than ${outlived} (${config[outlived]} ms): ` +
    `an event brought again after its key expired (redelivered or caught up) would be handled again.`
  );
}

function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = parseEnvironment(envSchema, source);
  const problem = webhookRetentionProblem(parsed);
  if (problem) throw new Error(problem);
  return parsed;
}

export const env: Env = parseEnv(process.env);

export function labEnabled(config: Env = env): boolean {
  if (config.LAB_ENABLED === undefined) return config.NODE_ENV !== "production";
  return config.LAB_ENABLED === "1" || config.LAB_ENABLED === "true";
}
