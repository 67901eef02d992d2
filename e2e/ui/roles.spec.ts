import { expect, test } from "@playwright/test";
import { BASE_URL, demoCredentials, demoMemberAccount, signIn } from "./helpers";

test("a member sees the team but cannot manage absences", async ({ page }) => {
  await signIn(page, demoMemberAccount());
  await page.goto(`${BASE_URL}/team`);
  await expect(page.getByTestId("member-row").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Add absence" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Remove absence/ })).toHaveCount(0);
});

test("sessions are team-scoped: another team's standups and members never show", async ({ page }) => {
  const creds = demoCredentials();
  await signIn(page);
  await page.goto(`${BASE_URL}/standups`);
  const acmeStandups = await page.getByTestId("standup-card").locator("h2").allTextContents();
  expect(acmeStandups.length).toBeGreaterThan(0);
  const acmeIds = await page
    .getByTestId("standup-card")
    .locator("h2 a")
    .evaluateAll((els) => els.map((e) => e.getAttribute("href")));
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  await signIn(page, { email: creds.api_keys.other_team_member.email, password: creds.dashboard.password });
  await page.goto(`${BASE_URL}/standups`);
  const otherStandups = await page.getByTestId("standup-card").locator("h2").allTextContents();
  for (const name of acmeStandups) expect(otherStandups).not.toContain(name);
  const href = acmeIds[0];
  if (href) {
    await page.goto(`${BASE_URL}${href}`);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  }
  await page.goto(`${BASE_URL}/team`);
  await expect(page.getByTestId("member-row").filter({ hasText: creds.dashboard.email })).toHaveCount(0);
});
