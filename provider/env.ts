import { z } from "zod";
import { DEFAULT_RUN_ONCE_SETTINGS } from "run-once";
import {
  PROVIDER_DEFAULT_DATABASE_URL,
  PROVIDER_DEFAULT_PORT,
  PROVIDER_DEFAULT_TIMEOUT_HOLD_MS,
} from "./defaults";

const milliseconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** The provider's settings, read from the environment it is started with. */
const providerEnvSchema = z.object({
  PROVIDER_PORT: z.coerce.number().int().min(0).max(65_535).default(PROVIDER_DEFAULT_PORT),
  PROVIDER_DATABASE_URL: z
    .preprocess(
      (value) => (value === "" ? undefined : value),
      z.string().default(PROVIDER_DEFAULT_DATABASE_URL),
    )
    .refine((url) => /^(file:|postgres(ql)?:\/\/)/.test(url), {
      message: "must be a file: URL (SQLite) or a postgresql:// URL",
    }),
  /** The test lab's fault switches (POST /v1/test/faults/:order): on only where the shop's lab is. */
  LAB_ENABLED: z.enum(["0", "1", "true", "false"]).default("0"),
  /** How long a "timeout" fault holds a request: past the shop's per-attempt timeout. */
  PROVIDER_TIMEOUT_HOLD_MS: milliseconds(PROVIDER_DEFAULT_TIMEOUT_HOLD_MS),
  IDEMPOTENCY_LEASE_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.leaseMs),
  IDEMPOTENCY_TTL_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.ttlMs),
  IDEMPOTENCY_WAIT_MS: milliseconds(DEFAULT_RUN_ONCE_SETTINGS.waitMs),
});

type ProviderEnv = z.infer<typeof providerEnvSchema>;

export function parseProviderEnv(source: Record<string, string | undefined>): ProviderEnv {
  const parsed = providerEnvSchema.safeParse(source);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  throw new Error(`Invalid environment for the payment provider: ${problems.join("; ")}.`);
}
