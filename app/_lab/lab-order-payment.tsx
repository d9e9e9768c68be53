"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { TRPCClient } from "@trpc/client";
import { CurlSession } from "~/app/_components/curl-session";
import { OrderPayment } from "~/app/_components/order-payment";
import type { PaymentProviderEndpoint } from "~/app/_lib/provider-payment-method";
import { sendCharge } from "~/app/_lib/use-payment";
import type { SendCharge } from "~/app/_lib/use-payment";
import { useLabTRPC, useLabTRPCClient } from "~/app/_trpc/provider";
import type { LabAppRouter } from "~/server/compose-lab";
import { LabPanel } from "./lab-panel";
import { naiveSender } from "./naive-client";
import { pitfallSender } from "./pitfall-client";
import { savesSettled } from "./saves-settled";
import type { Switches } from "./switches";
import { useScenario } from "./use-scenario";

/** Who pays, by the order's switches: the naive client before pitfall mode, else the shop's own client. */
function payerOf(shop: Switches["shop"] | undefined, labClient: TRPCClient<LabAppRouter>) {
  if (shop?.naiveClient) return { verb: "Pay naively", send: naiveSender(labClient) };
  if (shop?.pitfallMode) return { verb: "Pay in pitfall mode", send: pitfallSender(labClient) };
  return { verb: "Pay", send: sendCharge };
}

/** The order page with the lab's panel and clients composed in; the production page knows none of them. */
export function LabOrderPayment({
  orderId,
  paymentProvider,
  behindProxy,
  sessionCookie,
}: {
  orderId: string;
  paymentProvider: PaymentProviderEndpoint;
  behindProxy: boolean;
  /** This browser's session cookie, for the server account's copied curl commands. */
  sessionCookie: string | null;
}) {
  const trpc = useLabTRPC();
  const labClient = useLabTRPCClient();
  const queryClient = useQueryClient();
  const switches = trpc.lab.switches.queryOptions({ orderId });
  const shop = useQuery(switches).data?.shop;
  const [scenario] = useScenario();
  // A Pay pressed while a scenario's switches are being saved waits for them, then pays as they say.
  const send: SendCharge = async (...charge) => {
    await savesSettled(queryClient.getMutationCache(), trpc.lab.setSwitches.mutationKey());
    return payerOf(queryClient.getQueryData(switches.queryKey)?.shop, labClient).send(...charge);
  };
  return (
    <CurlSession value={sessionCookie}>
      <OrderPayment
        orderId={orderId}
        paymentProvider={paymentProvider}
        send={send}
        payVerb={payerOf(shop, labClient).verb}
        unguarded={scenario?.unguardedPay}
        aside={(payment) => <LabPanel {...payment} behindProxy={behindProxy} />}
      />
    </CurlSession>
  );
}
