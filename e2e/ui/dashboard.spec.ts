/**
 * The manager's dashboard (issue 16) in Chromium on the demo data: Overview, Blockers,
 * Participation, member page, grouped reports with search and delete/undo, the blocker flag in
 * the standup form, /docs; every view is checked with axe and saved as a screenshot
 * (test-results/screenshots/), at desktop width, at phone width (390 px, nothing scrolls
 * sideways) and in dark mode (system setting).
 */
import { expect, test } from "@playwright/test";
import {
  BASE_URL,
  demoCredentials,
  expectAccessibleScreenshot,
  expectNoSeriousA11yViolations,
  expectNoSidewaysScroll,
  screenshot,
  signIn,
  uniqueSuffix,
} from "./helpers";

test("overview answers the manager's questions: who has not answered, who is blocked, this week vs last week", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`${BASE_URL}/overview`);
  await expect(page.getByRole("heading", { name: /^Today/ })).toBeVisible();
  await expect(page.getByTestId("week-rate")).toHaveText(/\d+%|—/);
  await expect(page.getByTestId("last-week-rate")).toContainText("last week");
  await expect(page.getByTestId("open-blockers")).toHaveText(/^\d+$/);
  const blockers = Number(await page.getByTestId("open-blockers").textContent());
  if (blockers > 0) await expect(page.getByTestId("blocker-item").first()).toBeVisible();
  if ((await page.getByTestId("today-table").count()) > 0) {
    await expect(page.getByTestId("today-table").locator("tbody tr").first()).toBeVisible();
  }
  await expectAccessibleScreenshot(page, "dashboard-overview");
});

test("blockers: open blockers with how long, resolve and reopen", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`${BASE_URL}/blockers?status=all&days=90`);
  const items = page.getByTestId("blocker-item");
  await expect(items.first()).toBeVisible();
  // The demo's "Anything blocking you?" answers that say no ("None 👍", "No blockers.") never appear.
  const texts = await items.locator("p.whitespace-pre-wrap").allTextContents();
  for (const t of texts) expect(t.trim()).not.toMatch(/^(no|none|nope|nothing|all good)\b[\s\S]{0,25}$/i);
  await expectAccessibleScreenshot(page, "dashboard-blockers-all");

  await page.goto(`${BASE_URL}/blockers`);
  const open = page.getByTestId("blocker-item");
  if ((await open.count()) === 0) return;
  const first = open.first();
  const text = (await first.locator("p.whitespace-pre-wrap").textContent()) ?? "";
  // The button posts a server action; navigating before it answers would abort it.
  const saved = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/blockers");
  await first.getByRole("button", { name: "Mark as resolved" }).click();
  expect((await saved).ok()).toBe(true);
  await page.goto(`${BASE_URL}/blockers?status=resolved&days=90`);
  const resolved = page.getByTestId("blocker-item").filter({ hasText: text });
  await expect(resolved.first()).toContainText("Resolved by");
  await screenshot(page, "dashboard-blockers-resolved");
  await resolved.first().getByRole("button", { name: "Mark as not resolved" }).click();
  await expect(page.getByTestId("blocker-item").filter({ hasText: text })).toHaveCount(0);
});

