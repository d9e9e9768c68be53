import { NO_PROVIDER_FAULTS } from "service-kit/lab/provider-faults";
import type { ProviderFaults } from "service-kit/lab/provider-faults";
import type { ProviderOneShot } from "service-kit/lab/provider-one-shots";
import type { ProviderDb } from "../db/client";

/** One account's faults for one order, a row per fault: a fault nobody set is off. */
export class OrderFaults {
  constructor(
    private readonly db: ProviderDb,
    private readonly order: { account: string; orderRef: string },
  ) {}

  async read(): Promise<ProviderFaults> {
    return faultsOf(await this.db.labFault.findMany({ where: this.order }));
  }

  /** Only the faults given change; the others keep their value. Each is an upsert on its key: two calls racing both land. */
  async set(change: Partial<ProviderFaults>): Promise<ProviderFaults> {
    const writes = Object.entries(change).map(([name, on]) => {
      const row = { ...this.order, name, value: Number(on) };
      return this.db.labFault.upsert({
        where: { account_orderRef_name: { ...this.order, name } },
        create: row,
        update: { value: row.value },
      });
    });
    const [rows] = await this.db.$transaction([this.db.labFault.findMany({ where: this.order }), ...writes]);
    return { ...faultsOf(rows), ...change };
  }

  /** Spends one unit of a counter, atomically: of two requests racing for the last unit, exactly one gets it. */
  async spend(fault: ProviderOneShot): Promise<boolean> {
    const { count } = await this.db.labFault.updateMany({
      where: { ...this.order, name: fault, value: { gt: 0 } },
      data: { value: { decrement: 1 } },
    });
    return count === 1;
  }
}

/** The faults as the rows hold them: a flag is stored as 0 or 1, a fault without a row is off. */
function faultsOf(rows: ReadonlyArray<{ name: string; value: number }>): ProviderFaults {
  const faults: Record<string, number | boolean> = { ...NO_PROVIDER_FAULTS };
  for (const { name, value } of rows) {
    if (name in faults) faults[name] = typeof faults[name] === "boolean" ? value !== 0 : value;
  }
  return faults as ProviderFaults;
}
