import { expect, test } from "@playwright/test";
import { BASE_URL, expectAccessibleScreenshot, expectNoSidewaysScroll, signIn } from "./helpers";

test("sign-in page: no serious accessibility violations", async ({ page }) => {
  await page.goto(`${BASE_URL}/sign-in`);
  await expectAccessibleScreenshot(page, "sign-in");
});

test("every dashboard page: no serious accessibility violations, screenshot saved", async ({ page }) => {
  test.setTimeout(480_000);
  await signIn(page);
  await page.goto(`${BASE_URL}/standups`);
  const standupHref = await page.locator('a[href^="/standups/"]').filter({ hasNotText: "New standup" }).first().getAttribute("href");
  await page.goto(`${BASE_URL}/my-checkins`);
  const answerHref = await page.locator('a[href^="/my-checkins/"]').first().getAttribute("href");
  await page.goto(`${BASE_URL}/polls`);
  const pollHref = await page
    .locator('a[href^="/polls/"]')
    .filter({ hasNotText: /New poll|Create a poll/ })
    .first()
    .getAttribute("href", { timeout: 2000 })
    .catch(() => null);

  const pages: Array<[string, string]> = [
    ["overview", "/overview"],
    ["my-checkins", "/my-checkins"],
    ["standups", "/standups"],
    ["standup-new", "/standups/new"],
    ["reports", "/reports"],
    ["polls", "/polls"],
    ["poll-new", "/polls/new"],
    ["team", "/team"],
    ["channels", "/channels"],
    ["api-keys", "/settings/api-keys"],
    ["webhooks", "/settings/webhooks"],
    ["system", "/settings/system"],
  ];
  if (standupHref) pages.push(["standup-detail", standupHref], ["standup-edit", `${standupHref}/edit`]);
  if (answerHref) pages.push(["my-checkin-answer", answerHref]);
  if (typeof pollHref === "string") pages.push(["poll-detail", pollHref]);

  for (const [name, path] of pages) {
    await test.step(name, async () => {
      const response = await page.goto(`${BASE_URL}${path}`);
      expect(response?.status(), path).toBeLessThan(400);
      await expect(page.locator("h1").first()).toBeVisible();
      await expectAccessibleScreenshot(page, name);
    });
  }
});

test("phone width: navigation and pages fit", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  for (const [name, path] of [
    ["phone-overview", "/overview"],
    ["phone-standups", "/standups"],
    ["phone-reports", "/reports"],
  ] as const) {
    await page.goto(`${BASE_URL}${path}`);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expectNoSidewaysScroll(page, path);
    await expectAccessibleScreenshot(page, name);
  }
});

test("keyboard: skip link first, then the main navigation", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/overview`);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  // Navigation links are reachable with Tab and open with Enter.
  await page.goto(`${BASE_URL}/overview`);
  const standups = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Standups" });
  for (let i = 0; i < 12 && !(await standups.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(standups).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/standups$/);
  await expect(page.getByRole("link", { name: "Standups" })).toHaveAttribute("aria-current", "page");
});
