/**
 * Settings → Webhooks in Chromium (issues 9 and 16): an admin adds an endpoint, sees its signing
 * secret once, and deleting it asks first — dismissing keeps the endpoint, accepting removes it.
 * The endpoint listens only to `poll.closed` on a public address literal, so nothing is sent
 * during the test.
 */
import { expect, test } from "@playwright/test";
import { BASE_URL, signIn, uniqueSuffix } from "./helpers";

test("add an endpoint, then delete it only after confirming", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/settings/webhooks`);
  const url = `https://93.184.215.14/hooks/${uniqueSuffix()}`;
  await page.getByLabel("Endpoint URL").fill(url);
  for (const type of ["report.submitted", "report.updated", "report.deleted"]) await page.getByLabel(type, { exact: true }).uncheck();
  await page.getByLabel("poll.closed").check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("new-webhook-secret")).toContainText("whsec_");
  const endpoint = page.getByTestId("webhook").filter({ hasText: url });
  await expect(endpoint).toHaveCount(1);
  await expect(endpoint).toContainText("poll.closed");

  const messages: string[] = [];
  page.once("dialog", (dialog) => {
    messages.push(dialog.message());
    void dialog.dismiss();
  });
  await endpoint.getByRole("button", { name: `Delete the endpoint ${url}` }).click();
  await expect.poll(() => messages.length).toBe(1);
  expect(messages[0]).toContain(`Delete the endpoint ${url}?`);
  await page.reload();
  await expect(page.getByTestId("webhook").filter({ hasText: url })).toHaveCount(1);

  page.once("dialog", (dialog) => void dialog.accept());
  await page
    .getByTestId("webhook")
    .filter({ hasText: url })
    .getByRole("button", { name: `Delete the endpoint ${url}` })
    .click();
  await expect(page.getByTestId("webhook").filter({ hasText: url })).toHaveCount(0);
});
