/**
 * Issue 41 ("the defects a team meets in its first week") in the browser, on the demo data:
 * - the manager role: a person the admin makes manager on Team → Members reads Overview (open
 *   blockers), Blockers, Participation (a member's page with reports), Reports and every CSV export
 *   with non-empty results;
 * - an answer on a day the standup does not run: the answer page says it is an ad-hoc report
 *   before the person writes, and no run appears on the Overview or the standup page;
 * - Duplicate makes a paused copy that says so and offers Activate;
 * - a deactivated person's past reports keep their name.
 * People are invited by the spec itself (never the demo's own accounts, which other specs use).
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { BASE_URL, screenshot, signIn, uniqueSuffix } from "./helpers";

test.describe.configure({ mode: "serial", timeout: 120_000 });

const PASSWORD = "first-week-password-1";
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Invites a person from Team → Members as the signed-in admin and returns the one-time link. */
async function invite(page: Page, name: string, email: string): Promise<string> {
  await page.goto(`${BASE_URL}/team/members`);
  const form = page.getByTestId("invite-form");
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("E-mail").fill(email);
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(form.getByText(`${email} is invited`)).toBeVisible();
  return form.getByTestId("one-time-link").inputValue();
}

/** Accepts an invitation in a new browser context and signs in; returns that context's page. */
async function join(browser: Browser, link: string, name: string, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: /^Join / })).toBeVisible();
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat the password").fill(PASSWORD);
  await page.getByRole("button", { name: "Join the team" }).click();
  await page.waitForURL(/\/sign-in\?notice=welcome/);
  await signIn(page, { email, password: PASSWORD });
  return page;
}

/**
 * Signs in as the demo admin on `page`, invites "`fullName` <suffix>" (e-mail `<first name>-<suffix>@acme.test`)
 * and lets them join in a new browser context; returns the suffix, name, e-mail and their signed-in page.
 */
async function newPerson(page: Page, browser: Browser, fullName: string) {
  const suffix = uniqueSuffix();
  const name = `${fullName} ${suffix}`;
  const email = `${fullName.split(" ")[0].toLowerCase()}-${suffix}@acme.test`;
  await signIn(page);
  const link = await invite(page, name, email);
  return { suffix, name, email, page: await join(browser, link, name, email) };
}

/** Creates a standup on `days` with the given extra members (by name); returns its id. */
async function createStandup(page: Page, name: string, days: string[], members: string[] = []): Promise<number> {
  await page.goto(`${BASE_URL}/standups/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  for (const d of WEEKDAYS) {
    const box = page.locator(`#day-${d}`);
    if (days.includes(d)) await box.check();
    else await box.uncheck();
  }
  await page.getByLabel("Broadcast channel").selectOption({ index: 1 });
  for (const m of members) await page.getByLabel(m, { exact: true }).check();
  await page.getByRole("button", { name: "Create standup" }).click();
  await page.waitForURL((url) => /\/standups\/\d+$/.test(url.pathname)); // then ?created=1
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  return Number(/\/standups\/(\d+)/.exec(page.url())?.[1]);
}

/** Fills every text box of the open answer form with `marker` and sends it. */
async function sendAnswers(page: Page, marker: string): Promise<void> {
  const boxes = page.getByRole("textbox");
  const count = await boxes.count();
  for (let i = 0; i < count; i++) await boxes.nth(i).fill(`${marker} ${i + 1}`);
  await page.getByRole("button", { name: "Send report" }).click();
  await page.waitForURL(/\/my-checkins\?saved=1$/);
}

/** Data rows (header excluded) of a CSV download read with the page's session. */
async function csvRows(page: Page, path: string): Promise<number> {
  const res = await page.request.get(`${BASE_URL}${path}`);
  expect(res.status(), path).toBe(200);
  const lines = (await res.text()).split("\r\n").filter((l) => l.trim() !== "");
  return lines.length - 1;
}

test("a manager reads Overview, Blockers, Participation, Reports and every export with results", async ({ page, browser }) => {
  const { name, email, page: manager } = await newPerson(page, browser, "Mona Manager");

  const row = page.getByTestId("person-row").filter({ hasText: email });
  await page.reload();
  await row.getByLabel(`Role of ${name}`, { exact: true }).selectOption("manager");
  await row.getByRole("button", { name: `Save role of ${name}` }).click();
  await expect(row.getByText("Role saved.")).toBeVisible();

  // Overview: open blockers counted (not compared with the admin's: other specs answer blocker
  // questions meanwhile, and the admin also reads a confidential standup of their own).
  await manager.goto(`${BASE_URL}/overview`);
  const managerBlockers = Number((await manager.getByTestId("open-blockers").locator("a").textContent())?.trim());
  expect(managerBlockers).toBeGreaterThan(0);
  await expect(manager.getByText("Nobody is blocked")).toHaveCount(0);
  await screenshot(manager, "first-week-manager-overview");

  await manager.goto(`${BASE_URL}/blockers`);
  await expect(manager.getByTestId("blocker-item").first()).toBeVisible();
  await expect(manager.getByText("Nobody is blocked")).toHaveCount(0);

  await manager.goto(`${BASE_URL}/participation`);
  const members = manager.getByTestId("participation-members");
  await expect(members.getByRole("link").first()).toBeVisible();
  await members.getByRole("link").first().click();
  await manager.waitForURL(/\/members\/[^/]+$/);
  await expect(manager.getByTestId("member-standups")).toBeVisible();
  await expect(manager.getByText("No reports you can read in the last 90 days")).toHaveCount(0);
  await expect(manager.getByTestId("report-card").first()).toBeVisible();

  await manager.goto(`${BASE_URL}/reports`);
  await expect(manager.getByTestId("report-card").first()).toBeVisible();

  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const window = `since=${monthAgo}&until=${today}`;
  expect(await csvRows(manager, `/exports/reports.csv?${window}&format=answers`)).toBeGreaterThan(0);
  expect(await csvRows(manager, `/exports/reports.csv?${window}&format=reports`)).toBeGreaterThan(0);
  expect(await csvRows(manager, `/exports/participation.csv?${window}&per=occurrence`)).toBeGreaterThan(0);
  expect(await csvRows(manager, `/exports/participation.csv?${window}&per=member`)).toBeGreaterThan(0);
  await manager.context().close();
});

