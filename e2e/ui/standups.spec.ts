import { expect, type Page, test } from "@playwright/test";
import { BASE_URL, screenshot, signIn, uniqueSuffix } from "./helpers";

const ALL_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Creates a standup running every day with the given extra members; returns its id. */
async function createStandup(page: Page, name: string, extraMembers: string[] = []): Promise<number> {
  await page.goto(`${BASE_URL}/standups/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add question" }).click();
  await page.getByLabel("Question 4", { exact: true }).fill("How do you feel?");
  await page.locator("#q-3-type").selectOption("multiple_choice");
  await page.getByLabel("Choices for question 4 (one per line)").fill("Great\nOkay\nTired");
  for (const d of ALL_DAYS) await page.locator(`#day-${d}`).check();
  await page.getByLabel("Broadcast channel").selectOption({ index: 1 });
  for (const m of extraMembers) await page.getByLabel(m, { exact: true }).check();
  await page.getByRole("button", { name: "Create standup" }).click();
  await page.waitForURL(/\/standups\/\d+\?created=1$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  // Issue 41 item 11: creating says so.
  await expect(page.getByText("Standup created.")).toBeVisible();
  return Number(/\/standups\/(\d+)/.exec(page.url())?.[1]);
}

/** Answers a standup from My check-ins with a marker text in every text answer. */
async function answerStandup(page: Page, name: string, marker: string): Promise<void> {
  await page.goto(`${BASE_URL}/my-checkins`);
  await page.getByRole("link", { name: `Answer ${name}` }).click();
  await page.waitForURL(/\/my-checkins\/\d+$/);
  await expect(page.getByRole("button", { name: "Send report" })).toBeVisible();
  const boxes = page.getByRole("textbox");
  const count = await boxes.count();
  for (let i = 0; i < count; i++) await boxes.nth(i).fill(`${marker} answer ${i + 1}`);
  await page.getByLabel("Great").check();
  await screenshot(page, "my-checkins-answer");
  await page.getByRole("button", { name: "Send report" }).click();
  await page.waitForURL(/\/my-checkins\?saved=1$/);
  await expect(page.getByTestId("my-checkin").filter({ hasText: name })).toContainText("Answered today");
}

/** Today's row of the participation data table on a standup page: [responded, expected, excused, rate]. */
async function latestParticipation(page: Page, id: number): Promise<string[]> {
  await page.goto(`${BASE_URL}/standups/${id}`);
  await expect(page.getByTestId("participation-chart")).toBeVisible();
  await page.getByText("Show data as a table").click();
  const row = page.getByTestId("participation-table").locator("tbody tr").last();
  return (await row.locator("td").allTextContents()).slice(1);
}

test.describe.configure({ mode: "serial", timeout: 90_000 });

test("create a standup, answer it in the browser, see it in the reports feed and the participation chart", async ({ page }) => {
  await signIn(page);
  const name = `E2E standup ${uniqueSuffix()}`;
  const id = await createStandup(page, name);
  await screenshot(page, "standup-created");

  const marker = `marker-${uniqueSuffix()}`;
  await answerStandup(page, name, marker);

  await page.goto(`${BASE_URL}/reports?standup=${id}`);
  const card = page.getByTestId("report-card").filter({ hasText: marker });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(`${marker} answer 1`);
  await expect(card).toContainText("Great");

  const [responded, expected, , rate] = await latestParticipation(page, id);
  expect(responded).toBe("1");
  expect(expected).toBe("1");
  expect(rate).toBe("100%");
  await screenshot(page, "standup-participation");

  // Edit, then delete the report.
  await page.goto(`${BASE_URL}/my-checkins`);
  await page.getByRole("link", { name: `Edit today's report for ${name}` }).click();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeVisible();
  await page.getByRole("textbox").first().fill(`${marker} edited`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.waitForURL(/saved=1/);
  await page.goto(`${BASE_URL}/reports?standup=${id}`);
  await expect(page.getByTestId("report-card").filter({ hasText: `${marker} edited` })).toHaveCount(1);
  await page.goto(`${BASE_URL}/my-checkins`);
  // Deleting asks first (window.confirm): accept it.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Delete today's report for ${name}` }).click();
  await page.waitForURL(/deleted=1/);
  await page.goto(`${BASE_URL}/reports?standup=${id}`);
  await expect(page.getByText("No reports match these filters")).toBeVisible();
});

test("pause, resume, duplicate and delete a standup", async ({ page }) => {
  await signIn(page);
  const name = `E2E admin ${uniqueSuffix()}`;
  const id = await createStandup(page, name);
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("button", { name: "Save changes" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(`${name} renamed`);
  await page.getByLabel("Question 1", { exact: true }).fill("What shipped?");
  await page.getByLabel("Anonymous: reports are shown without names").check();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { name: `${name} renamed`, level: 1 })).toBeVisible();
  await expect(page.getByText("What shipped?")).toBeVisible();
  await expect(page.getByText("Anonymous", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
  await page.getByRole("button", { name: "Duplicate" }).click();
  await page.waitForURL((url) => /\/standups\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${id}`));
  const copyId = Number(/\/standups\/(\d+)/.exec(page.url())?.[1]);
  expect(copyId).not.toBe(id);
  await page.getByText("Delete this standup…").click();
  await page.getByRole("button", { name: "Delete standup" }).click();
  // Issue 41 item 11: deleting says so.
  await page.waitForURL(/\/standups\?deleted=1$/);
  await expect(page.getByText("Standup deleted.")).toBeVisible();
  await page.goto(`${BASE_URL}/standups/${copyId}`);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test("add a vacation and see the participation change", async ({ page }) => {
  await signIn(page);
  // A member with no upcoming absence.
  await page.goto(`${BASE_URL}/team`);
  const freeRow = page.getByTestId("member-row").filter({ hasText: "None" }).filter({ hasNotText: "Admin" }).first();
  const member = ((await freeRow.locator("td").first().locator("span").first().textContent()) ?? "").trim();
  expect(member).not.toBe("");

  const name = `E2E vacation ${uniqueSuffix()}`;
  const id = await createStandup(page, name, [member]);
  await answerStandup(page, name, `vac-${uniqueSuffix()}`);
  const before = await latestParticipation(page, id);
  expect(before[0]).toBe("1");
  expect(before[1]).toBe("2");
  expect(before[3]).toBe("50%");

  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  await page.goto(`${BASE_URL}/team`);
  await page.getByLabel("Member", { exact: true }).selectOption({ label: member });
  await page.getByLabel("Kind").selectOption("vacation");
  await page.getByLabel("First day").fill(day(-1));
  await page.getByLabel("Last day").fill(day(1));
  await page.getByRole("button", { name: "Add absence" }).click();
  await expect(page.getByText("Absence added.")).toBeVisible();
  await expect(page.getByTestId("member-row").filter({ hasText: member })).toContainText("Vacation");
  await screenshot(page, "team-vacation-added");

  const after = await latestParticipation(page, id);
  expect(after[0]).toBe("1");
  expect(after[1]).toBe("1");
  expect(after[2]).toBe("1");
  expect(after[3]).toBe("100%");
  const memberRow = page.getByTestId("heatmap").locator("tr").filter({ hasText: member });
  await expect(memberRow.locator("td").last()).toHaveAttribute("data-status", "excused");
  await screenshot(page, "standup-vacation-heatmap");
});

test("issue 49: a standup page lists the runs first and one page of messages, older ones on demand", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto(`${BASE_URL}/standups`);
  const hrefs = await page
    .getByTestId("standup-card")
    .locator("h2 a")
    .evaluateAll((els) => els.map((e) => e.getAttribute("href") as string));
  // the seeded standup with the longest message history (more than one page)
  let href: string | undefined;
  for (const h of hrefs) {
    await page.goto(`${BASE_URL}${h}`);
    if ((await page.getByTestId("delivery-older").count()) > 0) {
      href = h;
      break;
    }
  }
  expect(href, "a seeded standup with more than one page of messages").toBeDefined();
  const html = await (await page.request.get(`${BASE_URL}${href}`)).text();
  const height = await page.evaluate(() => document.body.scrollHeight);
  console.log(`standup page ${href}: ${Buffer.byteLength(html)} bytes of HTML, ${height} px tall at 1440 px`);
  expect(Buffer.byteLength(html)).toBeLessThan(300_000);

  // What a manager reads first comes first: the latest runs' member states, before the delivery list.
  const runsFirst = await page.evaluate(() => {
    const runs = document.querySelector('[data-testid="occurrence-states"]');
    const delivery = document.querySelector('[data-testid="delivery-details"]');
    return runs !== null && delivery !== null && (runs.compareDocumentPosition(delivery) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  });
  expect(runsFirst).toBe(true);
  await expect(page.getByTestId("occurrence-tally").first()).toHaveText(/^\d+ of \d+ answered/);

  const details = page.getByTestId("delivery-details");
  await expect(details).not.toHaveAttribute("open", "");
  await details.locator("summary").click();
  const rows = details.getByTestId("delivery-message");
  const idsOf = () => rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-message-id"))));
  const newest = await idsOf();
  expect(newest).toHaveLength(20);

  await details.getByRole("link", { name: "Show older messages" }).click();
  await page.waitForURL(/[?&]deliveries=\d+/);
  await expect(details).toHaveAttribute("open", "");
  // the navigation replaces the rows: wait until the newest ones are gone
  await expect.poll(async () => (await idsOf()).filter((id) => newest.includes(id)).length).toBe(0);
  const older = await idsOf();
  expect(older.length).toBeGreaterThan(0);
  expect(older.length).toBeLessThanOrEqual(20);
  expect(Math.max(...older)).toBeLessThan(Math.min(...newest));

  await details.getByRole("link", { name: "Newest messages" }).click();
  await page.waitForURL(/[?&]deliveries=latest/);
  await expect(details).toHaveAttribute("open", "");
  await expect.poll(idsOf).toEqual(newest);
});
