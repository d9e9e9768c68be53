import type { Db } from "../server/db/client";

/** The shop database's tables any of whose rows, as JSON, match `pattern`: where a value must never be found. */
export async function tablesHolding(db: Db, databaseUrl: string, pattern: RegExp): Promise<string[]> {
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    databaseUrl.startsWith("file:")
      ? `SELECT name FROM sqlite_master WHERE type = 'table'`
      : `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
  );
  const holding: string[] = [];
  for (const { name } of tables) {
    const rows = await db.$queryRawUnsafe<unknown[]>(`SELECT * FROM "${name}"`);
    const text = JSON.stringify(rows, (_, value: unknown) =>
      typeof value === "bigint" ? String(value) : value,
    );
    if (pattern.test(text)) holding.push(name);
  }
  return holding;
}
