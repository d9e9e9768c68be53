import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { LabOrderPayment } from "~/app/_lab/lab-order-payment";
import { OrderPayment } from "~/app/_components/order-payment";
import { paymentProviderEndpoint } from "~/app/_lib/payment-provider-endpoint";
import { shortId } from "~/app/_lib/short-id";
import { HydrateClient, labTrpc, prefetch, trpc } from "~/app/_trpc/server";
import { VIA_ROUND_ROBIN_PROXY_HEADER } from "~/server/cluster/proxy-headers";
import { labEnabled } from "~/server/env";
import { SESSION_COOKIE } from "~/server/session";

interface Props {
  params: Promise<{ orderId: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Order ${shortId((await params).orderId)}` };
}

/** The order and its payment, read on the server; the lab, where it is on, is composed in here and only here. */
export default async function OrderPage({ params }: Props) {
  const { orderId } = await params;
  const lab = labEnabled();
  const paymentProvider = paymentProviderEndpoint();
  await Promise.all([
    prefetch(trpc.orders.get.queryOptions({ orderId }), { orNotFound: true }),
    prefetch(trpc.orders.serverAccount.queryOptions({ orderId })),
    lab && prefetch(labTrpc.lab.switches.queryOptions({ orderId })),
  ]);
  return (
    <HydrateClient>
      {lab ? (
        <LabOrderPayment
          orderId={orderId}
          paymentProvider={paymentProvider}
          behindProxy={(await headers()).has(VIA_ROUND_ROBIN_PROXY_HEADER)}
          sessionCookie={(await cookies()).get(SESSION_COOKIE)?.value ?? null}
        />
      ) : (
        <OrderPayment orderId={orderId} paymentProvider={paymentProvider} />
      )}
    </HydrateClient>
  );
}
