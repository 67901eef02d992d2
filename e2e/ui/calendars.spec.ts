/**
 * Calendars on the dashboard (issue 48): the Profile's Calendars card refuses a private address in
 * the field's words (ICS address and CalDAV account), and Team → Holidays shows the holiday-feed
 * form and lets an admin change the words that mark an absence (then restores the defaults) and
 * switch the busy all-day option on and off. The refresh itself is covered against
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

test("Profile → Calendars: a CalDAV account on a private address is refused in plain words; the password field is masked", async ({
  page,
}) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/profile`);
  const form = page.getByTestId("caldav-account-form");
  await expect(form.getByLabel("Password or app password")).toHaveAttribute("type", "password");
  await form.getByLabel("CalDAV server address").fill("http://127.0.0.1:9/remote.php/dav");
  await form.getByLabel("User name").fill("alice");
  await form.getByLabel("Password or app password").fill("app-password-123");
  await form.getByRole("button", { name: "Add CalDAV account" }).click();
  await expect(form.getByText(/^CalDAV server address: this address leads to a private or local network \(127\.0\.0\.1\)/)).toBeVisible();
  await expect(page.locator("main")).not.toContainText(/WEBHOOKS_ALLOW_PRIVATE|serverUrl:/);
  await expect(page.getByTestId("calendar-feed")).toHaveCount(0);
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
  const busy = page.getByTestId("busy-all-day-form");
  await expect(busy.getByLabel(/Busy all-day events/)).not.toBeChecked();
  await busy.getByLabel(/Busy all-day events/).check();
  await busy.getByRole("button", { name: "Save" }).click();
  await expect(busy.getByText("Busy all-day events now excuse people.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("busy-all-day-form").getByLabel(/Busy all-day events/)).toBeChecked();
  await page
    .getByTestId("busy-all-day-form")
    .getByLabel(/Busy all-day events/)
    .uncheck();
  await page.getByTestId("busy-all-day-form").getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("busy-all-day-form").getByText("Only the words above mark an absence now.")).toBeVisible();
  await expectAccessibleScreenshot(page, "team-holidays-calendars");
  await words.getByLabel(/Words that mark an absence/).fill("");
  await words.getByRole("button", { name: "Save words" }).click();
  await expect(words.getByText(/^Calendar words saved: vacation, OOO, out of office, Urlaub, congé, holiday\.$/)).toBeVisible();
});
