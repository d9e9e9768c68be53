"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CurlSession } from "~/app/_components/curl-session";
import { OrderPayment } from "~/app/_components/order-payment";
import type { PaymentProviderEndpoint } from "~/app/_lib/provider-payment-method";
import { sendCharge } from "~/app/_lib/use-payment";
import type { SendCharge } from "~/app/_lib/use-payment";
import { useLabTRPC, useLabTRPCClient } from "~/app/_trpc/provider";
import { LabPanel } from "./lab-panel";
import { naiveSender } from "./naive-client";
import { pitfallSender } from "./pitfall-client";
import { savesSettled } from "./saves-settled";
import { useScenario } from "./use-scenario";

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
  const naive = shop?.naiveClient === true;
  const pitfall = !naive && shop?.pitfallMode === true;
  const [scenario] = useScenario();
  // A Pay pressed while a scenario's switches are being saved waits for them, then pays as they say.
  const send: SendCharge = async (...charge) => {
    await savesSettled(queryClient.getMutationCache(), trpc.lab.setSwitches.mutationKey());
    const saved = queryClient.getQueryData(switches.queryKey)?.shop;
    if (saved?.naiveClient) return naiveSender(labClient)(...charge);
    if (saved?.pitfallMode) return pitfallSender(labClient)(...charge);
    return sendCharge(...charge);
  };
  return (
    <CurlSession value={sessionCookie}>
      <OrderPayment
        orderId={orderId}
        paymentProvider={paymentProvider}
        send={send}
        payVerb={naive ? "Pay naively" : pitfall ? "Pay in pitfall mode" : "Pay"}
        unguarded={scenario?.unguardedPay}
        aside={(payment) => <LabPanel {...payment} behindProxy={behindProxy} />}
      />
    </CurlSession>
  );
}
