import { z } from "zod";
import { DEFAULT_RUN_ONCE_SETTINGS } from "run-once";
import { databaseUrl, milliseconds, parseEnvironment } from "service-kit/env";
import type { WebhookEndpoint } from "./webhooks/deliverer";
import {
  EVENT_RETENTION_DEFAULT_MS,
  PROVIDER_DEFAULT_DATABASE_URL,
  PROVIDER_DEFAULT_PORT,
  PROVIDER_DEFAULT_TIMEOUT_HOLD_MS,
  WEBHOOK_RETRY_WINDOW_DEFAULT_MS,
} from "./defaults";

/** The provider's settings, read from the environment it is started with. */
const providerEnvSchema = z.object({
  PROVIDER_PORT: z.coerce.number().int().min(0).max(65_535).default(PROVIDER_DEFAULT_PORT),
  PROVIDER_DATABASE_URL: databaseUrl(PROVIDER_DEFAULT_DATABASE_URL),
  /** The test lab's fault switches (POST /v1/test/faults/:order): on only where the shop's lab is. */
  LAB_ENABLED: z.enum(["0", "1", "true", "false"]).default("0"),
  PROVIDER_TIMEOUT_HOLD_MS: milliseconds(PROVIDER_DEFAULT_TIMEOUT_HOLD_MS),
  /** The merchant's webhook endpoint (`npm start` names the shop's); unset, no events are sent. */
  PROVIDER_WEBHOOK_URL: z.url().optional(),
  WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w{16,100}$/)
    .optional(),
  WEBHOOK_RETRY_WINDOW_MS: milliseconds(WEBHOOK_RETRY_WINDOW_DEFAULT_MS),
  WEBHOOK_RETRY_BASE_MS: milliseconds(5_000),
  EVENT_RETENTION_MS: milliseconds(EVENT_RETENTION_DEFAULT_MS),
  WEBHOOK_DUPLICATE_RATE: z.coerce.number().min(0).max(1).default(0.1),
  IDEMPOTENCY_LEASE_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.leaseMs),
  IDEMPOTENCY_TTL_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.ttlMs),
  IDEMPOTENCY_WAIT_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.waitMs),
});

type ProviderEnv = z.infer<typeof providerEnvSchema>;

/** The webhook endpoint the environment names, when it names both its URL and its secret. */
export function webhookEndpointOf(env: ProviderEnv): WebhookEndpoint | undefined {
  if (!env.PROVIDER_WEBHOOK_URL || !env.WEBHOOK_SECRET) return undefined;
  return {
    url: env.PROVIDER_WEBHOOK_URL,
    secret: env.WEBHOOK_SECRET,
    retryWindowMs: env.WEBHOOK_RETRY_WINDOW_MS,
    retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    duplicateRate: env.WEBHOOK_DUPLICATE_RATE,
  };
}

export const parseProviderEnv = (source: Record<string, string | undefined>): ProviderEnv =>
  parseEnvironment(providerEnvSchema, source, " for the payment provider");
