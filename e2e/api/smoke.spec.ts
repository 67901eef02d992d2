/**
 * Smoke test of the running production server (scripts/e2e.ts): unknown API paths answer a JSON
 * 404 (spec §7, issue 2 "Unknown paths under /v1 and /v2 answer JSON 404") and the current
 * endpoints require an API key (spec §5: 401 without one).
 */
import { expect, test } from "@playwright/test";

test("an unknown /v2 path answers 404 with a JSON error", async ({ request }) => {
  const res = await request.get("/v2/nope");
  expect(res.status()).toBe(404);
  expect(res.headers()["content-type"]).toContain("application/json");
  const body = await res.json();
  expect(body.error?.code).toBe("NOT_FOUND");
});

test("GET /v1/me without an API key is 401", async ({ request }) => {
  const res = await request.get("/v1/me");
  expect(res.status()).toBe(401);
});
