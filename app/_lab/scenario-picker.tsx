"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { ReactNode } from "react";
import type { PaymentView } from "~/app/_components/order-payment";
import { paymentStory } from "~/app/_lib/story/payment-story";
import { queueStory } from "~/app/_lib/story/queue-story";
import { useHydrated } from "~/app/_lib/use-hydrated";
import { useTRPC } from "~/app/_trpc/provider";
import { CatchUpButton } from "./catch-up-button";
import { FAULT_TOGGLES } from "./fault-switches";
import { SCENARIOS, allOff, switchesFor } from "./scenarios";
import { StallGuide } from "./stall-guide";
import type { Switches } from "./switches";
import { useScenario } from "./use-scenario";
import { WaitClock } from "./wait-clock";

/** Guided runs of the guide's failures: what to do, what should happen and, from the server, what did. */
export function ScenarioPicker({
  order,
  tries,
  paying,
  behindProxy,
  switches,
  turn,
  children,
}: PaymentView & {
  behindProxy: boolean;
  /** The lab's switches as the panel shows them; undefined until read. */
  switches: Switches | undefined;
  /** Sets the switches through the lab panel, as its own checkboxes do. */
  turn: (next: Switches) => void;
  /** The chosen scenario's controls: its own switches, and any button its steps name. */
  children?: ReactNode;
}) {
  const trpc = useTRPC();
  // A choice before React runs would be lost: the picker waits for it, as the switches do.
  const hydrated = useHydrated();
  const account = useQuery(trpc.orders.serverAccount.queryOptions({ orderId: order.id }));
  const [scenario, setScenario] = useScenario();
  const queue = useQuery({
    ...trpc.orders.queueAccount.queryOptions({ orderId: order.id }),
    enabled: scenario?.queue === true,
  });
  const queueTold = scenario?.queue && queue.data ? queueStory(queue.data) : null;
  const story = account.data ? paymentStory(account.data, order.charges) : null;
  const webhookTold = scenario?.webhook && story?.webhookDeliveries.length ? story.webhookSentence : null;
  // Requests before the choice, counted when it is made here (a reload starts counting afresh).
  const [earlierRequests, setEarlierRequests] = useState(0);
  const requests = account.data?.requests ?? [];
  const somethingHappened = requests.length > 0 || order.charges.length > 0;

  // Choosing sets the scenario's switches and turns every other one off; clearing turns them all off.
  const choose = (id: string) => {
    if (!switches) return;
    const next = SCENARIOS.find((candidate) => candidate.id === id) ?? null;
    setScenario(next?.id ?? null);
    setEarlierRequests(requests.length);
    turn(next ? switchesFor(next, switches) : allOff(switches));
  };

  return (
    <div className="scenario-picker" data-testid="scenario-picker">
      <label htmlFor="scenario">Try a scenario</label>
      <select
        id="scenario"
        value={scenario?.id ?? ""}
        disabled={!hydrated || paying || !switches}
        onChange={(event) => choose(event.target.value)}
      >
        <option value="">Choose a failure to watch…</option>
        {SCENARIOS.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.title}
          </option>
        ))}
      </select>
      {scenario && (
        <div className="scenario" data-scenario={scenario.id} data-testid="scenario-panel">
          {earlierRequests > 0 && (
            <p className="small" data-testid="scenario-earlier-requests">
              This order had {earlierRequests} request{earlierRequests === 1 ? "" : "s"} before: what happened
              counts them too. <Link href="/">A new order</Link> starts clean.
            </p>
          )}
          <p data-testid="scenario-to-do">
            <strong>Do:</strong> {scenario.toDo}
          </p>
          {scenario.help === "second-tab" && (
            <p>
              <Link href={`/orders/${order.id}?scenario=${scenario.id}`} target="_blank">
                Open this order in a second tab
              </Link>
            </p>
          )}
          {scenario.help === "stall-guide" && switches && (
            <StallGuide orderId={order.id} tries={tries} behindProxy={behindProxy} />
          )}
          {scenario.help === "catch-up" && <CatchUpButton disabled={paying} />}
          {scenario.waitClock && <WaitClock tries={tries} />}
          {children}
          <p data-testid="scenario-should-happen">
            <strong>Should happen:</strong> {scenario.shouldHappen}
            {switches &&
              FAULT_TOGGLES.filter((toggle) => scenario.alsoShows?.[toggle.id] && toggle.isOn(switches)).map(
                (toggle) => ` ${scenario.alsoShows![toggle.id]}`,
              )}
          </p>
          {somethingHappened && (
            <p className="scenario-happened" role="status" data-testid="scenario-happened">
              <strong>What happened:</strong> {story?.whatHappened}
              {webhookTold ? ` Then the provider's webhook: ${webhookTold}` : ""}
              {queueTold?.rows.length ? ` Then the queue: ${queueTold.sentence}` : ""}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
