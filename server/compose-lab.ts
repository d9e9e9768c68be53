/** The one place the shop takes the fault lab in: nothing else of the shop imports server/lab. */
import { LabProvider } from "./lab/lab-provider";
import { readSwitches } from "./lab/switches";
import type { LabComposition } from "./services-types";

export { labAppRouter } from "./lab/lab-router";
export type { LabAppRouter } from "./lab/lab-router";
export { losingReplies } from "./lab/reply-dropper";
export { queueLabOn } from "./lab/queue-lab";

/** What the lab puts into the shop's services: the provider as it bends it per order. */
export const labServices: LabComposition = {
  provider: ({ db, provider, endpoint, beforeStall }) => new LabProvider(db, provider, endpoint, beforeStall),
  shopDown: async (db, orderId) => (await readSwitches(db, orderId)).shopDown,
};
