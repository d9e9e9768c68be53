import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

/** Catalog types the adapter cannot read: "char" (18) and name (19). */
const CATALOG_TEXT_OIDS = new Set([18, 19]);
const PG_TEXT_OID = 25;

/**
 * @prisma/adapter-pg 6.19 cannot read columns of PostgreSQL's internal `name`
 * and `"char"` types, which the schema engine selects from the catalog
 * ("Column type 'name' could not be deserialized", prisma/orm#27403), so
 * `migrate deploy` and `db push` fail. Both are text to every client, so the
 * CLI's pool relabels them as text.
 * The application never reads such columns and uses a plain pool.
 */
function catalogNameAsTextPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url });
  const query = pool.query.bind(pool) as (config: pg.QueryConfig) => Promise<pg.QueryResult>;
  // The adapter only ever awaits query(config); this one pool's query() relabels the fields.
  (pool as unknown as { query: typeof query }).query = async (config) => {
    const result = await query(config);
    for (const field of result.fields ?? []) {
      if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = PG_TEXT_OID;
    }
    return result;
  };
  return pool;
}

/** The adapter for the Prisma CLI (migrations). */
export function postgresMigrationAdapter(url: string) {
  return new PrismaPg(catalogNameAsTextPool(url));
}

/** The adapter for the application: a pool sized for one small app instance. */
export function postgresAdapter(url: string) {
  return new PrismaPg({ connectionString: url, max: 10 });
}
