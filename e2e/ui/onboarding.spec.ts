/**
 * Issue 11 end to end, from an EMPTY database: this spec starts its own service like
 * `npm start -- --no-demo` (the service process of scripts/start.ts with CHECKIN_DEMO=false,
 * embedded PostgreSQL in a throwaway folder, the production build the e2e runner made) on a free
 * port, then in the browser:
 * setup page → admin signs in → invites a member (copy dialog: no SMTP configured) and a second
 * person from a pasted list → creates a standup → the member accepts, sets a password, changes
 * timezone, enters a vacation, answers the check-in and creates an API key → the admin makes the
 * second person a manager and deactivates the member (their API key answers 401 at once) → the
 * manager reads the standup they are not a member of. axe runs on every new page.
 */
import { type Browser, expect, type Page, test } from "@playwright/test";
import { expectNoSeriousA11yViolations, ownService, screenshot } from "./helpers";

// The service process of `npm start` with CHECKIN_DEMO=false, what `--no-demo` sets.
const service = ownService({
  name: "onboarding",
  // Links shown for copying (invitations) are built from PUBLIC_URL, else http://localhost:PORT;
  // the spec browses the service at 127.0.0.1, so that is its public address (one cookie host).
  env: (url) => ({ CHECKIN_DEMO: "false", PUBLIC_URL: url }),
  unset: ["DATABASE_URL", "SMTP_URL", "PUBLIC_URL"],
  readyMs: 220_000,
});

const ADMIN = { email: "ada@acme.test", password: "ada-password-1" };
const MEMBER = { name: "Mia Member", email: "mia@acme.test", password: "mia-password-1" };
const MANAGER = { name: "Max Manager", email: "max@acme.test", password: "max-password-1" };
const STANDUP = "Daily Acme";
const MARKER = `acme-marker-${Date.now().toString(36)}`;
const state: { memberLink?: string; managerLink?: string; standupId?: number; memberKey?: string } = {};

async function signInAs(page: Page, account: { email: string; password: string }) {
  await page.goto(`${service.base}/sign-in`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/overview$/);
}

async function acceptInvitation(
  browser: Browser,
  link: string,
  person: { name: string; email: string; password: string },
  timezone: string,
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Join Acme" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Your name").fill(person.name);
  await page.getByLabel("Timezone").selectOption(timezone);
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByLabel("Repeat the password").fill(person.password);
  await page.getByRole("button", { name: "Join the team" }).click();
  await page.waitForURL(/\/sign-in\?notice=welcome/);
  await expect(page.getByText("Welcome! Sign in with your new password.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(person.email);
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/overview$/);
  // the link works once
  const again = await context.newPage();
  await again.goto(link);
  await expect(again.getByRole("heading", { name: "Invitation not valid" })).toBeVisible();
  await again.close();
  return { context, page };
}

test("first run: the setup page creates the team and its admin, then is gone for good", async ({ page }) => {
  await page.goto(`${service.base}/`);
  await page.waitForURL(/\/setup$/);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Team name").fill("Acme");
  await page.getByLabel("Team timezone").selectOption("Europe/Berlin");
  await page.getByLabel("Your name").fill("Ada Admin");
  await page.getByLabel("E-mail").fill(ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByLabel("Repeat the password").fill(`${ADMIN.password}x`);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByText("The two passwords differ")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByLabel("Repeat the password").fill(ADMIN.password);
  await screenshot(page, "onboarding-setup");
  await page.getByRole("button", { name: "Create team" }).click();
  await page.waitForURL(/\/sign-in\?notice=setup/);
  await expect(page.getByText("Your team is ready.")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/overview$/);
  await page.goto(`${service.base}/setup`);
  await expect(page).not.toHaveURL(/\/setup$/);
});

test("the admin invites a member (copy dialog) and a second person from a pasted list, and creates a standup", async ({ page }) => {
  await signInAs(page, ADMIN);
  await page.getByRole("link", { name: "Members" }).click();
  await page.waitForURL(/\/team\/members$/);
  await expectNoSeriousA11yViolations(page);
  const invite = page.getByTestId("invite-form");
  await invite.getByLabel("Name").fill(MEMBER.name);
  await invite.getByLabel("E-mail").fill(MEMBER.email);
  await invite.getByRole("button", { name: "Invite" }).click();
  await expect(invite.getByText(`${MEMBER.email} is invited`)).toBeVisible();
  state.memberLink = await invite.getByTestId("one-time-link").inputValue();
  expect(state.memberLink).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);

  const bulk = page.getByTestId("bulk-form");
  await bulk.getByLabel("One person per line").fill(`${MANAGER.name}, ${MANAGER.email}, Europe/Berlin\nnot an address`);
  await bulk.getByRole("button", { name: "Invite all" }).click();
  await expect(bulk.getByText("1 of 2 invited.")).toBeVisible();
  await expect(bulk.getByTestId("action-details")).toContainText("Line 2");
  state.managerLink = await bulk.getByTestId("one-time-link").inputValue();
  await screenshot(page, "onboarding-members");
  await expect(page.getByTestId("person-row").filter({ hasText: MANAGER.email })).toContainText("invited");

  await page.getByRole("link", { name: "Manage channels" }).click();
  await page.waitForURL(/\/channels\/manage$/);
  await expectNoSeriousA11yViolations(page);
  const newChannel = page.getByTestId("create-channel-form");
  await newChannel.getByLabel("Name").fill("Team Updates");
  await newChannel.getByRole("button", { name: "Create channel" }).click();
  await expect(page.getByTestId("channel-admin").and(page.locator('[data-name="team-updates"]'))).toBeVisible();

  await page.goto(`${service.base}/standups/new`);
  await page.getByLabel("Name", { exact: true }).fill(STANDUP);
  for (const d of ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]) await page.locator(`#day-${d}`).check();
  await page.getByLabel("Broadcast channel").selectOption({ index: 1 });
  await page.getByLabel(MEMBER.name, { exact: true }).check();
  await page.getByRole("button", { name: "Create standup" }).click();
  await page.waitForURL(/\/standups\/\d+\?created=1$/);
  // The new standup's page, not just its URL: a test that ends mid-navigation can hang closing its context.
  await expect(page.getByRole("heading", { name: STANDUP, level: 1 })).toBeVisible();
  state.standupId = Number(/\/standups\/(\d+)/.exec(page.url())?.[1]);
});

