"use client";

import { useQuery } from "@tanstack/react-query";
import { CurlSession } from "~/app/_components/curl-session";
import { OrderPayment } from "~/app/_components/order-payment";
import type { PaymentProviderEndpoint } from "~/app/_lib/provider-payment-method";
import { useLabTRPC, useLabTRPCClient } from "~/app/_trpc/provider";
import { LabPanel } from "./lab-panel";
import { naiveSender } from "./naive-client";
import { pitfallSender } from "./pitfall-client";
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
  const shop = useQuery(trpc.lab.switches.queryOptions({ orderId })).data?.shop;
  const naive = shop?.naiveClient === true;
  const pitfall = !naive && shop?.pitfallMode === true;
  const [scenario] = useScenario();
  return (
    <CurlSession value={sessionCookie}>
      <OrderPayment
        orderId={orderId}
        paymentProvider={paymentProvider}
        send={naive ? naiveSender(labClient) : pitfall ? pitfallSender(labClient) : undefined}
        payVerb={naive ? "Pay naively" : pitfall ? "Pay in pitfall mode" : "Pay"}
        unguarded={scenario?.unguardedPay}
        aside={(payment) => <LabPanel {...payment} behindProxy={behindProxy} />}
      />
    </CurlSession>
  );
}
