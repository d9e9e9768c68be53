import path from "node:path";

export type DatabaseProvider = "sqlite" | "postgresql";

/** A file: URL is SQLite, a postgresql:// URL PostgreSQL. */
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

/** A URL fit for a log line: the password, if any, hidden. */
export function redactPassword(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+:)[^@]*@/, "$1***@");
}

/**
 * The folder, under a service's root, of the schema and migrations for a URL's
 * provider: the SQLite schema in `prisma/`, its generated PostgreSQL twin in
 * `prisma/postgresql/`.
 */
export function schemaFolderOf(url: string): string {
  return databaseProvider(url) === "sqlite" ? "prisma" : "prisma/postgresql";
}
