import type { TRPCClient } from "@trpc/client";
import type { SendCharge } from "~/app/_lib/use-payment";
import type { LabAppRouter } from "~/server/compose-lab";

/** Untimed: a tab that gave up after its own 8 s would hide how long the server makes a duplicate wait. */
export const pitfallSender =
  (labClient: TRPCClient<LabAppRouter>): SendCharge =>
  (_client, request, run) =>
    labClient.lab.pitfallCharge.mutate(request, {
      context: { tries: run.recorder(request.idempotencyKey), untimed: true },
    });
