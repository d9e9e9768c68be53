import path from "node:path";

/** A file: URL is SQLite, a postgresql:// URL PostgreSQL. */
export function databaseProvider(url: string) {
  return url.startsWith("file:") ? "sqlite" : "postgresql";
}

/** Resolved once here: the Prisma CLI and the app would resolve a relative path differently. */
export function resolveDatabaseUrl(url: string): string {
  if (!url.startsWith("file:")) return url;
  return `file:${path.resolve(url.slice("file:".length))}`;
}

/** A URL fit for a log line: the password, if any, hidden. */
export function redactPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]+:)[^@]*@/, "$1***@");
}

/** The folder of the schema for a URL's provider: `prisma/`, or its PostgreSQL twin `prisma/postgresql/`. */
export function schemaFolderOf(url: string): string {
  return databaseProvider(url) === "sqlite" ? "prisma" : "prisma/postgresql";
}
