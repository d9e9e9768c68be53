import { PrismaPg } from "@prisma/adapter-pg";

/** The adapter for an application's client: a pool sized for one small app instance. */
export function postgresAdapter(url: string) {
  return new PrismaPg({ connectionString: url, max: 10 });
}
