import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { prismaCliConfig } from "service-kit/db/prisma-cli-config";
import { PROVIDER_DEFAULT_DATABASE_URL } from "./defaults";

// The payment provider's schema (provider/prisma/), on DATABASE_URL or the provider's default SQLite file.
export default prismaCliConfig(resolveDatabaseUrl(process.env.DATABASE_URL ?? PROVIDER_DEFAULT_DATABASE_URL));
