/**
 * The asking loop on the dashboard (issue 10): asking settings and the Asia/Kolkata zone through
 * create and edit, the next run on the standup page and list, Ask now (everyone, chosen members,
 * refused while paused), each member's state in the latest occurrence, the pending date on My
 * check-ins, and team holidays added and removed.
 */
import { expect, type Page, test } from "@playwright/test";
import { BASE_URL, expectAccessibleScreenshot, expectNoSeriousA11yViolations, signIn, uniqueSuffix } from "./helpers";

const ALL_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** "Friday 20 Nov" for today's local date in `timeZone` (how occurrence dates are written). */
function occurrenceDateToday(timeZone: string): string {
  const now = new Date();
  const weekday = now.toLocaleDateString("en-GB", { weekday: "long", timeZone });
  const day = now.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone });
  return `${weekday} ${day}`;
}

/** A team member (not an admin) with no upcoming absence, by the name the Team page shows. */
async function freeMember(page: Page): Promise<string> {
  await page.goto(`${BASE_URL}/team`);
  const row = page.getByTestId("member-row").filter({ hasText: "None" }).filter({ hasNotText: "Admin" }).first();
  const name = ((await row.locator("td").first().locator("span").first().textContent()) ?? "").trim();
  expect(name).not.toBe("");
  return name;
}

test.describe.configure({ mode: "serial", timeout: 120_000 });

test("asking settings and the Kolkata zone survive create and edit; next run, Ask now, member states, My check-ins date", async ({
  page,
}) => {
  await signIn(page);
  const member = await freeMember(page);
  const name = `E2E asking ${uniqueSuffix()}`;

  await page.goto(`${BASE_URL}/standups/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  for (const d of ALL_DAYS) await page.locator(`#day-${d}`).check();
  await page.getByLabel("Timezone").selectOption("Asia/Kolkata");
  await page.getByLabel("Number of reminders").fill("3");
  await page.getByLabel("Minutes before each reminder").fill("30");
  await page.getByLabel("Response window (minutes)").fill("120");
  await page.getByLabel("Late answers allowed for (days)").fill("2");
  await page.getByLabel("Broadcast channel").selectOption({ index: 1 });
  await page.getByLabel(member, { exact: true }).check();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Create standup" }).click();
  await page.waitForURL(/\/standups\/\d+\?created=1$/);
  const id = Number(/\/standups\/(\d+)/.exec(page.url())?.[1]);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId("next-run")).toContainText(/Next run: \w{3} \d{1,2} \w{3}, \d{2}:\d{2} Asia\/Kolkata/);

  // Editing something else keeps the zone and the asking settings.
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Timezone")).toHaveValue("Asia/Kolkata");
  await expect(page.getByLabel("Number of reminders")).toHaveValue("3");
  await page.getByLabel("Name", { exact: true }).fill(`${name} edited`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { name: `${name} edited`, level: 1 })).toBeVisible();
  await expect(page.getByText("(Asia/Kolkata)")).toBeVisible();
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Timezone")).toHaveValue("Asia/Kolkata");
  await expect(page.getByLabel("Number of reminders")).toHaveValue("3");
  await expect(page.getByLabel("Minutes before each reminder")).toHaveValue("30");
  await expect(page.getByLabel("Response window (minutes)")).toHaveValue("120");
  await expect(page.getByLabel("Late answers allowed for (days)")).toHaveValue("2");

  // Manual only: no scheduled run.
  await page.getByLabel("Manual only: members are asked when someone starts it").check();
  await expect(page.getByLabel("Minutes to wait after the scheduled time")).toHaveCount(0);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("next-run")).toContainText("Manual only — runs when started");
  await page.goto(`${BASE_URL}/standups`);
  await expect(
    page
      .getByTestId("standup-card")
      .filter({ hasText: `${name} edited` })
      .getByTestId("next-run"),
  ).toHaveText("Manual only — runs when started");

  // Ask now: everyone, then one chosen member.
  await page.goto(`${BASE_URL}/standups/${id}`);
  const askNow = page.getByTestId("ask-now");
  await askNow.getByRole("button", { name: "Ask now" }).click();
  await expect(askNow.getByText("Asked 2 members.")).toBeVisible();
  await page.reload();
  const latest = page.getByTestId("occurrence-states").first();
  await expect(latest).toContainText(occurrenceDateToday("Asia/Kolkata"));
  await expect(latest.getByTestId("occurrence-member")).toHaveCount(2);
  await expect(latest.getByTestId("occurrence-member").filter({ hasText: member })).toContainText("Pending");
  await page.getByText("Ask chosen members only").click();
  await page.getByTestId("ask-now").getByLabel(member, { exact: true }).check();
  await page.getByTestId("ask-now").getByRole("button", { name: "Ask now" }).click();
  await expect(page.getByTestId("ask-now").getByText("Asked 1 member.")).toBeVisible();
  await expectAccessibleScreenshot(page, "asking-standup-page");

  // My check-ins names the pending occurrence by its date.
  await page.goto(`${BASE_URL}/my-checkins`);
  await expect(page.getByTestId("my-checkin").filter({ hasText: `${name} edited` })).toContainText(
    `Pending for ${occurrenceDateToday("Asia/Kolkata")}`,
  );

  // Paused: Ask now says why nothing happened.
  await page.goto(`${BASE_URL}/standups/${id}`);
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await page.getByTestId("ask-now").getByRole("button", { name: "Ask now" }).click();
  await expect(page.getByTestId("ask-now").getByText("This standup is paused. Resume it before asking its members.")).toBeVisible();
  await expect(page.getByTestId("next-run")).toContainText("Paused");
});

test("team holidays: an admin adds one and removes it after confirming", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/team`);
  await page.getByRole("link", { name: "Team holidays" }).click();
  await page.waitForURL(/\/team\/holidays$/);
  const rand = Math.floor(Math.random() * 12 * 28);
  const date = `2031-${String(1 + Math.floor(rand / 28)).padStart(2, "0")}-${String(1 + (rand % 28)).padStart(2, "0")}`;
  const holiday = `E2E holiday ${uniqueSuffix()}`;
  await page.getByLabel("Date").fill(date);
  await page.getByLabel("Name").fill(holiday);
  await page.getByRole("button", { name: "Add holiday" }).click();
  await expect(page.getByText(`Added ${holiday} on ${date}.`)).toBeVisible();
  const row = page.getByTestId("holiday-row").filter({ hasText: holiday });
  await expect(row).toContainText(date);
  await expectAccessibleScreenshot(page, "team-holidays");

  page.once("dialog", (dialog) => dialog.accept());
  await row.getByRole("button", { name: `Remove holiday ${holiday} on ${date}` }).click();
  await expect(page.getByTestId("holiday-row").filter({ hasText: holiday })).toHaveCount(0);
});
