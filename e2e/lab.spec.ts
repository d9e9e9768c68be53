import { LAB, expect, serverHtmlOf, test } from "./fixtures";

test("on a wide screen the lab sits beside the Pay button: both in view at once", async ({ shop, page }) => {
  await shop.placeOrder({ notebook: 1 });
  const lab = page.getByTestId("lab-panel");
  await expect(lab).toBeInViewport();
  await expect(shop.payButton()).toBeInViewport();
  const labBox = await lab.boundingBox();
  const payBox = await shop.payButton().boundingBox();
  expect(labBox && payBox && labBox.x > payBox.x + payBox.width).toBe(true);
});

test("a one-shot switch says it is armed for the next try, then which try spent it", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
  await shop.placeOrder({ "espresso-beans": 1 });
  await shop.switchOn(LAB.dropReply);
  await expect(page.getByTestId("drop-reply-state")).toHaveText("armed for the next try");
  await shop.capture("lab switch armed");

  await shop.payButton().click();
  await shop.expectCharged();
  // Try 1 lost its reply: it spent the switch; try 2 got the stored result.
  await expect(page.getByTestId("drop-reply-state")).toHaveText("spent on try 1");
  await expect(page.getByLabel(LAB.dropReply)).not.toBeChecked();
  await shop.capture("lab switch spent");
});

test("the stall switch says how to kill this server, and counts the seconds left to do it", async ({
  shop,
  page,
}) => {
  await shop.placeOrder({ "desk-plant": 1 });
  await shop.switchOn(LAB.stallBetweenHops);
  const guide = page.getByTestId("stall-guide");
  await expect(guide.locator("code.command")).toHaveText(/^kill -9 \d+$/);

  await shop.payButton().click();
  const countdown = guide.getByRole("timer");
  await expect(countdown).toContainText("s left to kill the server");
  const secondsLeft = async () => Number(/([\d.]+) s left/.exec((await countdown.textContent()) ?? "")?.[1]);
  const first = await secondsLeft();
  await expect.poll(secondsLeft).toBeLessThan(first);
  // After the reading: two screenshots can outlast the 4 s stall on a loaded machine.
  await shop.capture("stall countdown");

  // Nobody killed it: the record went through, once.
  await shop.expectCharged();
  await expect(page.getByTestId("stall-between-hops-state")).toHaveText("spent on try 1");
});

test("Pay pressed while a scenario's switches are being saved waits for them, then pays as they say", async ({
  shop,
  page,
  consoleErrors,
}) => {
  consoleErrors.expect(/net::ERR_INCOMPLETE_CHUNKED_ENCODING/);
  await shop.placeOrder({ notebook: 1 });
  // The save is held back, so that Pay is surely pressed before it lands.
  await page.route(/\/api\/trpc\/lab\.setSwitches/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.getByLabel("Try a scenario").selectOption("lost-reply");
  await shop.payButton().click();
  await shop.expectCharged();
  // The server dropped try 1's reply, as the scenario's switch said: try 2 got the stored one.
  await shop.expectTries({ outcome: "network_error" }, { decision: "replayed" });
});

test("before React runs, the lab's controls are disabled: a click then would be lost, and put back", async ({
  shop,
  page,
  context,
}) => {
  await shop.placeOrder({ notebook: 1 });
  const serverHtml = await serverHtmlOf(context, page.url());
  // The browser unfolds "All switches" by itself, without React.
  await serverHtml.getByText("All switches").click();
  await expect(serverHtml.getByLabel(LAB.dropReply)).toBeDisabled();
  await expect(serverHtml.getByRole("button", { name: "Send the same payload" })).toBeDisabled();
  await serverHtml.close();
  // Once it runs, they work.
  await expect(page.getByLabel(LAB.dropReply)).toBeEnabled();
});

test("clearing the picker turns its switches off, on the page and on the server", async ({ shop, page }) => {
  await shop.placeOrder({ notebook: 1 });
  const picker = page.getByLabel("Try a scenario");
  const choose = async (id: string) => {
    const saved = page.waitForResponse((response) => response.url().includes("lab.setSwitches"));
    await picker.selectOption(id);
    expect((await saved).ok()).toBe(true);
  };
  await choose("partial-commit");
  await expect(page.getByRole("button", { name: /^Pay in pitfall mode/ })).toBeVisible();

  await choose("");
  await expect(page).not.toHaveURL(/scenario=/);
  await shop.openAllSwitches();
  const all = page.getByTestId("all-switches");
  await expect(all.getByRole("checkbox")).not.toHaveCount(0);
  for (const box of await all.getByRole("checkbox").all()) await expect(box).not.toBeChecked();
  await expect(shop.payButton()).toHaveText(/^Pay \$/);
  // The server holds them off too: a reload reads them back.
  await page.reload();
  await shop.openAllSwitches();
  for (const box of await all.getByRole("checkbox").all()) await expect(box).not.toBeChecked();
});
