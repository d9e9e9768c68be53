"use client";

import { useQuery } from "@tanstack/react-query";
import { OrderPayment } from "~/app/_components/order-payment";
import { useLabTRPC, useLabTRPCClient } from "~/app/_trpc/provider";
import { LabPanel } from "./lab-panel";
import { naiveSender } from "./naive-client";

/**
 * The order page with the fault lab composed in: its panel beside the Pay
 * button, and, when its naive-client switch is on, the naive client in place
 * of the production one. The production page knows nothing of either.
 */
export function LabOrderPayment({ orderId, behindProxy }: { orderId: string; behindProxy: boolean }) {
  const trpc = useLabTRPC();
  const labClient = useLabTRPCClient();
  const naive = useQuery(trpc.lab.switches.queryOptions({ orderId })).data?.shop.naiveClient === true;
  return (
    <OrderPayment
      orderId={orderId}
      send={naive ? naiveSender(labClient) : undefined}
      payVerb={naive ? "Pay naively" : "Pay"}
      aside={(payment) => <LabPanel {...payment} behindProxy={behindProxy} />}
    />
  );
}
