import { expect, test } from "@playwright/test";
import { BASE_URL, demoCredentials, signIn } from "./helpers";

test.describe("sign-in", () => {
  test("redirects to sign-in when signed out", async ({ page }) => {
    await page.goto(`${BASE_URL}/standups`);
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  });

  test("rejects a wrong password", async ({ page }) => {
    await page.goto(`${BASE_URL}/sign-in`);
    await page.getByLabel("Email").fill(demoCredentials().dashboard.email);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("That email and password do not match an account.")).toBeVisible();
  });

  test("signs in with the demo login and signs out", async ({ page }) => {
    await signIn(page);
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto(`${BASE_URL}/overview`);
    await expect(page).toHaveURL(/\/sign-in/);
  });
});
