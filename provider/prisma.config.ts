import { resolveDatabaseUrl } from "../server/db/database-url";
import { prismaCliConfig } from "../server/db/prisma-cli-config";
import { PROVIDER_DEFAULT_DATABASE_URL } from "./defaults";

// The payment provider's schema (provider/prisma/), on the database migrateDatabase names in DATABASE_URL.
export default prismaCliConfig(
  "prisma",
  resolveDatabaseUrl(process.env.DATABASE_URL ?? PROVIDER_DEFAULT_DATABASE_URL),
);
