import { expect, test } from "@playwright/test";
import { BASE_URL, screenshot, startNewPoll } from "./helpers";

test("create a one-shot poll and read its results", async ({ page }) => {
  test.setTimeout(120_000);
  const name = await startNewPoll(page, "E2E poll", "Where should we have lunch?");
  await page.getByLabel("Choices (one per line, at least two)").fill("Pizza\nSushi\nTacos");
  await page.getByLabel("Channel", { exact: true }).selectOption({ index: 1 });
  await page.getByLabel("Open for (minutes, optional)").fill("60");
  await page.getByRole("button", { name: "Create poll" }).click();
  await page.waitForURL(/\/polls\/\d+$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();

  const question = page.getByTestId("poll-question").filter({ hasText: "Where should we have lunch?" });
  await expect(question).toHaveCount(1);
  await expect(question.getByTestId("votes-chart")).toBeVisible();
  const rows = question.getByTestId("votes-table").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("Pizza");
  await expect(rows.nth(1)).toContainText("Sushi");
  await expect(rows.nth(2)).toContainText("Tacos");
  await screenshot(page, "poll-results");

  await page.goto(`${BASE_URL}/polls`);
  await expect(page.getByTestId("poll-card").filter({ hasText: name })).toHaveCount(1);
  await page.goto(`${BASE_URL}/channels`);
  await expect(page.getByTestId("channel-message").first()).toContainText("Poll");
});
