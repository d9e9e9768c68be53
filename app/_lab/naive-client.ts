import { TRPCClientError } from "@trpc/client";
import type { TRPCClient } from "@trpc/client";
import type { SendCharge } from "~/app/_lib/use-payment";
import { describeFailure } from "~/app/_trpc/links";
import { isRetryable } from "retry-policy";
import type { LabAppRouter } from "~/server/compose-lab";

/** The naive client gives up after this many tries, as a hand-written retry loop would. */
const NAIVE_TRIES = 3;

/** The lab's counter-example, do not copy: a new key per try, against a charge without run-once. */
export const naiveSender =
  (labClient: TRPCClient<LabAppRouter>): SendCharge =>
  async (_client, { idempotencyKey: _orderKey, ...charge }, run) => {
    for (let tryNumber = 1; ; tryNumber++) {
      const tryKey = `naive_${crypto.randomUUID()}`;
      try {
        return await labClient.lab.naiveCharge.mutate(
          { ...charge, attemptKey: tryKey },
          { context: { tries: run.recorder(tryKey), retries: false } },
        );
      } catch (error) {
        const retryable = error instanceof TRPCClientError && isRetryable(describeFailure(error));
        if (!retryable || tryNumber >= NAIVE_TRIES) throw error;
      }
    }
  };
