/**
 * Authentication of the API routes (spec §5, compatibility.md Transport): raw key or
 * `Bearer <key>`, 401 for missing, unknown or revoked keys and deactivated users, with the
 * version's error body; response headers (JSON content type, CORS) and the OPTIONS preflight.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/v1/me/route";
import { GET as teamsRoute } from "@/app/v1/teams/route";
import { GET as getReportRoute, OPTIONS as reportOptions } from "@/app/v2/reports/[reportId]/route";
import { GET as listReportsRoute } from "@/app/v2/reports/route";
import { GET as listStandupsRoute } from "@/app/v2/standups/route";
import { createApiKey, hashApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db";
import { revokeApiKey } from "@/lib/domain/api-key-admin";
import { createTestTeam, createTestUser, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

let A: TestTeam;
let user: TestUser;

beforeAll(async () => {
  A = await createTestTeam({ members: 1 });
  user = A.users[1];
});

const v2 = (opts: { key?: string; bearer?: boolean; headers?: Record<string, string> }) =>
  call(listStandupsRoute, { path: "/v2/standups", ...opts });
const v1 = (opts: { key?: string; bearer?: boolean; headers?: Record<string, string> }) => call(meRoute, { path: "/v1/me", ...opts });

describe("accepted keys", () => {
  it("raw key and Bearer key (any case, extra spaces) authenticate", async () => {
    expect((await v2({ key: user.key })).status).toBe(200);
    expect((await v2({ key: user.key, bearer: true })).status).toBe(200);
    expect((await v2({ headers: { authorization: `bearer   ${user.key}` } })).status).toBe(200);
    expect((await v2({ headers: { Authorization: `BEARER ${user.key} ` } })).status).toBe(200);
    expect((await v1({ key: user.key })).body.user.id).toBe(user.chat_id);
    expect((await v1({ key: user.key, bearer: true })).body.user.id).toBe(user.chat_id);
  });

  it("keys start with api_ and only their SHA-256 is stored", async () => {
    expect(user.key.startsWith("api_")).toBe(true);
    const row = await db.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(user.key) } });
    expect(row.hash).not.toContain(user.key);
    expect(JSON.stringify(row)).not.toContain(user.key);
  });
});

describe("401", () => {
  const badHeaders: Array<[string, Record<string, string>]> = [
    ["missing", {}],
    ["empty", { authorization: "" }],
    ["Bearer without key", { authorization: "Bearer " }],
    ["unknown key", { authorization: "api_doesnotexist" }],
    ["unknown Bearer key", { authorization: "Bearer api_doesnotexist" }],
    ["other scheme", { authorization: "Basic dXNlcjpwYXNz" }],
  ];
  for (const [name, headers] of badHeaders) {
    it(`v2: ${name} → 401 UNAUTHORIZED`, async () => {
      const r = await v2({ headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    });
    it(`v1: ${name} → 401 {"error":"Unauthorized"}`, async () => {
      const r = await v1({ headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "Unauthorized" });
    });
  }

  it("revoked keys fail at once, raw and Bearer, on every route", async () => {
    const u = await createTestUser(A.id);
    const { key, id } = await createApiKey(db, { teamId: A.id, userId: u.id, name: "to revoke" });
    expect((await v2({ key })).status).toBe(200);
    expect((await v2({ key })).status).toBe(200); // now in the in-process key cache
    // Revoked behind this process's back (as another instance would): the api_keys trigger's
    // NOTIFY empties every instance's cache within milliseconds; allow it up to 1 s.
    await db.apiKey.update({ where: { id }, data: { revoked_at: new Date() } });
    const revokedAt = Date.now();
    while ((await v2({ key })).status !== 401 && Date.now() - revokedAt < 1000) await new Promise((r) => setTimeout(r, 10));
    expect((await v2({ key })).status).toBe(401);
    expect((await v2({ key, bearer: true })).status).toBe(401);
    expect((await v1({ key })).status).toBe(401);
    expect((await call(teamsRoute, { path: "/v1/teams/", key })).status).toBe(401);
    expect((await call(listReportsRoute, { path: "/v2/reports", key })).status).toBe(401);
    expect((await call(getReportRoute, { path: "/v2/reports/1", key, params: { reportId: "1" } })).status).toBe(401);
    // the user's other keys still work
    expect((await v2({ key: u.key })).status).toBe(200);
  });

  it("keys of deactivated users fail", async () => {
    const u = await createTestUser(A.id);
    await db.user.update({ where: { id: u.id }, data: { deactivated_at: new Date() } });
    expect((await v2({ key: u.key })).status).toBe(401);
    expect((await v1({ key: u.key, bearer: true })).status).toBe(401);
  });

  it("authentication comes before parameter validation", async () => {
    const r = await call(listStandupsRoute, { path: "/v2/standups?limit=0" });
    expect(r.status).toBe(401);
  });
});

describe("response headers", () => {
  it("JSON content type and CORS on success and error", async () => {
    for (const r of [await v2({ key: user.key }), await v2({}), await v1({ key: user.key }), await v1({})]) {
      expect(r.headers.get("content-type")).toContain("application/json");
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("OPTIONS preflight answers 204 with CORS headers without a key", async () => {
    const r = await call(async () => reportOptions(), { method: "OPTIONS", path: "/v2/reports/1" });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
  });
});

describe("API-key cache (issue 14)", () => {
  it("a key revoked through the dashboard's revokeApiKey is refused at once by this instance", async () => {
    const u = await createTestUser(A.id);
    const { key, id } = await createApiKey(db, { teamId: A.id, userId: u.id, name: "dashboard revoke" });
    expect((await v2({ key })).status).toBe(200);
    expect((await v2({ key })).status).toBe(200);
    await revokeApiKey({ teamId: A.id, userId: u.id, userChatId: u.chat_id, isAdmin: false }, { id });
    expect((await v2({ key })).status).toBe(401);
  });

  it("a user deactivated while their key is cached is refused within 1 s", async () => {
    const u = await createTestUser(A.id);
    expect((await v2({ key: u.key })).status).toBe(200);
    expect((await v2({ key: u.key })).status).toBe(200);
    await db.user.update({ where: { id: u.id }, data: { deactivated_at: new Date() } });
    const started = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - started < 1000) {
      status = (await v2({ key: u.key })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe(401);
  });
});