test("the member accepts, sets timezone and a vacation, answers the check-in and creates an API key", async ({ browser }) => {
  const { context, page } = await acceptInvitation(browser, state.memberLink as string, MEMBER, "Asia/Tokyo");
  await page.getByRole("link", { name: "Profile" }).click();
  await page.waitForURL(/\/profile$/);
  await expectNoSeriousA11yViolations(page);
  const profile = page.getByTestId("profile-form");
  await expect(profile.getByLabel("Timezone")).toHaveValue("Asia/Tokyo");
  await profile.getByLabel("Timezone").selectOption("America/New_York");
  await profile.getByLabel("Send me questions and reminders by").selectOption("email");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(profile.getByText("Profile saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("profile-form").getByLabel("Timezone")).toHaveValue("America/New_York");

  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const later = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
  const absence = page.getByTestId("own-absence-form");
  await absence.getByLabel("First day").fill(inAWeek);
  await absence.getByLabel("Last day").fill(later);
  await absence.getByLabel("Note (optional)").fill("Beach");
  await absence.getByRole("button", { name: "Add absence" }).click();
  await expect(page.getByTestId("own-absence")).toContainText("Beach");
  await screenshot(page, "onboarding-profile");

  await page.goto(`${service.base}/my-checkins`);
  await page.getByRole("link", { name: `Answer ${STANDUP}` }).click();
  await page.waitForURL(/\/my-checkins\/\d+$/);
  const boxes = page.getByRole("textbox");
  for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).fill(`${MARKER} ${i + 1}`);
  await page.getByRole("button", { name: "Send report" }).click();
  await page.waitForURL(/\/my-checkins\?saved=1$/);

  await page.goto(`${service.base}/settings/api-keys`);
  await page.getByLabel("Key name").fill("mia script");
  await page.getByRole("button", { name: "Create key" }).click();
  state.memberKey = (await page.getByTestId("new-api-key").textContent())?.trim();
  const me = await page.request.get(`${service.base}/v1/me`, { headers: { Authorization: state.memberKey as string } });
  expect(me.status()).toBe(200);
  await context.close();
});

test("the admin makes the second person a manager and deactivates the member: their API key answers 401 at once", async ({ page }) => {
  await signInAs(page, ADMIN);
  await page.goto(`${service.base}/team/members`);
  const managerRow = page.getByTestId("person-row").filter({ hasText: MANAGER.email });
  await managerRow.getByLabel(`Role of ${MANAGER.name}`, { exact: true }).selectOption("manager");
  await managerRow.getByRole("button", { name: `Save role of ${MANAGER.name}` }).click();
  await expect(managerRow.getByText("Role saved.")).toBeVisible();

  const memberRow = page.getByTestId("person-row").filter({ hasText: MEMBER.email });
  page.once("dialog", (d) => void d.accept());
  await memberRow.getByRole("button", { name: `Deactivate ${MEMBER.name}` }).click();
  await expect(memberRow.getByText(/Deactivated/).first()).toBeVisible();
  const me = await page.request.get(`${service.base}/v1/me`, { headers: { Authorization: state.memberKey as string } });
  expect(me.status()).toBe(401);

  await page.getByRole("link", { name: "Audit log" }).click();
  await page.waitForURL(/\/team\/audit$/);
  await expectNoSeriousA11yViolations(page);
  // Issue 41 item 11: sentences, not raw codes (`user.deactivate`, `user:13`).
  const sentences = await page.getByTestId("audit-sentence").allTextContents();
  for (const a of [
    /^set up the team/,
    /^invited /,
    /^accepted the invitation/,
    /^changed the role of /,
    new RegExp(`^deactivated ${MEMBER.name}`),
  ])
    expect(sentences.some((t) => a.test(t))).toBe(true);
  expect(sentences.join("\n")).not.toMatch(/user:\d+|user\.deactivate/);
  await page.getByLabel("Action").selectOption("user.deactivate");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("audit-row")).toHaveCount(1);
  await screenshot(page, "onboarding-audit");
});

test("the manager reads the standup they are not a member of, with the member's report", async ({ browser }) => {
  const { context, page } = await acceptInvitation(browser, state.managerLink as string, MANAGER, "Europe/Berlin");
  await expect(page.getByRole("link", { name: "Members" })).toHaveCount(0);
  await page.goto(`${service.base}/standups/${state.standupId}`);
  await expect(page.getByRole("heading", { name: STANDUP, level: 1 })).toBeVisible();
  await expect(page.getByText(`${MARKER} 1`)).toBeVisible();
  await page.goto(`${service.base}/team/members`);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await context.close();
});

test("forgot-password, reset and sign-in-link pages explain themselves and pass axe", async ({ page }) => {
  await page.goto(`${service.base}/sign-in`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.waitForURL(/\/forgot-password$/);
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("E-mail").fill(MEMBER.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(/cannot send e-mail/)).toBeVisible();
  await page.goto(`${service.base}/reset-password/not-a-real-token`);
  await expect(page.getByRole("heading", { name: "Link not valid" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.goto(`${service.base}/sign-in/link/not-a-real-token`);
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(/link is invalid/)).toBeVisible();
});
