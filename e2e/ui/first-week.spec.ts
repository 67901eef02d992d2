import { expect, test } from "@playwright/test";
import { BASE_URL, signIn, uniqueSuffix } from "./helpers";

/** Issue 41: defects a team meets in its first week (forms, wording, small things). */
test.describe.configure({ timeout: 120_000 });

test("item 7: a multiple-choice question without choices is refused next to its field; personalised asking is offered", async ({
  page,
}) => {
  await signIn(page);
  const name = `E2E choices ${uniqueSuffix()}`;
  await page.goto(`${BASE_URL}/standups/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.locator("#q-0-mc").check();
  await page.locator("#day-Mon").check();
  await page.getByLabel("Broadcast channel").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Create standup" }).click();
  await expect(page.locator("#q-0-choices-error")).toContainText("add at least two different choices");
  await expect(page.getByLabel("Choices for question 1 (one per line)")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/standups\/new$/);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  // One choice is not enough either.
  await page.getByLabel("Choices for question 1 (one per line)").fill("Yes");
  await page.getByRole("button", { name: "Create standup" }).click();
  await expect(page.locator("#q-0-choices-error")).toBeVisible();
  await page.getByLabel("Choices for question 1 (one per line)").fill("Yes\nNo");
  await page.getByLabel("Ask each member at this time in their own timezone").check();
  await page.getByRole("button", { name: "Create standup" }).click();
  await page.waitForURL(/\/standups\/\d+\?created=1$/);
  await expect(page.getByText("Standup created.")).toBeVisible();
  await expect(page.getByText("Choices: Yes, No")).toBeVisible();
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Ask each member at this time in their own timezone")).toBeChecked();
  await page.getByLabel("Ask each member at this time in their own timezone").uncheck();
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.waitForURL(/\/standups\/\d+\?saved=1$/);
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Ask each member at this time in their own timezone")).not.toBeChecked();
});

test("item 11: the standup page says '1 member' and keeps delivery details behind a toggle", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/standups/new`);
  const name = `E2E one member ${uniqueSuffix()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.locator("#day-Mon").check();
  await page.getByLabel("Broadcast channel").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Create standup" }).click();
  await page.waitForURL(/\/standups\/\d+\?created=1$/);
  await expect(page.getByText(/· 1 member$/)).toBeVisible();
  await expect(page.getByText("1 members")).toHaveCount(0);
  const delivery = page.getByTestId("delivery-details");
  await expect(delivery).not.toHaveAttribute("open", "");
  await delivery.locator("summary").click();
  await expect(delivery).toHaveAttribute("open", "");
});
