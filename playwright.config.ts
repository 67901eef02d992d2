/**
 * Playwright configuration. Run through `npm run test:e2e` (scripts/e2e.ts), which builds, starts
 * the production server on a throwaway embedded database and exports BASE_URL and
 * CHECKIN_DATA_DIR (where the demo seed wrote `demo-credentials.json` with API keys and the
 * dashboard login). Running `npx playwright test` directly targets BASE_URL (default
 * http://localhost:3000, e.g. a running `npm start`).
 *
 * Projects: `api` (e2e/api, `request` fixture only, no browser) and `ui` (e2e/ui, Chromium).
 * The browser is Debian's Chromium (`apt-get install chromium`), since Playwright's own browser
 * download is not reachable here. Artifacts (screenshots, traces) go to test-results/.
 */
import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: true,
  workers: 2,
  // CI: one retry, reported as "flaky" in the list output, so that a test timing out once on a
  // loaded shared machine does not fail the run while a test that fails twice still does (the one
  // test seen to need it, e2e/ui/security.spec.ts, closed its page mid-navigation; it now waits for
  // the page). Locally: none.
  retries: process.env.CI ? 1 : 0,
  // Generous: a loaded 2-core machine (several builds at once) renders pages slowly; tests assert behaviour, not speed.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  // The ten slowest spec files, printed after the run (issue 49).
  reportSlowTests: { max: 10, threshold: 0 },
  use: {
    baseURL: process.env.BASE_URL ?? "http://localhost:3000",
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "api",
      testDir: "e2e/api",
    },
    {
      name: "ui",
      testDir: "e2e/ui",
      use: {
        ...devices["Desktop Chrome"],
        screenshot: "on",
        launchOptions: {
          executablePath: systemChromium,
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    },
  ],
});
