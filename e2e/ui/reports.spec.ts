import { expect, test } from "@playwright/test";
import { BASE_URL, screenshot, signIn } from "./helpers";

test("reports feed: filters live in the URL and 'Load more' pages with a cursor", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const since = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`${BASE_URL}/reports`);
  await page.getByLabel("From").fill(since);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${since}`));
  await expect(page.getByTestId("report-card").first()).toBeVisible();

  const cards = page.getByTestId("report-card");
  const first = await cards.count();
  const more = page.getByRole("button", { name: "Load more" });
  if (await more.isVisible()) {
    await more.click();
    await expect.poll(() => cards.count()).toBeGreaterThan(first);
    const ids = await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-report-id")));
    expect(new Set(ids).size).toBe(ids.length);
  } else {
    await expect(page.getByText("That is all for this range.")).toBeVisible();
  }

  // A standup filter narrows the feed and survives a reload (it is in the URL).
  const option = page.getByLabel("Standup", { exact: true }).locator("option").nth(1);
  const standupName = ((await option.textContent()) ?? "").trim();
  await page.getByLabel("Standup", { exact: true }).selectOption({ index: 1 });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/standup=\d+/);
  await page.reload();
  await expect(page.getByLabel("Standup", { exact: true })).toHaveValue(/\d+/);
  const names = await page.getByTestId("report-card").locator("h3").allTextContents();
  expect(names.length).toBeGreaterThan(0);
  for (const n of names) expect(n).toContain(standupName);
  await screenshot(page, "reports-filtered");
});

test("anonymous reports never show a name", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/reports?from=${new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10)}`);
  const anonymous = page.getByTestId("report-card").filter({ has: page.getByText("Anonymous", { exact: true }) });
  const count = await anonymous.count();
  for (let i = 0; i < count; i++) await expect(anonymous.nth(i).locator("h3")).toHaveText(/^Anonymous in /);
});
