/** The end-to-end suite runs the production build twice: on SQLite and on PostgreSQL. */
export const E2E_SERVERS = {
  sqlite: { port: 3100, databaseUrl: "file:./.tmp/e2e.db" },
  postgresql: {
    port: 3101,
    databaseUrl: process.env.E2E_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/idem_e2e",
  },
} as const;

export type E2EProvider = keyof typeof E2E_SERVERS;
