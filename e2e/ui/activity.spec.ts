/**
 * Activity pre-fills answers, end to end (issue 48): this spec starts the local GitHub fake
 * (tests/fakes/forges.ts) in the test process and its own service like `npm start` (demo data,
 * WEBHOOKS_ALLOW_PRIVATE=true so the fake on 127.0.0.1 may be read). The demo member connects
 * GitHub on Profile → Activity (the token is not shown back), a standup created with the API is
 * started (asking enqueues `fetch_activity`, the worker reads the fake), and the member's web
 * answer form shows the activity pre-filled in the first question, editable; the report holds
 * what the member sent, and nothing is posted before.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { stopProcess } from "../../lib/runtime/processes";
import { type ForgeFake, startForgeFake } from "../../tests/fakes/forges";
import { spawnService } from "./helpers";

type DemoKey = { email: string; key: string; user_id: string; team_id: number; name: string };

let server: ChildProcess | null = null;
let fake: ForgeFake;
let dataDir = "";
let base = "";
const output: string[] = [];
const state: { admin?: DemoKey; member?: DemoKey; password?: string; standupId?: number } = {};

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  fake = await startForgeFake({ pageSize: 1 });
  const at = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
  const repo = { id: 1, name: "acme/api" };
  fake.data.github = [
    {
      id: "2",
      type: "PullRequestEvent",
      created_at: at(1),
      repo,
      payload: {
        action: "opened",
        number: 7,
        pull_request: { number: 7, title: "Add activity", html_url: "https://github.com/acme/api/pull/7" },
      },
    },
    {
      id: "1",
      type: "IssuesEvent",
      created_at: at(2),
      repo,
      payload: { action: "closed", issue: { number: 4, title: "Slow login", html_url: "https://github.com/acme/api/issues/4" } },
    },
  ];
  const service = await spawnService({
    tmpPrefix: "checkin-activity-e2e-",
    env: (b) => ({ WEBHOOKS_ALLOW_PRIVATE: "true", PUBLIC_URL: b }),
    unset: ["DATABASE_URL", "SMTP_URL", "PUBLIC_URL", "CHECKIN_DEMO", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"],
    output,
  });
  ({ server, dataDir, base } = service);
  await service.ready("the activity service", 280_000);
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8")) as {
    dashboard: { email: string; password: string };
    api_keys: { admin: DemoKey; member: DemoKey };
  };
  state.admin = creds.api_keys.admin;
  state.member = creds.api_keys.member;
  state.password = creds.dashboard.password;
});

test.afterAll(async () => {
  if (server) await stopProcess(server, 60_000);
  if (output.length) fs.writeFileSync(path.join("test-results", "activity-server.log"), output.join(""));
  await fake?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signInMember(page: Page): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email").fill(state.member?.email as string);
  await page.getByLabel("Password").fill(state.password as string);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/overview$/);
}

test("a member connects GitHub on the Profile; the token is never shown back", async ({ page }) => {
  await signInMember(page);
  await page.goto(`${base}/profile`);
  const form = page.getByTestId("activity-form");
  await form.getByLabel("Service").selectOption("github");
  await form.getByLabel(/Server address/).fill(`${fake.url}/github`);
  await form.getByLabel("Account").fill("octo");
  await form.getByLabel("Access token").fill("gh-good");
  await form.getByRole("button", { name: "Connect" }).click();
  await expect(form.getByText(/^Connected\./)).toBeVisible();
  const row = page.getByTestId("activity-connection");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("GitHub");
  await expect(row).toContainText("as octo");
  await expect(page.locator("main")).not.toContainText("gh-good");
});

test("a member with GitHub activity sees it pre-filled in the web form", async ({ page, request }) => {
  const auth = { Authorization: `Bearer ${state.admin?.key}` };
  const created = await request.post(`${base}/v2/standups`, {
    headers: auth,
    data: {
      name: `Activity e2e ${Date.now().toString(36)}`,
      questions: [{ text: "What did you do?" }, { text: "What will you do?" }],
      days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
      // far from now, so the schedule does not ask during the test
      time: `${String((new Date().getUTCHours() + 12) % 24).padStart(2, "0")}:00`,
      timezone: "UTC",
      broadcast_channel: "general",
      users: [state.member?.user_id],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  state.standupId = ((await created.json()) as { data: { id: number } }).data.id;
  const started = await request.post(`${base}/v1/standups/${state.standupId}/start`, { headers: auth });
  expect(started.status(), await started.text()).toBe(200);

  await signInMember(page);
  const answer = page.getByLabel(/^1\. What did you do\?/);
  const expected =
    "- Opened acme/api#7: Add activity (https://github.com/acme/api/pull/7)\n- Closed acme/api#4: Slow login (https://github.com/acme/api/issues/4)";
  // The job reads the fake within seconds of the asking; the form shows what is cached when it loads.
  await expect(async () => {
    await page.goto(`${base}/my-checkins/${state.standupId}`);
    await expect(answer).toHaveValue(expected, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("activity-note")).toContainText("Nothing is sent until you send the report");
  await expect(page.getByLabel(/^2\. What will you do\?/)).toHaveValue("");
  // Both pages of the fake's events were read (one event per page).
  expect(fake.requests.filter((r) => r.system === "github").map((r) => r.path)).toEqual(
    expect.arrayContaining(["/users/octo/events?per_page=100", "/users/octo/events?per_page=100&page=2"]),
  );

  // Nothing was posted by pre-filling: the member's report is still pending.
  const before = await request.get(`${base}/v2/reports?standup_id=${state.standupId}`, { headers: auth });
  expect(((await before.json()) as { data: unknown[] }).data).toEqual([]);

  await answer.fill(`${expected.split("\n")[0]}\n- Paired on the release`);
  await page.getByLabel(/^2\. What will you do\?/).fill("Ship it");
  await page.getByRole("button", { name: "Send report" }).click();
  await expect(async () => {
    const after = await request.get(`${base}/v2/reports?standup_id=${state.standupId}`, { headers: auth });
    const reports = ((await after.json()) as { data: Array<{ answers: Array<{ answer: string }> }> }).data;
    // A browser sends a textarea's line ends as CRLF (HTML form submission); compare the lines.
    expect(reports.map((r) => r.answers.map((a) => a.answer.replace(/\r\n/g, "\n")))).toEqual([
      ["- Opened acme/api#7: Add activity (https://github.com/acme/api/pull/7)\n- Paired on the release", "Ship it"],
    ]);
  }).toPass({ timeout: 30_000 });
});
