import type { TRPCClient } from "@trpc/client";
import type { SendCharge } from "~/app/_lib/use-payment";
import type { LabAppRouter } from "~/server/trpc/served-router";

/**
 * Pay in the lab's pitfall mode: the production client, the order's key on
 * every attempt and the same retries, against the lab's pitfall charge (its
 * only guard is the key, under the core of the order's broken rule).
 */
export const pitfallSender =
  (labClient: TRPCClient<LabAppRouter>): SendCharge =>
  (_client, request, run) =>
    labClient.lab.pitfallCharge.mutate(request, {
      context: { attempts: run.recorder(request.idempotencyKey) },
    });
