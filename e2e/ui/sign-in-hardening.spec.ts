/**
 * Sign-in hardening of issue 40 in Chromium: a `callbackUrl` whose dot segments normalise to a
 * scheme-relative `//host` keeps the browser on the site after a real sign-in (item 7), and the
 * sign-in form submitted before hydration, here with JavaScript off, posts the password in the
 * request body to the credentials callback: no URL the browser visits or requests carries it,
 * and the sign-in (or its error) still works (item 8).
 */
import { expect, type Page, test } from "@playwright/test";
import { BASE_URL, demoCredentials } from "./helpers";

async function fillAndSubmit(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

for (const callbackUrl of ["/..//evil.example", "/.//evil.example", "/%2e%2e//evil.example"]) {
  test(`callbackUrl=${callbackUrl} does not leave the site after sign-in`, async ({ page }) => {
    const creds = demoCredentials().dashboard;
    await page.goto(`${BASE_URL}/sign-in?callbackUrl=${callbackUrl}`);
    await fillAndSubmit(page, creds.email, creds.password);
    await page.waitForURL(/\/overview$/);
    expect(new URL(page.url()).origin).toBe(new URL(BASE_URL).origin);
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  });
}

test.describe("without JavaScript (a submit before hydration)", () => {
  test.use({ javaScriptEnabled: false });

  test("the password never appears in a URL, and the sign-in works", async ({ page }) => {
    const creds = demoCredentials().dashboard;
    const urls: string[] = [];
    page.on("request", (r) => urls.push(r.url()));
    page.on("framenavigated", (f) => urls.push(f.url()));
    await page.goto(`${BASE_URL}/sign-in?callbackUrl=/reports`);
    await fillAndSubmit(page, creds.email, creds.password);
    await page.waitForURL(/\/reports$/);
    // Signed in: the dashboard's chrome (the page body streams in with JavaScript only).
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    const password = encodeURIComponent(creds.password);
    for (const url of urls) {
      expect(url).not.toContain(password);
      expect(url).not.toContain(creds.password);
      expect(url).not.toMatch(/[?&]password=/);
    }
  });

  test("a wrong password comes back to the sign-in page with the error, not in the URL", async ({ page }) => {
    const urls: string[] = [];
    page.on("framenavigated", (f) => urls.push(f.url()));
    await page.goto(`${BASE_URL}/sign-in`);
    await fillAndSubmit(page, demoCredentials().dashboard.email, "wrong-password-40");
    await expect(page.getByText("That email and password do not match an account.")).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    for (const url of urls) expect(url).not.toContain("wrong-password-40");
  });
});
