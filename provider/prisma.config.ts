import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { prismaCliConfig } from "service-kit/db/prisma-cli-config";
import { PROVIDER_DEFAULT_DATABASE_URL } from "./defaults";

// The payment provider's schema (provider/prisma/), on the database migrateDatabase names in DATABASE_URL.
export default prismaCliConfig(
  "prisma",
  resolveDatabaseUrl(process.env.DATABASE_URL ?? PROVIDER_DEFAULT_DATABASE_URL),
);
