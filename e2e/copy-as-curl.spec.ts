import { spawnSync } from "node:child_process";
import { expect, test } from "./fixtures";

test("Copy as curl yields a command that replays as pasted: run in a shell, it gets the stored answer", async ({
  shop,
  page,
  context,
  db,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const orderId = await shop.placeOrder({ notebook: 1 });
  await shop.payButton().click();
  await shop.expectCharged();

  const request = page.getByTestId("server-lanes").locator('[data-decision="executed"]');
  await request.locator("summary").click();
  await request.getByRole("button", { name: "Copy as curl" }).click();
  await expect(request.getByText("Copied.")).toBeVisible();
  const command = await page.evaluate(() => navigator.clipboard.readText());

  const shell = spawnSync("sh", ["-c", command], { encoding: "utf8" });
  expect(shell.status, shell.stderr).toBe(0);
  expect(shell.stdout).toMatch(/^HTTP\/1\.1 200/);
  expect(shell.stdout).toMatch(/^idempotent-replayed: true/im);
  const charge = await db.charge.findFirstOrThrow({ where: { orderId } });
  expect(shell.stdout).toContain(`"chargeId":"${charge.id}"`);
  expect(await db.charge.count({ where: { orderId } })).toBe(1);
});
