import { expect, test } from "@playwright/test";
import { BASE_URL, screenshot, signIn, uniqueSuffix } from "./helpers";

/**
 * Issue 41 item 12: question types in the browser. A standup created from the "Mood" template
 * (rating, optional multi-select, optional text) plus a number question, answered from My
 * check-ins (rating radio, multi-select boxes, number, optional text left empty), and the rating
 * drawn on Participation.
 */
test.describe.configure({ timeout: 150_000 });

test("create a standup from a template, answer rating, number, multi-select and optional questions, see the rating chart", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/standups/new`);
  await page
    .getByRole("navigation", { name: "Templates" })
    .getByRole("link", { name: /^Mood\b/ })
    .click();
  await page.waitForURL(/template=mood$/);
  // The template pre-fills the form: its name and typed questions.
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Mood");
  await expect(page.getByLabel("Question 1", { exact: true })).toHaveValue("How are you feeling today?");
  await expect(page.locator("#q-0-type")).toHaveValue("rating");
  await expect(page.locator("#q-1-type")).toHaveValue("multi_select");
  await expect(page.locator("#q-1-optional")).toBeChecked();

  const name = `E2E mood ${uniqueSuffix()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add question" }).click();
  await page.getByLabel("Question 4", { exact: true }).fill("Hours of focus today?");
  await page.locator("#q-3-type").selectOption("number");
  for (const d of ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]) await page.locator(`#day-${d}`).check();
  await page.getByLabel("Broadcast channel").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Create standup" }).click();
  await page.waitForURL(/\/standups\/\d+\?created=1$/);
  const id = Number(/\/standups\/(\d+)/.exec(page.url())?.[1]);
  await expect(page.getByText("Rating 1–5: Awful … Great")).toBeVisible();
  await expect(page.getByText("Pick any: Workload, Team, Progress, Health, Life outside work · optional")).toBeVisible();

  await page.goto(`${BASE_URL}/my-checkins`);
  await page.getByRole("link", { name: `Answer ${name}` }).click();
  await page.waitForURL(/\/my-checkins\/\d+$/);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Send report" }) });
  await form.getByLabel("4 – Good").check();
  await form.getByLabel("Workload").check();
  await form.getByLabel("Team", { exact: true }).check();
  await form.getByLabel(/Hours of focus today\?/).fill("6.5");
  // "Anything you would like to share?" is optional: left empty.
  await expect(form.getByLabel(/Anything you would like to share\?/)).not.toHaveAttribute("required", "");
  await screenshot(page, "question-types-answer");
  await page.getByRole("button", { name: "Send report" }).click();
  await page.waitForURL(/\/my-checkins\?saved=1$/);

  await page.goto(`${BASE_URL}/reports?standup=${id}`);
  const card = page.getByTestId("report-card").first();
  await expect(card).toContainText("6.5");
  await expect(card).toContainText("Workload");

  await page.goto(`${BASE_URL}/participation?standup=${id}`);
  const chart = page.locator('[data-testid="choice-trend-chart"][data-answer-type="rating"]');
  await expect(chart).toHaveCount(1);
  await expect(chart.locator("svg.recharts-surface").first()).toBeVisible();
  const table = page.getByTestId("choice-trend").filter({ hasText: "4 – Good" });
  await expect(table.getByRole("columnheader", { name: "Average" })).toBeVisible();
  await expect(table.locator("tbody tr").filter({ hasText: "1 (100%)" })).toHaveCount(1);
  await expect(page.locator('[data-testid="choice-trend-chart"][data-answer-type="multi_select"]')).toHaveCount(1);
  await screenshot(page, "question-types-participation");
});
