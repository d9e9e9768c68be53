import path from "node:path";
import { z } from "zod";
import { DEFAULT_RUN_ONCE_SETTINGS } from "./idempotency/settings";

/** The embedded default: a SQLite file in the checkout, so the demo needs no setup. */
const DEFAULT_DATABASE_URL = "file:./data/checkout.db";

const milliseconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .default(DEFAULT_DATABASE_URL)
    .refine((url) => /^(file:|postgres(ql)?:\/\/)/.test(url), {
      message: "DATABASE_URL must be a file: URL (SQLite) or a postgresql:// URL",
    }),
  IDEMPOTENCY_LEASE_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.leaseMs),
  IDEMPOTENCY_TTL_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.ttlMs),
  IDEMPOTENCY_WAIT_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.waitMs),
  IDEMPOTENCY_SWEEP_INTERVAL_MS: milliseconds(60_000),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** The fault-injection lab: on in development, off in production unless LAB_ENABLED=1. */
  LAB_ENABLED: z.enum(["0", "1", "true", "false"]).optional(),
  /** The benchmark's baseline: payments.charge's handler without the middleware (npm run bench). */
  BENCH_BASELINE: z.enum(["0", "1"]).default("0"),
});

export type Env = z.infer<typeof envSchema>;

export const env: Env = envSchema.parse(process.env);

export function labEnabled(config: Env = env): boolean {
  if (config.LAB_ENABLED === undefined) return config.NODE_ENV !== "production";
  return config.LAB_ENABLED === "1" || config.LAB_ENABLED === "true";
}

export type DatabaseProvider = "sqlite" | "postgresql";

export function databaseProvider(url: string): DatabaseProvider {
  return url.startsWith("file:") ? "sqlite" : "postgresql";
}

/**
 * A relative SQLite path is resolved against the working directory here, once:
 * the Prisma CLI would otherwise resolve it against the schema's folder and the
 * application against its own, and the two would open different files.
 */
export function resolveDatabaseUrl(url: string): string {
  if (!url.startsWith("file:")) return url;
  return `file:${path.resolve(url.slice("file:".length))}`;
}
