import { seedCatalog } from "../catalog/seed-catalog";
import { DEFAULT_RUN_ONCE_SETTINGS } from "../idempotency/settings";
import type { RunOnceSettings } from "../idempotency/settings";
import type { Ledger } from "../ledger/ledger";
import { createServices } from "../services";
import type { AppServices } from "../services";
import { newSessionId } from "../session";
import { createContextInner } from "../trpc/context";
import { createCaller } from "../trpc/routers/_app";
import { createTestDatabase } from "./test-database";
import type { TestDatabase } from "./test-database";

export interface TestApp {
  services: AppServices;
  database: TestDatabase;
  /** A caller for one session (a new one unless given), as a browser tab would be. */
  caller(sessionId?: string, opts?: { signal?: AbortSignal }): ReturnType<typeof createCaller>;
  close(): Promise<void>;
}

/** The application on a fresh SQLite database, called in-process through tRPC's createCaller. */
export async function createTestApp(
  opts: {
    settings?: Partial<RunOnceSettings>;
    ledger?: Ledger;
    clock?: () => Date;
    database?: TestDatabase;
    lab?: boolean;
    benchBaseline?: boolean;
  } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await createTestDatabase());
  const services = createServices({
    databaseUrl: database.url,
    settings: { ...DEFAULT_RUN_ONCE_SETTINGS, ...opts.settings },
    ledger: opts.ledger,
    clock: opts.clock,
    lab: opts.lab,
    benchBaseline: opts.benchBaseline,
  });
  await seedCatalog(services.db);
  return {
    services,
    database,
    caller: (sessionId = newSessionId(), callerOpts) =>
      createCaller(createContextInner({ services, sessionId }), callerOpts),
    async close() {
      await services.close();
      if (!opts.database) await database.drop();
    },
  };
}
