/** Two checkouts can run the suite side by side with other ports and other PostgreSQL databases. */
const basePort = Number(process.env.E2E_BASE_PORT ?? 3100);
const postgresUrl = process.env.E2E_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/idem_e2e";

/**
 * The end-to-end suite runs the production build twice, on SQLite and on
 * PostgreSQL, each with its payment provider on a database of the same kind.
 */
export const E2E_SERVERS = {
  sqlite: {
    port: basePort,
    databaseUrl: "file:./.tmp/e2e.db",
    providerPort: basePort + 10,
    providerDatabaseUrl: "file:./.tmp/e2e-provider.db",
    serverLog: ".tmp/e2e-sqlite-server.log",
  },
  postgresql: {
    port: basePort + 1,
    databaseUrl: postgresUrl,
    providerPort: basePort + 11,
    providerDatabaseUrl: `${postgresUrl}_provider`,
    serverLog: ".tmp/e2e-postgresql-server.log",
  },
} as const;

export type E2EProvider = keyof typeof E2E_SERVERS;

/** The two widths the shop is made for: a laptop and a phone. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
