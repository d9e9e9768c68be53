import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import type { Page } from "@playwright/test";
import { recreateDatabase } from "../testing/postgres-admin";
import { E2E_SERVERS } from "./environment";
import type { Order } from "~/app/_lib/order";
import { chargingRun, expectFigureAgrees, readOrder } from "./figure-agreement";
import type { E2EProvider } from "./environment";
import { expect, test } from "./fixtures";

/**
 * The crash lesson followed literally: the kill command the page shows is run
 * in a shell. On a demo of its own (`npm start`, one instance, then two behind
 * the round-robin proxy), since the suite's shared server must not die.
 */

interface Demo {
  url: string;
  instanceUrls: string[];
  providerUrl: string;
  /** What `npm start` printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Ports after the suite's own: E2E_BASE_PORT + 20 to + 39. */
async function startDemo(project: E2EProvider, instances: number): Promise<Demo> {
  const port = E2E_SERVERS.sqlite.port + 20 + (project === "postgresql" ? 10 : 0) + (instances - 1) * 5;
  const name = `crash_${project}_${instances}`;
  for (const suffix of ["", "-wal", "-shm"]) {
    for (const file of [`.tmp/${name}.db`, `.tmp/${name}-provider.db`])
      rmSync(file + suffix, { force: true });
  }
  const databaseUrl =
    project === "sqlite"
      ? `file:./.tmp/${name}.db`
      : await recreateDatabase(`${new URL(E2E_SERVERS.postgresql.databaseUrl).pathname.slice(1)}_${name}`);
  const child = spawn("node_modules/.bin/tsx", ["scripts/start.ts", "start"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      PROVIDER_PORT: String(port + 4),
      DATABASE_URL: databaseUrl,
      PROVIDER_DATABASE_URL: `file:./.tmp/${name}-provider.db`,
      INSTANCES: String(instances),
      LAB_ENABLED: "1",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://localhost:${port}`;
  await expect
    .poll(() => answers(`${url}/api/trpc/catalog.list`), { timeout: 120_000, intervals: [500] })
    .toBe(true);
  return {
    url,
    instanceUrls:
      instances === 1
        ? [url]
        : Array.from({ length: instances }, (_, i) => `http://localhost:${port + 1 + i}`),
    providerUrl: `http://127.0.0.1:${port + 4}`,
    output: () => output,
    stop: async () => {
      // The whole process group: npm start, the provider and every instance, restarted ones included.
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.ok,
    () => false,
  );

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function placeOrder(page: Page, url: string): Promise<string> {
  await page.goto(`${url}/`);
  await page
    .locator('[data-sku="notebook"]')
    .getByRole("button", { name: /^Add one/ })
    .click();
  await page.getByRole("button", { name: "Place order" }).click();
  await page.waitForURL(/\/orders\/ord_/);
  return /\/orders\/(ord_[A-Za-z0-9_-]+)/.exec(page.url())![1]!;
}

/** Chooses the crash lesson, pays, and runs the kill command the page shows during the stall. */
async function payAndKill(page: Page, demo: Demo, { commandBeforePaying }: { commandBeforePaying: boolean }) {
  const saved = page.waitForResponse((response) => response.url().includes("lab.setSwitches"));
  await page.getByLabel("Try a scenario").selectOption("crash-mid-charge");
  expect((await saved).ok()).toBe(true);
  const guide = page.getByTestId("scenario-picker").getByTestId("stall-guide");
  const command = guide.locator("code.command");
  if (commandBeforePaying) {
    await expect(command).toHaveText(/^kill -9 \d+$/);
    // At 1280 px the whole command shows: nothing of it is scrolled out of its box.
    expect(await command.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
  } else await expect(command).toHaveCount(0);

  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(guide.getByRole("timer")).toContainText("s left to kill the server");
  // Read at once: the stall lasts 4 s, and behind the proxy the command shows only during it.
  const text = (await command.textContent({ timeout: 4_000 })) ?? "";
  expect(text).toMatch(/^kill -9 \d+$/);
  const pid = Number(text.split(" ").at(-1));
  expect(alive(pid)).toBe(true);

  const shell = spawnSync("sh", ["-c", text], { encoding: "utf8" });
  expect(shell.status, shell.stderr).toBe(0);
  await expect.poll(() => alive(pid)).toBe(false);
  return pid;
}

/** Presses Finish payment until the retry gets the charge (on SQLite the dead owner's lease must run out first). */
async function finishPayment(page: Page) {
  const status = page.getByTestId("payment-status");
  await expect(async () => {
    const finish = page.getByRole("button", { name: /^Finish payment/ });
    // isVisible does not wait: once paid there is no button to press.
    if (await finish.isVisible()) await finish.click({ timeout: 2_000 }).catch(() => undefined);
    await expect(status).toContainText("Charged", { timeout: 5_000 });
  }).toPass({ timeout: 90_000 });
  await expect(status).toContainText("once");
}

/** The provider's own record of its webhook tries for the order (its test helper), as the demo's shop key reads it. */
async function providerTries(demo: Demo, orderId: string) {
  const response = await fetch(`${demo.providerUrl}/v1/test_helpers/webhook_deliveries?order=${orderId}`, {
    headers: { authorization: "Bearer sk_test_idempotent_checkout" },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Array<{ id: string; status: number | null }> }).data;
}

/**
 * The figure tells the crash as the server's account has it, held to the records: a later run (the
 * browser's retry, the completer or the provider's webhook) took the killed request's key over and
 * recorded the charge; "charged the card" stands only on the call whose provider charge it is (the
 * killed server's, named by the charge's provider request) and on the run that sent it; the recording
 * run says it recorded; the webhook lane's tries are the provider's own.
 */
async function expectTakeoverDrawn(page: Page, demo: Demo, orderId: string) {
  const account = await expectFigureAgrees(page, orderId);
  const { requests, providerCalls } = account;
  // One run took the key over (answered or not): the customer's retry, the completer or the provider's webhook.
  const takeovers = requests.filter(
    (a) => a.decision !== "coalesced" && a.keyState === "in_progress" && a.generation !== null,
  );
  expect(takeovers).toHaveLength(1);
  // The killed request is on record: in flight when its server died, never answered.
  expect(requests[0]).toMatchObject({ decision: null, status: null });
  // The provider lane: the killed server's call charged; a retry or the completer sent the same key and got it
  // replayed (the webhook and the catch-up ask nothing under the key: the provider told them).
  const charges = providerCalls.filter((call) => call.path === "POST /v1/payment_intents");
  expect(new Set(charges.map((call) => call.key)).size).toBe(1);
  expect(charges.map((call) => call.decision)).toEqual(
    ["webhook", "catch-up"].includes(takeovers[0]!.sentBy) ? ["executed"] : ["executed", "replayed"],
  );
  // The charge names the request that made it: the killed server's call, sent by #1; the takeover recorded it.
  const { charges: ledger } = await readOrder<Order>(page, "get", orderId);
  expect(ledger).toHaveLength(1);
  expect(chargingRun(account, ledger[0]!)).toBe(requests[0]!.id);
  expect(ledger[0]!.recordedBy).toBe(takeovers[0]!.id);
  const callCaptions = await page.getByTestId("provider-decision").allTextContents();
  expect(callCaptions.map((caption) => /charged the card/.test(caption))).toEqual(
    charges.map((_, i) => i === 0),
  );
  const captions = await page.getByTestId("server-lanes").getByTestId("server-decision").allTextContents();
  expect(captions.map((caption) => /charged the card/.test(caption))).toEqual(
    requests.map((_, i) => i === 0),
  );
  const recorder = requests.indexOf(takeovers[0]!);
  // Answered so, or left by its client (the reload) while its execution went on: it recorded call 1's charge.
  expect(captions[recorder]).toMatch(
    /^took over a dead owner's key\b.* recorded the charge that call 1 made/,
  );
  // The webhook lane's tries are the provider's: each of its tries drawn, in its order, with the answer it got.
  // The page reads the account every 1.5 s: a try the provider starts meanwhile is drawn on its next read.
  let drawnTries: Array<Array<string | null>> = [];
  await expect
    .poll(async () => {
      drawnTries = await page
        .getByTestId("webhook-lane")
        .locator("[data-try]")
        .evaluateAll((rows) =>
          rows.map((row) => [row.getAttribute("data-try"), row.getAttribute("data-status")]),
        );
      const tries = (await providerTries(demo, orderId)).map((t) => [t.id, String(t.status ?? "none")]);
      return tries.length > 0 && JSON.stringify(drawnTries) === JSON.stringify(tries)
        ? "drawn as tried"
        : JSON.stringify({ drawn: drawnTries, tried: tries });
    })
    .toBe("drawn as tried");
  const summary = await page.getByTestId("webhook-summary").textContent();
  expect(summary).toMatch(new RegExp(`^${drawnTries.length} deliver(y|ies) of 1 event\\.`));
}

/** The ledger shows the order's one charge, and the provider's own ledger agrees. */
async function expectOneCharge(page: Page, demo: Demo, orderId: string) {
  await page.goto(`${demo.url}/ledger`);
  await expect(page.locator(`tr[data-charge-id][data-order-id="${orderId}"]`)).toHaveCount(1);
  await expect(page.locator(`[data-reconciled-order="${orderId}"]`)).toHaveAttribute("data-problems", "0");
}

// The kill cuts the browser's request off; a retry can meet the dead owner's key (409) or, behind the proxy, the dead instance (502).
const CRASH_ERRORS = [/net::ERR_/, /status of (409|502|503)/];

test("crash mid-charge on one instance: the page's own kill command kills it, npm start starts it again, and the retry records the one charge", async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.expect(...CRASH_ERRORS);
  const demo = await startDemo(test.info().project.name as E2EProvider, 1);
  try {
    const orderId = await placeOrder(page, demo.url);
    const pid = await payAndKill(page, demo, { commandBeforePaying: true });
    await expect.poll(() => answers(`${demo.url}/api/trpc/catalog.list`), { timeout: 60_000 }).toBe(true);
    expect(demo.output()).toContain("was killed (SIGKILL): starting it again");
    // A reload mid-payment: the figure draws the killed request in flight, and the status line names it.
    await page.reload();
    const during = await expectFigureAgrees(page, orderId);
    // The dead owner's lease holds the key on SQLite until a later run takes it over (on a slow restart, past the
    // lease, the completer may have already); on PostgreSQL the browser's retry may have taken it over at once.
    if (test.info().project.name === "sqlite" && during.requests.length === 1)
      expect(during.keys).toMatchObject([{ state: "in_progress" }]);
    expect(during.requests[0]).toMatchObject({ decision: null, status: null });
    await finishPayment(page);
    // The restarted server names itself: a new process.
    await page.reload();
    await expectTakeoverDrawn(page, demo, orderId);
    await expect(page.getByTestId("stall-guide").locator("code.command")).toHaveText(/^kill -9 \d+$/);
    expect(await page.getByTestId("stall-guide").locator("code.command").textContent()).not.toBe(
      `kill -9 ${pid}`,
    );
    await expectOneCharge(page, demo, orderId);
  } finally {
    await demo.stop();
  }
});

test("crash mid-charge behind the proxy: the page names the instance holding the stall; killed, the proxy, the other instance and the provider keep serving, and it is started again", async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(300_000);
  consoleErrors.expect(...CRASH_ERRORS);
  const demo = await startDemo(test.info().project.name as E2EProvider, 2);
  try {
    const orderId = await placeOrder(page, demo.url);
    await payAndKill(page, demo, { commandBeforePaying: false });
    // At once, before the dead one is back: the other instance, the provider and the proxy answer.
    const up = await Promise.all(demo.instanceUrls.map((url) => answers(`${url}/api/trpc/catalog.list`)));
    expect(up.filter(Boolean)).toHaveLength(1);
    expect(await answers(`${demo.providerUrl}/health`)).toBe(true);
    await expect.poll(() => answers(`${demo.url}/api/trpc/catalog.list`)).toBe(true);
    // The dead one is started again.
    for (const url of demo.instanceUrls) {
      await expect.poll(() => answers(`${url}/api/trpc/catalog.list`), { timeout: 60_000 }).toBe(true);
    }
    expect(demo.output()).toContain("was killed (SIGKILL): starting it again");
    await finishPayment(page);
    await expectTakeoverDrawn(page, demo, orderId);
    await expectOneCharge(page, demo, orderId);
  } finally {
    await demo.stop();
  }
});
