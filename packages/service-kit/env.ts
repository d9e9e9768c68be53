import { z } from "zod";

export const milliseconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

// An empty variable (DATABASE_URL= in a shell or a .env file) means "not set".
export const unsetIfEmpty = (value: unknown) => (value === "" ? undefined : value);

/** A service's database: a SQLite file or a PostgreSQL server, `fallback` when unset. */
export const databaseUrl = (fallback: string) =>
  z
    .preprocess(unsetIfEmpty, z.string().default(fallback))
    .refine((url) => /^(file:|postgres(ql)?:\/\/)/.test(url), {
      message: "must be a file: URL (SQLite) or a postgresql:// URL",
    });

/** Reads the environment, or fails with one line that names each bad variable. */
export function parseEnvironment<S extends z.ZodType>(
  schema: S,
  source: Record<string, string | undefined>,
  of = "",
): z.infer<S> {
  const parsed = schema.safeParse(source);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  throw new Error(`Invalid environment${of}: ${problems.join("; ")}.`);
}
