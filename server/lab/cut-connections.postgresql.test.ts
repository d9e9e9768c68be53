import { expect } from "vitest";
import { trpcPost } from "~/testing/api-client";
import { cutWhileLocked } from "~/testing/database-cuts";
import { test } from "~/testing/fixtures";
import { chargeBody } from "~/testing/lab-orders";
import { newSignedSession } from "~/testing/signed-session";
import { handleTrpcRequest } from "../trpc/http-handler";
import { labAppRouter } from "./lab-router";
import { losingReplies } from "./reply-dropper";
import { readSwitches, setSwitches } from "./switches";

/** The lab's writes when their database connection is cut: answered as the shop's are, never an empty 500. */
test("a committed charge whose lost-reply bookkeeping is cut goes out as committed, and its retry replays it", async ({
  startApp,
}) => {
  const app = await startApp({ lab: true });
  const handle = losingReplies(app.services.db, app.services.account, (request) =>
    handleTrpcRequest(request, app.services, labAppRouter),
  );
  const { id, cookie } = await newSignedSession(app.services.db);
  const order = await app.caller(id).orders.place({
    submissionKey: crypto.randomUUID(),
    items: [{ sku: "notebook", quantity: 1 }],
  });
  await setSwitches(app.services.db, order.id, { dropReplies: 1 });
  const charge = () => handle(trpcPost("payments.charge", chargeBody(order), cookie));

  // The switch's row locked: only the dropper's spend, after the charge committed, waits on it and is cut.
  const reply = await cutWhileLocked(
    app.database.url,
    [`SELECT * FROM "LabSwitches" WHERE "orderId" = '${order.id}' FOR UPDATE`],
    async () => {
      const response = await charge();
      return { status: response.status, body: await response.text() };
    },
  );
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.body)).toMatchObject({ result: { data: { orderId: order.id } } });
  // Not spent: the next reply is the one the lab loses; the charge itself is replayed.
  expect((await readSwitches(app.services.db, order.id)).dropReplies).toBe(1);
  const retry = await charge();
  expect(retry.headers.get("Idempotency-Decision")).toBe("replayed");
});
