import { NamedError } from "../../errors";

/** The run-once adapter's reasons: its own refusals of a key, and the core's errors as it names them. */
export type IdempotencyReason =
  | "IDEMPOTENCY_KEY_MISSING"
  | "IDEMPOTENCY_KEY_INVALID"
  | "IDEMPOTENCY_KEY_CONFLICTING_SOURCES"
  | "IDEMPOTENCY_KEY_REUSED"
  | "IDEMPOTENCY_KEY_IN_PROGRESS"
  | "TRANSIENT_FAILURE";

/** Mapped to its status with every other reason, in ../error-mapping.ts. */
export class IdempotencyError extends NamedError<IdempotencyReason> {
  override name = "IdempotencyError";
}