test("participation: ranges in the URL, per standup and per member tables, a clear error for a reversed range, member page", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`${BASE_URL}/participation`);
  await page.getByRole("link", { name: "90 days" }).click();
  await expect(page).toHaveURL(/days=90/);
  await expect(page.getByTestId("participation-standups").locator("tbody tr").first()).toBeVisible();
  await expect(page.getByTestId("participation-members").locator("tbody tr").first()).toBeVisible();
  await expect(page.getByTestId("participation-chart")).toBeVisible();
  await expect(page.getByTestId("choice-trend").first()).toBeVisible();
  // Multiple-choice trends are drawn too (stacked shares per week), above their table.
  await expect(page.getByTestId("choice-trend-chart").first().locator("svg.recharts-surface").first()).toBeVisible();
  await expectAccessibleScreenshot(page, "dashboard-participation-90d");

  await page.getByLabel("From").fill("2026-11-20");
  await page.getByLabel("To").fill("2026-11-01");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "start date" })).toHaveText("The start date must be on or before the end date");
  await expect(page.getByLabel("From")).toHaveValue("2026-11-20");

  await page.goto(`${BASE_URL}/participation?days=30`);
  const member = page.getByTestId("participation-members").locator("tbody a").first();
  const name = (await member.textContent()) ?? "";
  await member.click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("member-rate")).toHaveText(/\d+%|—/);
  await expect(page.getByTestId("member-standups")).toBeVisible();
  await expectAccessibleScreenshot(page, "dashboard-member");
});

test("reports: grouped by run with who did not answer, full-text search, exports with the same filters", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`${BASE_URL}/reports`);
  await expect(page.getByTestId("report-group").first()).toBeVisible();
  await expect(page.getByTestId("roll-call").first()).toContainText("answered");
  await screenshot(page, "dashboard-reports-grouped");

  await page.getByLabel("Search answers").fill("staging");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=staging/);
  const cards = page.getByTestId("report-card");
  await expect(cards.first()).toBeVisible();
  for (const text of await cards.allTextContents()) expect(text.toLowerCase()).toContain("staging");
  const exportHref = await page.getByRole("link", { name: "Export answers (CSV)" }).getAttribute("href");
  expect(exportHref).toContain("q=staging");
  const csv = await page.request.get(`${BASE_URL}${exportHref}`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect((await csv.text()).toLowerCase()).toContain("staging");
  await expectAccessibleScreenshot(page, "dashboard-reports-search");
});

