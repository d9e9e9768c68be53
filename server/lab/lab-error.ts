/** The refusals only the fault lab makes, mapped to statuses with the shop's own reasons (server/trpc/error-mapping.ts). */
export type LabErrorReason = "NO_COMPLETED_KEY" | "PITFALL_MODE_OFF";

export class LabError extends Error {
  constructor(
    readonly reason: LabErrorReason,
    message: string,
  ) {
    super(message);
    this.name = "LabError";
  }
}
