import { newSessionId } from "../server/session";
import { ControllableProvider } from "./controllable-provider";
import { chargeBody } from "./lab-orders";
import type { TestApp } from "./test-app";

/** A new session's order (two notebooks and a mug), and the request that pays it with the order's key. */
export async function placedOrder(app: TestApp) {
  const session = newSessionId();
  const order = await app.caller(session).orders.place({
    submissionKey: `sub-${crypto.randomUUID()}`,
    items: [
      { sku: "notebook", quantity: 2 },
      { sku: "ceramic-mug", quantity: 1 },
    ],
  });
  return { session, order, charge: chargeBody(order) };
}

/** Where most payment tests start: an app on a provider the test controls, and an order placed on it. */
export async function appWithOrder(startApp: (opts: { provider: ControllableProvider }) => Promise<TestApp>) {
  const provider = new ControllableProvider();
  const app = await startApp({ provider });
  return { provider, app, ...(await placedOrder(app)) };
}
