/** Where the end-to-end suite runs its own server and database. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e.db";
