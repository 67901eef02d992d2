import { expect, test } from "@playwright/test";
import { BASE_URL, demoCredentials, screenshot, signIn, uniqueSuffix } from "./helpers";

test("create an API key, call /v1/me with it, revoke it, get 401", async ({ page, request }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/settings/api-keys`);
  const name = `e2e key ${uniqueSuffix()}`;
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const keyText = page.getByTestId("new-api-key");
  await expect(keyText).toBeVisible();
  const key = (await keyText.textContent())?.trim() ?? "";
  expect(key).toMatch(/^api_/);
  await expect(page.getByRole("button", { name: "Copy key" })).toBeVisible();
  await screenshot(page, "api-keys-created");

  const me = await request.get(`${BASE_URL}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
  expect(me.status()).toBe(200);
  const body = await me.json();
  expect(JSON.stringify(body)).toContain(demoCredentials().dashboard.email);

  const row = page.getByTestId("api-key-row").filter({ hasText: name });
  await expect(row).toContainText(key.slice(0, 12));
  await row.getByRole("button", { name: /Revoke key/ }).click();
  await expect(page.getByTestId("api-key-row").filter({ hasText: name })).toContainText("Revoked");

  const after = await request.get(`${BASE_URL}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);
});

test("a blank key name is refused next to the field, and what was typed stays", async ({ page }) => {
  await signIn(page);
  await page.goto(`${BASE_URL}/settings/api-keys`);
  await page.getByLabel("Key name").fill("   ");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.locator("#key-name-error")).toHaveText("Give the key a name");
  await expect(page.getByLabel("Key name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Key name")).toHaveValue("   ");
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
});
