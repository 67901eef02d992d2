/**
 * Request ids on the running production server (issue 44, README "Health and metrics"): every
 * answer — API, page, probe — carries `X-Request-Id`: the client's own when well-formed, else a new
 * UUID. (The JSON log line per request is checked in tests/api/request-log.test.ts.)
 */
import { expect, test } from "@playwright/test";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test("X-Request-Id is echoed when well-formed and generated otherwise", async ({ request }) => {
  for (const path of ["/v2/nope", "/v1/me", "/sign-in", "/healthz"]) {
    const own = await request.get(path, { headers: { "X-Request-Id": `e2e-${path.length}:abc` }, maxRedirects: 0 });
    expect(own.headers()["x-request-id"], path).toBe(`e2e-${path.length}:abc`);
    const none = await request.get(path, { maxRedirects: 0 });
    expect(none.headers()["x-request-id"], path).toMatch(UUID);
    const bad = await request.get(path, { headers: { "X-Request-Id": "not ok; drop table" }, maxRedirects: 0 });
    expect(bad.headers()["x-request-id"], path).toMatch(UUID);
  }
});
