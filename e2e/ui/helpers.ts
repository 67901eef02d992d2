/**
 * Shared helpers of the dashboard (ui) specs: the demo credentials written by the seed
 * ($CHECKIN_DATA_DIR/demo-credentials.json), signing in through the real sign-in form, page
 * screenshots into test-results/screenshots/, and the axe check (no serious/critical violations).
 */
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

export type DemoCredentials = {
  dashboard: { email: string; password: string };
  api_keys: Record<string, { email: string; key: string }>;
};

/** Base URL of the app under test (Playwright's baseURL is used for relative paths too). */
export const BASE_URL = (process.env.BASE_URL ?? "http://localhost:3000").replace(/\/$/, "");

/** Reads the demo credentials the seed wrote. */
export function demoCredentials(): DemoCredentials {
  const dir = process.env.CHECKIN_DATA_DIR ?? path.join(process.cwd(), ".data");
  return JSON.parse(fs.readFileSync(path.join(dir, "demo-credentials.json"), "utf8")) as DemoCredentials;
}

/** Signs in with the demo admin (or the given account) and waits for the overview. */
export async function signIn(page: Page, account?: { email: string; password: string }): Promise<void> {
  const creds = account ?? demoCredentials().dashboard;
  await page.goto(`${BASE_URL}/sign-in`);
  await page.getByLabel("Email").fill(creds.email);
  await page.getByLabel("Password").fill(creds.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/overview$/);
}

/** Saves a full-page screenshot as test-results/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.join(process.cwd(), "test-results", "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  // Charts are loaded lazily: let them arrive before the picture is taken.
  if ((await page.locator('[data-testid$="-chart"]').count()) > 0) {
    await page
      .locator(".recharts-surface")
      .first()
      .waitFor({ timeout: 5000 })
      .catch(() => {});
  }
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: "image/png" });
}

/**
 * Runs axe on the current page (or only on the elements matching `include`, for very long pages)
 * and asserts there is no serious or critical violation.
 */
export async function expectNoSeriousA11yViolations(page: Page, include?: string): Promise<void> {
  // After a client-side navigation Next sets the new <title> just after the page renders, and at
  // times drops it (Next.js 16 soft navigation, vercel/next.js#95268; every page here exports its
  // title, and a full load always has it). Give it a moment, else check the fully loaded page:
  // axe still fails a page that has no title at all.
  const titled = await expect
    .poll(() => page.title(), { timeout: 5_000 })
    .not.toBe("")
    .then(() => true)
    .catch(() => false);
  if (!titled) await page.reload();
  const builder = new AxeBuilder({ page });
  const results = await (include ? builder.include(include) : builder).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 5)
        .join(", ")}`,
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/** A short unique suffix for names created by a test. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}
