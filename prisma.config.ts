import { resolveDatabaseUrl } from "service-kit/db/database-url";
import { prismaCliConfig } from "service-kit/db/prisma-cli-config";
import { env } from "./server/env";

// The app's schema (prisma/), on DATABASE_URL. The payment provider has its own: provider/prisma.config.ts.
export default prismaCliConfig(resolveDatabaseUrl(env.DATABASE_URL));
