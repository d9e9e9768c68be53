import { expect } from "vitest";
import { ControllableProvider } from "~/testing/controllable-provider";
import { FakeClock } from "~/testing/fake-clock";
import { test } from "~/testing/fixtures";
import { gate } from "~/testing/gate";
import { appWithOrder } from "~/testing/placed-order";
import type { TestApp } from "~/testing/test-app";

/**
 * How an owner still at work loses its key: on PostgreSQL the server closes
 * its session, and its lock with it; on SQLite its lease runs out, as seen by
 * another instance whose clock is ahead.
 */
async function loseKey(owner: TestApp, otherClock: FakeClock) {
  if (process.env.TEST_DATABASE !== "postgresql")
    return otherClock.advance(owner.services.runOnce.settings.leaseMs + 1);
  await owner.services.db.$executeRaw`
    SELECT pg_terminate_backend("pid") FROM pg_stat_activity
    WHERE "datname" = current_database() AND "application_name" = 'run-once owner'`;
}

test("an owner that loses its key mid-charge answers with the charge its successor recorded, never PAYMENT_UNCONFIRMED", async ({
  startApp,
}) => {
  const { provider, app, session, charge: request } = await appWithOrder(startApp);
  const clock = new FakeClock();
  const other = await startApp({
    database: app.database,
    paymentProvider: app.paymentProvider,
    provider: new ControllableProvider(),
    clock: clock.now,
  });
  // The first instance is past its recovery point, about to call the provider...
  const held = gate();
  provider.beforeCharge = () => held.opened;
  const sidelined = app.caller(session).payments.charge(request);
  await expect.poll(() => provider.chargeCalls).toBe(1);

  // ...when it loses its key, and a retry on the other instance takes the key over and charges.
  await loseKey(app, clock);
  const charged = await other.caller(session).payments.charge(request);

  // The sidelined execution goes on, and its record is fenced off: its caller gets the key's charge.
  held.open();
  await expect(sidelined).resolves.toEqual(charged);
  expect(await app.services.db.charge.count()).toBe(1);
});