test("reports: deleting one's own report asks first and can be undone", async ({ page, request }) => {
  test.setTimeout(180_000);
  const { key } = demoCredentials().api_keys.admin;
  const me = (await (await request.get(`${BASE_URL}/v1/me`, { headers: { Authorization: key } })).json()) as {
    user: { id: number };
  };
  const created = await request.post(`${BASE_URL}/v2/standups`, {
    headers: { Authorization: key, "Content-Type": "application/json" },
    data: {
      name: `Undo ${uniqueSuffix()}`,
      questions: [{ text: "What did you do?" }],
      days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
      time: "09:00",
      broadcast_channel: "#general",
      users: [me.user.id],
    },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const { id } = ((await created.json()) as { data: { id: number } }).data;
  const standup = (
    (await (await request.get(`${BASE_URL}/v2/standups/${id}?include=questions`, { headers: { Authorization: key } })).json()) as {
      data: { id: number; questions: Array<{ id: number }> };
    }
  ).data;
  const marker = `undo-${uniqueSuffix()}`;
  const report = await request.post(`${BASE_URL}/v2/reports`, {
    headers: { Authorization: key, "Content-Type": "application/json" },
    data: { standup_id: standup.id, answers: [{ question_id: standup.questions[0].id, text: marker }] },
  });
  expect(report.status(), await report.text()).toBeLessThan(300);

  await signIn(page);
  await page.goto(`${BASE_URL}/reports?standup=${standup.id}`);
  const card = page.getByTestId("report-card").filter({ hasText: marker });
  await card.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("group", { name: "Confirm delete" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete report" }).click();
  await expect(page.getByText("Report deleted.")).toBeVisible();
  await screenshot(page, "dashboard-report-deleted-undo");
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByTestId("report-card").filter({ hasText: marker })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("report-card").filter({ hasText: marker })).toHaveCount(1);
});

test("standup form: the third default question is a blocker question", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/standups/new`);
  await expect(page.locator("#q-2-blocker")).toBeChecked();
  await expect(page.locator("#q-0-blocker")).not.toBeChecked();
});

test("/docs shows request bodies, responses and examples from the OpenAPI document", async ({ page }) => {
  await page.goto(`${BASE_URL}/docs`);
  const body = page.getByRole("region", { name: "Request body of POST /v2/reports", exact: true });
  await expect(body).toContainText("standup_id");
  await expect(body).toContainText("Example request body");
  const responses = page.getByRole("region", { name: "Responses of GET /v2/reports", exact: true });
  await responses.locator("summary").filter({ hasText: /^200/ }).first().click();
  await expect(responses).toContainText("next_cursor");
  // The whole reference is a very long page: axe checks its header and the Reports section.
  await expectNoSeriousA11yViolations(page, "main > nav");
  await expectAccessibleScreenshot(page, "docs", 'section[aria-labelledby="reports"]');
});

const PHONE_PAGES: Array<[string, string]> = [
  ["overview", "/overview"],
  ["blockers", "/blockers"],
  ["participation", "/participation"],
  ["reports", "/reports"],
  ["my-checkins", "/my-checkins"],
  ["standups", "/standups"],
  ["standup-new", "/standups/new"],
  ["polls", "/polls"],
  ["poll-new", "/polls/new"],
  ["team", "/team"],
  ["channels", "/channels"],
  ["api-keys", "/settings/api-keys"],
  ["docs", "/docs"],
];

test("phone width (390 px): every page fits, including standup and member detail pages", async ({ page }) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto(`${BASE_URL}/standups`);
  const standupHref = await page.locator('a[href^="/standups/"]').filter({ hasNotText: "New standup" }).first().getAttribute("href");
  await page.goto(`${BASE_URL}/participation`);
  const memberHref = await page.getByTestId("participation-members").locator("tbody a").first().getAttribute("href");
  const pages = [...PHONE_PAGES];
  if (standupHref) pages.push(["standup-detail", standupHref], ["standup-edit", `${standupHref}/edit`]);
  if (memberHref) pages.push(["member", memberHref]);
  for (const [name, path] of pages) {
    await test.step(name, async () => {
      await page.goto(`${BASE_URL}${path}`);
      await expect(page.locator("h1").first()).toBeVisible();
      await expectNoSidewaysScroll(page, path);
      await screenshot(page, `phone-${name}`);
    });
  }
});

test("dark mode follows the system setting and keeps contrast", async ({ page }) => {
  test.setTimeout(180_000);
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page);
  for (const [name, path] of [
    ["overview", "/overview"],
    ["participation", "/participation"],
    ["reports", "/reports"],
  ] as const) {
    await page.goto(`${BASE_URL}${path}`);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background, "dark page background").toBe("rgb(2, 6, 23)");
    await expectAccessibleScreenshot(page, `dark-${name}`);
  }
});

test("forms keep their input on errors and say what to fix next to the field", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`${BASE_URL}/standups/new`);
  const name = `Kept ${uniqueSuffix()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  for (const d of ["Mon", "Tue", "Wed", "Thu", "Fri"]) await page.getByLabel(d, { exact: true }).uncheck();
  await page.getByLabel("Broadcast channel").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Create standup" }).click();
  await expect(page.locator("#days-error")).toHaveText("Pick at least one day");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Broadcast channel")).not.toHaveValue("");
  await screenshot(page, "form-standup-error");

  await page.goto(`${BASE_URL}/team`);
  await page.locator("#a-user").selectOption({ index: 1 });
  await page.locator("#a-note").fill("Conference");
  await page.locator("#a-start").fill("2026-12-10");
  await page.locator("#a-end").fill("2026-12-01");
  await page.getByRole("button", { name: "Add absence" }).click();
  await expect(page.locator("#a-end-error")).toHaveText("The last day must be on or after the first day");
  await expect(page.locator("#a-note")).toHaveValue("Conference");
  await expect(page.locator("#a-start")).toHaveValue("2026-12-10");
  await expectAccessibleScreenshot(page, "form-absence-error");
});
