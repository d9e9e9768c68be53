import { NamedError } from "../errors";

/** The refusals only the fault lab makes, mapped to statuses with the shop's own reasons (server/trpc/error-mapping.ts). */
export type LabErrorReason = "NO_COMPLETED_KEY" | "PITFALL_MODE_OFF";

export class LabError extends NamedError<LabErrorReason> {
  override name = "LabError";
}
