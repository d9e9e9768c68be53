/** The payment provider's process: prepares its database, then serves on PROVIDER_PORT. */
import { checkDatabase } from "service-kit/db/check-database";
import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { migrateDatabase } from "service-kit/db/migrate";
import { parseProviderEnv, webhookEndpointOf } from "./env";
import { startProvider } from "./server";

try {
  const env = parseProviderEnv(process.env);
  const databaseUrl = resolveDatabaseUrl(env.PROVIDER_DATABASE_URL);
  await checkDatabase(databaseUrl);
  await migrateDatabase(databaseUrl, { config: "provider/prisma.config.ts" });
  const provider = await startProvider({
    databaseUrl,
    port: env.PROVIDER_PORT,
    lab: env.LAB_ENABLED === "1" || env.LAB_ENABLED === "true",
    timeoutHoldMs: env.PROVIDER_TIMEOUT_HOLD_MS,
    webhooks: webhookEndpointOf(env),
    eventRetentionMs: env.EVENT_RETENTION_MS,
    settings: {
      leaseMs: env.IDEMPOTENCY_LEASE_MS,
      ttlMs: env.IDEMPOTENCY_TTL_MS,
      waitMs: env.IDEMPOTENCY_WAIT_MS,
    },
  });
  console.log(`Payment provider on ${provider.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void provider.close().then(() => process.exit(0)));
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
