/**
 * Calendars on the dashboard (issue 48): the Profile's Calendars card refuses a private address in
 * the field's words, and Team → Holidays shows the holiday-feed form and lets an admin change the
 * words that mark an absence (then restores the defaults). The refresh itself is covered against
 * the ICS fake in tests/calendars.test.ts.
 */
import { expect, test } from "@playwright/test";
import { BASE_URL, expectAccessibleScreenshot, signIn } from "./helpers";

test.describe.configure({ mode: "serial", timeout: 120_000 });

test("Profile → Calendars: a private ICS address is refused in plain words", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/profile`);
  const form = page.getByTestId("calendar-feed-form");
  await form.getByLabel("ICS address").fill("http://127.0.0.1:9/secret-abc.ics");
  await form.getByRole("button", { name: "Add calendar" }).click();
  await expect(form.getByText(/^ICS address: this address leads to a private or local network \(127\.0\.0\.1\)/)).toBeVisible();
  await expect(page.locator("main")).not.toContainText(/WEBHOOKS_ALLOW_PRIVATE|url:/);
  await expect(page.getByTestId("calendar-feed")).toHaveCount(0);
  await expectAccessibleScreenshot(page, "profile-calendars");
});

test("Team → Holidays: admins set the calendar words and see the holiday-feed form", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/team/holidays`);
  await expect(page.getByTestId("holiday-feed-form").getByLabel("Holidays ICS address")).toBeVisible();
  const words = page.getByTestId("absence-words-form");
  await expect(words.getByLabel(/Words that mark an absence/)).toHaveValue(/vacation, OOO, out of office/);
  await words.getByLabel(/Words that mark an absence/).fill("vacation, OOO, Elternzeit");
  await words.getByRole("button", { name: "Save words" }).click();
  await expect(words.getByText("Calendar words saved: vacation, OOO, Elternzeit.")).toBeVisible();
  await expectAccessibleScreenshot(page, "team-holidays-calendars");
  await words.getByLabel(/Words that mark an absence/).fill("");
  await words.getByRole("button", { name: "Save words" }).click();
  await expect(words.getByText(/^Calendar words saved: vacation, OOO, out of office, Urlaub, congé, holiday\.$/)).toBeVisible();
});
