import { NamedError } from "../errors";
import type { MappedReason } from "../trpc/error-mapping";

/** The refusals only the fault lab makes, named and mapped to statuses in the shop's one error map. */
export class LabError extends NamedError<Extract<MappedReason, "NO_COMPLETED_KEY" | "PITFALL_MODE_OFF">> {
  override name = "LabError";
}
