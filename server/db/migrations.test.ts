import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { databaseProvider } from "service-kit/db/database-url";
import { ROOT } from "~/testing/paths";
import { shapeOfDatabase, shapeOfSchema } from "~/testing/schema-shape";
import { createTestDatabase } from "~/testing/test-database";
import type { SchemaName, TestDatabase } from "~/testing/test-database";

let database: TestDatabase;
afterEach(() => database.drop());

const SCHEMAS: Record<SchemaName, string> = {
  shop: "prisma/schema.prisma",
  provider: "provider/prisma/schema.prisma",
};

it.each(Object.keys(SCHEMAS) as SchemaName[])(
  "builds with the %s's migrations exactly the tables, columns, keys and indexes of its schema",
  async (schema) => {
    database = await createTestDatabase(schema);
    const provider = databaseProvider(database.url);
    expect(await shapeOfDatabase(database.url)).toEqual(
      shapeOfSchema(path.join(ROOT, SCHEMAS[schema]), provider),
    );
  },
);
