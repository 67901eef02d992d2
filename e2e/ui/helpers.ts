/**
 * Shared helpers of the dashboard (ui) specs: the demo credentials written by the seed
 * ($CHECKIN_DATA_DIR/demo-credentials.json), signing in through the real sign-in form, page
 * screenshots into test-results/screenshots/, and the axe check (no serious/critical violations).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { freePort, stopProcess } from "../../lib/runtime/processes";

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

/**
 * Signs in as the demo admin, opens the new-poll form and fills its name ("`prefix` <suffix>") and
 * first question with `question`; returns the name.
 */
export async function startNewPoll(page: Page, prefix: string, question: string): Promise<string> {
  const name = `${prefix} ${uniqueSuffix()}`;
  await signIn(page);
  await page.goto(`${BASE_URL}/polls/new`);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Question", { exact: true }).fill(question);
  return name;
}

/** The demo member's dashboard account: their e-mail and the demo password. */
export function demoMemberAccount(): { email: string; password: string } {
  const creds = demoCredentials();
  return { email: creds.api_keys.member.email, password: creds.dashboard.password };
}

/** A page in a new browser context, signed in as the demo member; close its `context` when done. */
export async function demoMemberPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, demoMemberAccount());
  return { context, page };
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

/**
 * The axe check of the current page (`expectNoSeriousA11yViolations`, `include` as there), then
 * its full-page screenshot test-results/screenshots/<name>.png.
 */
export async function expectAccessibleScreenshot(page: Page, name: string, include?: string): Promise<void> {
  await expectNoSeriousA11yViolations(page, include);
  await screenshot(page, name);
}

/** Asserts that the current page does not scroll sideways (at most 1 px of overflow); `what` names it in the message. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} scrolls sideways at ${page.viewportSize()?.width}px`).toBeLessThanOrEqual(1);
}

/** A service process started by `spawnService`. */
export type SpawnedService = {
  server: ChildProcess;
  /** Its fresh data folder (CHECKIN_DATA_DIR); the caller removes it. */
  dataDir: string;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Date.now() (ms) just before the process was spawned. */
  startedAt: number;
  /**
   * Resolves when the service has logged "is ready"; throws, with `label` and the last 4,000
   * characters of its output, when it exits first or is not ready within `timeoutMs`.
   */
  ready: (label: string, timeoutMs: number) => Promise<void>;
};

/**
 * Starts a spec's own service like `npm start`: the service process of scripts/start.ts
 * (`--service`: the e2e runner has just built, so the launcher's build check is skipped) on a
 * free 127.0.0.1 port, with a fresh data folder `<tmpPrefix>XXXXXX` under the OS temp dir,
 * this process's environment plus `env` (or `env(base)`, e.g. to set PUBLIC_URL to the service's
 * own address) minus the names in `unset`. Its stdout and stderr are
 * appended to `output`. Returns at once; await `ready(...)` before using it. The caller stops
 * `server` (stopProcess) and removes `dataDir` in its afterAll.
 */
export async function spawnService(opts: {
  tmpPrefix: string;
  env: Record<string, string> | ((base: string) => Record<string, string>);
  unset: string[];
  output: string[];
}): Promise<SpawnedService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), opts.tmpPrefix));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort("127.0.0.1");
  const base = `http://127.0.0.1:${port}`;
  const extra = typeof opts.env === "function" ? opts.env(base) : opts.env;
  const env: NodeJS.ProcessEnv = { ...process.env, CHECKIN_DATA_DIR: dataDir, PORT: String(port) };
  for (const name of opts.unset) delete env[name];
  Object.assign(env, extra);
  const { output } = opts;
  const startedAt = Date.now();
  const server = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "scripts", "start.ts"), "--service"], {
    cwd: process.cwd(),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (c: Buffer) => output.push(c.toString()));
  server.stderr?.on("data", (c: Buffer) => output.push(c.toString()));
  const ready = async (label: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`${label} exited:\n${output.join("").slice(-4000)}`);
      if (/is ready/.test(output.join(""))) return;
      if (Date.now() > deadline) throw new Error(`${label} did not start:\n${output.join("").slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  return { server, dataDir, base, startedAt, ready };
}

/** The service of a spec that runs its own (`ownService`); its fields are set once `beforeAll` has run. */
export type OwnService = { base: string; dataDir: string; startedAt: number };

/**
 * Gives the calling spec file its own service (`spawnService`, data folder `checkin-<name>-XXXXXX`),
 * its tests run in order: `beforeAll` runs `before` (e.g. start a fake the env points at), spawns the
 * service with `env` minus `unset` and waits up to `readyMs` for it to be ready ("<name> service" in
 * the error); `afterAll` stops it, runs `after`, writes its output to test-results/<name>-server.log
 * and removes its data folder.
 */
export function ownService(opts: {
  name: string;
  env: (base: string) => Record<string, string>;
  unset: string[];
  readyMs: number;
  before?: () => Promise<void>;
  after?: () => Promise<void>;
}): OwnService {
  const own: OwnService = { base: "", dataDir: "", startedAt: 0 };
  const output: string[] = [];
  let server: ChildProcess | null = null;
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  test.beforeAll(async () => {
    test.setTimeout(opts.readyMs + 20_000);
    await opts.before?.();
    const service = await spawnService({ tmpPrefix: `checkin-${opts.name}-`, env: opts.env, unset: opts.unset, output });
    ({ server } = service);
    Object.assign(own, { base: service.base, dataDir: service.dataDir, startedAt: service.startedAt });
    await service.ready(`the ${opts.name} service`, opts.readyMs);
  });
  test.afterAll(async () => {
    if (server) await stopProcess(server, 60_000);
    await opts.after?.();
    if (output.length) fs.writeFileSync(path.join("test-results", `${opts.name}-server.log`), output.join(""));
    if (own.dataDir) fs.rmSync(own.dataDir, { recursive: true, force: true });
  });
  return own;
}
