/**
 * One of several processes that race to charge one order with one key.
 * Usage: tsx charge-race-worker.ts <json args>; prints the results as JSON.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createServices } from "../server/services";
import { createContextInner } from "../server/trpc/context";
import { createCaller } from "../server/trpc/routers/_app";
import { HttpPaymentProvider } from "../server/payment-provider/http-payment-provider";
import { ControllableProvider } from "./controllable-provider";

interface RaceArgs {
  databaseUrl: string;
  provider: { url: string; apiKey: string };
  sessionId: string;
  orderId: string;
  amountCents: number;
  paymentKey: string;
  startAt: number;
  concurrency: number;
}

const args = JSON.parse(process.argv[2] ?? "{}") as RaceArgs;
const provider = new ControllableProvider().wrap(new HttpPaymentProvider(args.provider));
// A slow card network (1 s) keeps the charge in flight long enough for both
// processes to overlap, however loaded the machine is.
provider.beforeCharge = () => sleep(1_000);
const services = createServices({
  databaseUrl: args.databaseUrl,
  settings: {},
  provider: args.provider,
  providerOverride: provider,
});
const caller = createCaller(createContextInner({ services, sessionId: args.sessionId }));

await services.db.product.count(); // connect before the start line
await sleep(Math.max(0, args.startAt - Date.now()));
const sentAt = Date.now();
const results = await Promise.all(
  Array.from({ length: args.concurrency }, () =>
    caller.payments
      .charge({
        orderId: args.orderId,
        amountCents: args.amountCents,
        idempotencyKey: args.paymentKey,
        paymentMethodId: "pm_card_visa",
      })
      .then((data) => ({ ok: true, data }))
      .catch((error: unknown) => ({ ok: false, error: String(error) })),
  ),
);
const answeredAt = Date.now();
await services.close();
process.stdout.write(JSON.stringify({ results, chargeCalls: provider.chargeCalls, sentAt, answeredAt }));
