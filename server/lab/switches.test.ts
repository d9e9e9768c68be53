import { expect } from "vitest";
import { trpcPost } from "~/testing/api-client";
import { test } from "~/testing/fixtures";
import { newSignedSession } from "~/testing/signed-session";
import { handleTrpcRequest } from "../trpc/http-handler";
import { labAppRouter } from "./lab-router";
import { readSwitches, setSwitches } from "./switches";

/** Two calls for one order at once, before it has any switches: both insert its row. */
test("setSwitches racing itself: both calls succeed and both writes are kept; over HTTP, never a 500", async ({
  startApp,
}) => {
  const app = await startApp({ lab: true });
  const { id, cookie } = await newSignedSession(app.services.db);
  const router = labAppRouter;
  const newOrder = () =>
    app
      .caller(id)
      .orders.place({ submissionKey: crypto.randomUUID(), items: [{ sku: "notebook", quantity: 1 }] });

  for (let round = 0; round < 8; round++) {
    const order = await newOrder();
    await Promise.all([
      setSwitches(app.services.db, order.id, { dropReplies: 2 }),
      setSwitches(app.services.db, order.id, { relayDuplicates: 3 }),
    ]);
    expect(await readSwitches(app.services.db, order.id)).toMatchObject({
      dropReplies: 2,
      relayDuplicates: 3,
    });

    const racing = await newOrder();
    const statuses = await Promise.all(
      [{ dropReplies: 1 }, { relayDuplicates: 1 }].map(async (shop) => {
        const response = await handleTrpcRequest(
          trpcPost("lab.setSwitches", { orderId: racing.id, shop }, cookie),
          app.services,
          router,
        );
        return response.status;
      }),
    );
    // The provider's own switches are set first, and it may answer its race with a 503 (Retry-After).
    for (const status of statuses) expect([200, 409, 503]).toContain(status);
  }
});