test("an answer on a day the standup does not run says so first and opens no run", async ({ page }) => {
  await signIn(page);
  const name = `E2E off-day ${uniqueSuffix()}`;
  // Runs on none of yesterday, today and tomorrow (UTC), so today is off in any timezone.
  const day = new Date().getUTCDay();
  const off = new Set([(day + 6) % 7, day, (day + 1) % 7].map((i) => WEEKDAYS[i]));
  const id = await createStandup(
    page,
    name,
    WEEKDAYS.filter((d) => !off.has(d)),
  );
  await page.goto(`${BASE_URL}/my-checkins`);
  await expect(page.getByTestId("my-checkin").filter({ hasText: name })).toContainText("Not scheduled today");
  await page.getByRole("link", { name: `Answer ${name}` }).click();
  await page.waitForURL(/\/my-checkins\/\d+$/);
  await expect(page.getByTestId("answer-target")).toContainText("no run today");
  await expect(page.getByTestId("answer-target")).toContainText("ad-hoc report");
  await screenshot(page, "first-week-adhoc-answer");
  const marker = `adhoc-${uniqueSuffix()}`;
  await sendAnswers(page, marker);

  // Listed like any report …
  await page.goto(`${BASE_URL}/reports?standup=${id}`);
  await expect(page.getByTestId("report-card").filter({ hasText: marker })).toHaveCount(1);
  // … but no run: not on the Overview's today or this week, no participation on the standup page.
  await page.goto(`${BASE_URL}/overview`);
  await expect(page.getByTestId("today-table")).not.toContainText(name);
  await expect(page.getByRole("table", { name: "This week’s occurrences and their participation" })).not.toContainText(name);
  await page.goto(`${BASE_URL}/standups/${id}`);
  // Participation, latest occurrences and message delivery: each "No occurrences yet".
  await expect(page.getByText("No occurrences yet")).toHaveCount(3);
  await expect(page.getByTestId("participation-chart")).toHaveCount(0);
});

test("Duplicate makes a paused copy that says so and offers Activate", async ({ page }) => {
  await signIn(page);
  const name = `E2E duplicate ${uniqueSuffix()}`;
  await createStandup(page, name, WEEKDAYS);
  await page.getByRole("button", { name: "Duplicate" }).click();
  await page.waitForURL(/\/standups\/\d+\?copied=1$/);
  await expect(page.getByRole("heading", { name: `${name} (copy)`, level: 1 })).toBeVisible();
  await expect(page.getByText("Paused", { exact: true })).toBeVisible();
  await expect(page.getByTestId("copy-notice")).toContainText("paused");
  await expect(page.getByTestId("next-run")).toContainText("Paused");
  await screenshot(page, "first-week-duplicate");
  await page.getByRole("button", { name: "Activate" }).click();
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByTestId("copy-notice")).toHaveCount(0);
});

test("a deactivated person's past reports keep their name", async ({ page, browser }) => {
  const { suffix, name, email, page: dora } = await newPerson(page, browser, "Dora Leaver");
  const standup = `E2E leaver ${suffix}`;
  const id = await createStandup(page, standup, WEEKDAYS, [name]);

  await dora.goto(`${BASE_URL}/my-checkins`);
  await dora.getByRole("link", { name: `Answer ${standup}` }).click();
  await dora.waitForURL(/\/my-checkins\/\d+$/);
  const marker = `leaver-${suffix}`;
  await sendAnswers(dora, marker);
  await dora.context().close();

  await page.goto(`${BASE_URL}/team/members`);
  const row = page.getByTestId("person-row").filter({ hasText: email });
  page.once("dialog", (d) => void d.accept());
  await row.getByRole("button", { name: `Deactivate ${name}` }).click();
  await expect(row.getByText(/Deactivated/).first()).toBeVisible();

  await page.goto(`${BASE_URL}/reports?standup=${id}`);
  const card = page.getByTestId("report-card").filter({ hasText: marker });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(name);
  await screenshot(page, "first-week-deactivated-author");
});
