"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { Order } from "~/app/_lib/order";
import { useTRPC } from "~/app/_trpc/provider";
import { paymentStory } from "~/app/_lib/story/payment-story";
import { KeyLifecycle } from "./key-lifecycle";
import { KeyStateGrid } from "./key-state-grid";
import { ProviderLane } from "./provider-lane";
import { QueueLane } from "./queue-lane";
import { ServerLanes } from "./server-lanes";
import { WebhookLane } from "./webhook-lane";

/** How often the account is read: it is written in batches, and other tabs and instances add to it. */
const READ_EVERY_MS = 1_500;

interface ServerAccountViewProps {
  order: Order;
  triesEnded: number;
  /** When this tab last heard the server answer: a record read before then is older than what the tab knows. */
  heardAt: number | null;
}

/** The server's own account of an order's payment, read again whenever this tab's tries change. */
export function ServerAccountView({ order, triesEnded, heardAt }: ServerAccountViewProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const account = useQuery(
    trpc.orders.serverAccount.queryOptions({ orderId: order.id }, { refetchInterval: READ_EVERY_MS }),
  );
  useEffect(() => {
    void queryClient.invalidateQueries({
      queryKey: trpc.orders.serverAccount.queryKey({ orderId: order.id }),
    });
  }, [triesEnded, order.status, order.id, queryClient, trpc]);

  const data = account.data;
  if (!data) return null;
  const readBefore = heardAt !== null && account.dataUpdatedAt < heardAt;
  const story = paymentStory(data, order.charges);
  const latestKey = data.requests.at(-1)?.key ?? order.paymentKey;
  const lifecycle = data.keys.find((key) => key.key === latestKey);
  return (
    <div className="server-account-view">
      <ServerLanes story={story} readBeforeAnswer={readBefore} />
      <ProviderLane story={story} />
      <WebhookLane story={story} />
      <QueueLane orderId={order.id} />
      {lifecycle && (
        <KeyLifecycle
          lifecycle={lifecycle}
          clockOffsetMs={Date.parse(data.now) - account.dataUpdatedAt}
          notInStore={story.keyNotInStore}
          readBeforeAnswer={readBefore}
        />
      )}
      <KeyStateGrid requests={data.requests} />
    </div>
  );
}
