import { seedCatalog } from "../server/catalog/seed-catalog";
import type { RunOnceSettings } from "~/packages/run-once";
import type { Ledger } from "../server/ledger/ledger";
import { createServices } from "../server/services";
import type { AppServices } from "../server/services";
import { newSessionId } from "../server/session";
import { createContextInner } from "../server/trpc/context";
import { createCaller } from "../server/trpc/routers/_app";
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
    fingerprintSecret?: string;
  } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await createTestDatabase());
  const services = createServices({
    databaseUrl: database.url,
    settings: opts.settings ?? {},
    ledger: opts.ledger,
    clock: opts.clock,
    lab: opts.lab,
    fingerprintSecret: opts.fingerprintSecret,
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
