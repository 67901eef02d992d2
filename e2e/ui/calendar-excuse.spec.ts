/**
 * Calendars excuse people, end to end (issue 48 "Tests"): "a member whose calendar says
 * 'Vacation' Monday–Wednesday is not asked those days and appears excused".
 * This spec starts the ICS fake (tests/fakes/ics-server.ts) in the test process and its own
 * service like `npm start` (scripts/start.ts, embedded PostgreSQL in a throwaway folder, the demo
 * data, the production build the e2e runner made) with WEBHOOKS_ALLOW_PRIVATE=true so that the
 * service may read the fake on 127.0.0.1. Then:
 * - the demo member adds the fake's secret ICS address on Profile → Calendars; the service's worker
 *   runs the refresh job (`refresh_calendar_feed`) and the card shows the address masked with
 *   1 absence;
 * - the admin creates a standup of the member with the API, and its runs of next week's Monday to
 *   Thursday are opened at those dates (e2e/support/start-standup-at.ts: the same `startStandup`
 *   as "Ask now", with its clock argument; the service itself runs on the real clock);
 * - the member is not asked Monday–Wednesday and is asked Thursday; the standup page's member
 *   states say "Excused (calendar)" for Tuesday and Wednesday and "Pending" for Thursday.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { runningDatabaseUrl } from "../../lib/runtime/embedded-postgres";
import { stopProcess } from "../../lib/runtime/processes";
import { type IcsServer, ics, startIcsServer, vevent } from "../../tests/fakes/ics-server";
import { spawnService, uniqueSuffix } from "./helpers";

type DemoKey = { email: string; key: string; user_id: string; name: string };
type Creds = { dashboard: { email: string; password: string }; api_keys: { admin: DemoKey; member: DemoKey } };

let server: ChildProcess | null = null;
let fake: IcsServer;
let dataDir = "";
let base = "";
let creds: Creds;
const output: string[] = [];
const feedPath = `/calendar/ical/private-${uniqueSuffix()}/basic.ics`;

/** "YYYY-MM-DD" of the first Monday after today (UTC), and the 3 days after it. */
function nextMondayToThursday(): string[] {
  const d = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (d.getUTCDay() !== 1);
  return [0, 1, 2, 3].map((i) => new Date(d.getTime() + i * 86_400_000).toISOString().slice(0, 10));
}

const [MONDAY, TUESDAY, WEDNESDAY, THURSDAY] = nextMondayToThursday();
const compact = (date: string) => date.replace(/-/g, "");
/** "Tuesday 1 Dec" (how the standup page heads an occurrence). */
const heading = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  return `${d.toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" })} ${d.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" })}`;
};

/** Signs in to this spec's service (the demo accounts share the dashboard password). */
async function signInHere(page: Page, email: string): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(creds.dashboard.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/overview$/);
}

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  fake = await startIcsServer();
  // Vacation Monday–Wednesday (DTEND of an all-day event is exclusive: Thursday).
  fake.setFeed(
    feedPath,
    ics(vevent("vacation-1", "SUMMARY:Vacation", `DTSTART;VALUE=DATE:${compact(MONDAY)}`, `DTEND;VALUE=DATE:${compact(THURSDAY)}`)),
  );
  const service = await spawnService({
    tmpPrefix: "checkin-calendar-e2e-",
    env: { WEBHOOKS_ALLOW_PRIVATE: "true" },
    unset: ["DATABASE_URL", "SMTP_URL", "PUBLIC_URL", "CHECKIN_DEMO", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN"],
    output,
  });
  ({ server, dataDir, base } = service);
  await service.ready("the calendar service", 280_000);
  creds = JSON.parse(fs.readFileSync(path.join(dataDir, "demo-credentials.json"), "utf8")) as Creds;
});

test.afterAll(async () => {
  if (server) await stopProcess(server, 60_000);
  if (output.length) fs.writeFileSync(path.join("test-results", "calendar-excuse-server.log"), output.join(""));
  await fake?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("a member whose calendar says 'Vacation' Monday–Wednesday is not asked those days and appears excused", async ({ page, request }) => {
  const member = creds.api_keys.member;
  // The member adds the secret address of their calendar; the worker refreshes it at once.
  await signInHere(page, member.email);
  await page.goto(`${base}/profile`);
  const form = page.getByTestId("calendar-feed-form");
  await form.getByLabel("ICS address").fill(`${fake.url}${feedPath}`);
  await form.getByRole("button", { name: "Add calendar" }).click();
  await expect(form.getByText(/^Calendar added/)).toBeVisible();
  const feed = page.getByTestId("calendar-feed");
  await expect(async () => {
    await page.reload();
    await expect(feed).toContainText("1 absence(s)", { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  // Shown masked (host + …): the secret path never comes back.
  await expect(feed).toContainText(`${fake.url}/…`);
  await expect(page.locator("main")).not.toContainText("private-");
  expect(fake.requests.some((q) => q.path === feedPath && q.status === 200)).toBe(true);

  // A standup of the member; its runs of Monday to Thursday are opened at those dates (noon UTC).
  const created = await request.post(`${base}/v2/standups`, {
    headers: { Authorization: `Bearer ${creds.api_keys.admin.key}` },
    data: {
      name: `Calendar e2e ${uniqueSuffix()}`,
      questions: [{ text: "What did you do?" }],
      days: ["Mon", "Tue", "Wed", "Thu", "Fri"],
      // far from now, so the schedule does not ask during the test
      time: `${String((new Date().getUTCHours() + 12) % 24).padStart(2, "0")}:00`,
      timezone: "UTC",
      broadcast_channel: "general",
      users: [member.user_id],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const standupId = ((await created.json()) as { data: { id: number } }).data.id;
  const runs = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(process.cwd(), "e2e", "support", "start-standup-at.ts"),
      String(standupId),
      creds.dashboard.email,
      ...[MONDAY, TUESDAY, WEDNESDAY, THURSDAY].map((d) => `${d}T12:00:00Z`),
    ],
    { env: { ...process.env, DATABASE_URL: runningDatabaseUrl(dataDir) ?? "" }, encoding: "utf8" },
  )
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { date: string; asked: string[] });
  expect(runs.map((r) => [r.date, r.asked.includes(member.user_id)])).toEqual([
    [MONDAY, false],
    [TUESDAY, false],
    [WEDNESDAY, false],
    [THURSDAY, true],
  ]);

  // The standup page's member states (the latest three runs): excused (calendar) while away.
  await page.context().clearCookies();
  await signInHere(page, creds.dashboard.email);
  await page.goto(`${base}/standups/${standupId}`);
  const stateOf = (date: string) =>
    page
      .getByRole("region", { name: `Occurrence of ${heading(date)}` })
      .getByTestId("occurrence-member")
      .filter({ hasText: member.name });
  await expect(stateOf(TUESDAY)).toContainText("Excused (calendar)");
  await expect(stateOf(WEDNESDAY)).toContainText("Excused (calendar)");
  await expect(stateOf(THURSDAY)).toContainText("Pending");
});
