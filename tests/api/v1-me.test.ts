/**
 * The current-classed v1 endpoints (spec §2.7, §4.2): GET /v1/me, /v1/me/teams, /v1/me/standups
 * (v1 standup shape of spec §2.8 + compatibility.md), /v1/teams/, and the JSON 404 catch-alls of
 * /v1 and /v2.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as v1Delete, GET as v1Get, PATCH as v1Patch, POST as v1Post, PUT as v1Put } from "@/app/v1/[[...path]]/route";
import { GET as meRoute } from "@/app/v1/me/route";
import { GET as meStandupsRoute } from "@/app/v1/me/standups/route";
import { GET as meTeamsRoute } from "@/app/v1/me/teams/route";
import { GET as teamsRoute } from "@/app/v1/teams/route";
import {
  DELETE as v2Delete,
  GET as v2Get,
  OPTIONS as v2Options,
  PATCH as v2Patch,
  POST as v2Post,
  PUT as v2Put,
} from "@/app/v2/[[...path]]/route";
import { formatTimeV1, serializeStandupV1 } from "@/lib/api/v1/standups";
import { profileImgOf } from "@/lib/api/v1/users";
import { db } from "@/lib/db";
import { standupSettingsSelect } from "@/lib/domain/standups";
import { createTestCheckin, createTestReport, createTestUser, type StandardTeams, standardTeams, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

let { A, B, admin, m0, m1, m2, m3 } = {} as StandardTeams;
let loner: TestUser;
let billing: TestUser;
const s: Record<string, Awaited<ReturnType<typeof createTestCheckin>>> = {};

beforeAll(async () => {
  ({ A, B, admin, m0, m1, m2, m3 } = await standardTeams({ members: 4, name: "Acme" }));
  loner = await createTestUser(A.id, { name: "Loner" });
  billing = await createTestUser(A.id, { name: "Billing" });
  await db.user.update({ where: { id: billing.id }, data: { is_billing_admin: true, avatar_url: null } });
  s.active = await createTestCheckin(A, {
    name: "Active",
    owner: admin,
    members: [admin, m0, m1],
    questions: [{ text: "How?" }, { text: "Pick", choices: ["a", "b"] }],
  });
  s.paused = await createTestCheckin(A, { name: "Paused", owner: admin, members: [admin, m0], state: "paused" });
  s.conf = await createTestCheckin(A, { name: "Confidential", owner: m1, members: [m0, m1, m2], is_confidential: true });
  s.draft = await createTestCheckin(A, { name: "Draft", owner: m2, members: [m2, m3], state: "draft" });
  s.archived = await createTestCheckin(A, { name: "Archived", owner: admin, members: [admin, m0], state: "archived" });
  s.other = await createTestCheckin(A, { name: "Others", owner: m3, members: [m3, billing] });
  s.poll = await createTestCheckin(A, { kind: "poll", name: "Poll", owner: admin, members: A.users });
  s.b = await createTestCheckin(B, { name: "B team", owner: B.admin });
  await createTestReport(s.active, m0);
  await db.checkin.update({
    where: { id: s.active.id },
    data: { wait_time: 30, sync_channel_members: true, sync_channel_id: A.channels[1].id },
  });
  // The confidential standup is asked only when started (wait_time null, spec §2.8).
  await db.checkin.update({ where: { id: s.conf.id }, data: { wait_time: null } });
});

const get = (handler: Parameters<typeof call>[0], path: string, key?: string) => call(handler, { path, key });

describe("GET /v1/me", () => {
  it("returns {user, team} of the key (spec §2.7)", async () => {
    const r = await get(meRoute, "/v1/me", m0.key);
    expect(r.status).toBe(200);
    const row = await db.user.findUniqueOrThrow({ where: { id: m0.id } });
    expect(r.body).toEqual({
      user: {
        id: m0.chat_id,
        username: m0.username,
        realname: m0.realname,
        firstname: row.firstname,
        email: m0.email,
        profile_img: row.avatar_url,
        timezone: "UTC",
        role: "member",
        is_admin: false,
        is_billing_admin: false,
      },
      team: { id: A.id, name: "Acme" },
    });
  });

  it("roles: admin, billing_admin, member; missing avatar falls back to a URL", async () => {
    expect((await get(meRoute, "/v1/me", admin.key)).body.user).toMatchObject({ role: "admin", is_admin: true, is_billing_admin: false });
    const b = (await get(meRoute, "/v1/me/", billing.key)).body.user;
    expect(b).toMatchObject({ role: "billing_admin", is_admin: false, is_billing_admin: true });
    expect(b.profile_img).toBe(profileImgOf({ avatar_url: null, email: billing.email }));
    expect(b.profile_img).toMatch(/^https:\/\/.+s=192/);
  });

  it("401 with the v1 body without a valid key", async () => {
    const r = await get(meRoute, "/v1/me");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "Unauthorized" });
  });
});

describe("GET /v1/me/teams", () => {
  it("only the key's team, with is_admin and the count of standups visible to the caller", async () => {
    const cases: Array<[TestUser, boolean, number]> = [
      [admin, true, 2], // active, paused
      [m0, false, 2], // active, paused (member of the confidential one, not its creator)
      [m1, false, 2], // active, confidential (creator)
      [m2, false, 0], // draft only
      [m3, false, 1], // others
      [loner, false, 0],
    ];
    for (const [user, isAdmin, count] of cases) {
      const r = await get(meTeamsRoute, "/v1/me/teams", user.key);
      expect(r.status).toBe(200);
      expect({ user: user.realname, body: r.body }).toEqual({
        user: user.realname,
        body: { teams: [{ id: A.id, name: "Acme", is_admin: isAdmin, standup_count: count }] },
      });
    }
    expect((await get(meTeamsRoute, "/v1/me/teams", B.admin.key)).body.teams).toEqual([
      { id: B.id, name: B.name, is_admin: true, standup_count: 1 },
    ]);
  });
});

describe("GET /v1/teams/", () => {
  it("one object with the users of standups visible to the caller", async () => {
    const r = await get(teamsRoute, "/v1/teams/", m0.key);
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(false);
    expect(r.body.id).toBe(A.id);
    expect(r.body.name).toBe("Acme");
    // visible to m0: active (admin, m0, m1), paused (admin, m0)
    expect(r.body.users.map((u: { id: string }) => u.id)).toEqual([admin.chat_id, m0.chat_id, m1.chat_id]);
    expect(r.body.users[0]).toEqual({
      id: admin.chat_id,
      role: "admin",
      email: admin.email,
      username: admin.username,
      realname: admin.realname,
      profile_img: expect.stringMatching(/^https:/),
    });
  });

  it("depends on the caller's visibility", async () => {
    const ids = async (u: TestUser) => (await get(teamsRoute, "/v1/teams", u.key)).body.users.map((x: { id: string }) => x.id);
    expect(await ids(m1)).toEqual([admin.chat_id, m0.chat_id, m1.chat_id, m2.chat_id]); // + confidential it created
    expect(await ids(m3)).toEqual([m3.chat_id, billing.chat_id]);
    expect(await ids(loner)).toEqual([]);
    expect(await ids(B.admin)).toEqual(B.users.map((u) => u.chat_id));
  });
});

describe("GET /v1/me/standups", () => {
  const names = async (u: TestUser, qs = "") => {
    const r = await get(meStandupsRoute, `/v1/me/standups${qs}`, u.key);
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    return r.body.map((x: { name: string }) => x.name);
  };

  it("participants see their standups; drafts and confidential ones only for their creator; never archived or polls", async () => {
    expect(await names(admin)).toEqual(["Active", "Paused"]);
    expect(await names(m0)).toEqual(["Active", "Paused"]);
    expect(await names(m1)).toEqual(["Active", "Confidential"]);
    expect(await names(m2)).toEqual(["Draft"]);
    expect(await names(m3)).toEqual(["Others"]);
    expect(await names(B.admin)).toEqual(["B team"]);
  });

  it("admin=true lists every team standup for admins only (drafts and confidential still creator-only)", async () => {
    expect(await names(admin, "?admin=true")).toEqual(["Active", "Paused", "Others"]);
    expect(await names(admin, "?admin=1")).toEqual(["Active", "Paused", "Others"]);
    expect(await names(admin, "?admin")).toEqual(["Active", "Paused", "Others"]);
    expect(await names(admin, "?admin=false")).toEqual(["Active", "Paused"]);
    expect(await names(m0, "?admin=true")).toEqual(["Active", "Paused"]);
    const bad = await get(meStandupsRoute, "/v1/me/standups?admin=maybe", admin.key);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe("string");
  });

  it("v1 standup shape (spec §2.8 + compatibility.md)", async () => {
    const r = await get(meStandupsRoute, "/v1/me/standups/", m1.key);
    const item = r.body.find((x: { id: number }) => x.id === s.active.id);
    const [q0, q1] = s.active.questions;
    expect(item).toEqual({
      id: s.active.id,
      name: "Active",
      time: "09:00:00",
      wait_time: 30,
      timezone: "UTC",
      days: ["Mon", "Tue", "Wed", "Thu", "Fri"],
      channel: A.channels[0].name,
      channel_ready: true,
      questions: [
        {
          id: q0.id,
          color: "EEEEEE",
          text: "How?",
          schedule: null,
          answer_type: "text",
          answer_choices: [],
          hasAnswers: true,
          is_random: false,
          random_texts: [],
          prefilled_by: null,
          text_id: q0.id,
          preconditions: [],
          label: "other",
          flavor: "",
        },
        expect.objectContaining({ id: q1.id, answer_type: "multiple_choice", answer_choices: ["a", "b"], hasAnswers: true }),
      ],
      users: [admin, m0, m1].map((u) => ({
        id: u.chat_id, // chat-style string ids inside v1 standups, as in /v1/teams/
        role: u.is_admin ? "admin" : "member",
        email: u.email,
        username: u.username,
        realname: u.realname,
        profile_img: expect.any(String),
      })),
      users_total: 3,
      webhooks: [],
      master: admin.chat_id,
      sync_channel_members: true,
      sync_channel_ready: true,
      sync_channel: A.channels[1].name,
      confidential: false,
      anonymous: false,
      draft: false,
      paused: false,
      personalised: false,
    });
    const conf = r.body.find((x: { id: number }) => x.id === s.conf.id);
    expect(conf).toMatchObject({ confidential: true, wait_time: null, sync_channel: null, sync_channel_ready: false, master: m1.chat_id });
    const paused = (await get(meStandupsRoute, "/v1/me/standups", admin.key)).body.find((x: { id: number }) => x.id === s.paused.id);
    expect(paused).toMatchObject({ paused: true, draft: false });
    const draft = (await get(meStandupsRoute, "/v1/me/standups", m2.key)).body[0];
    expect(draft).toMatchObject({ draft: true, paused: false });
  });
});

describe("v1 standup serializer options", () => {
  it("renders -1 for no automatic asking when asked (create/update responses), HH:MM:SS always", async () => {
    const row = await db.checkin.findUniqueOrThrow({ where: { id: s.conf.id }, select: standupSettingsSelect });
    expect(serializeStandupV1(row).wait_time).toBeNull();
    expect(serializeStandupV1(row, { noWaitTime: -1 }).wait_time).toBe(-1);
    expect(serializeStandupV1({ ...row, wait_time: -1 }).wait_time).toBeNull();
    expect(serializeStandupV1({ ...row, wait_time: 0 }, { noWaitTime: -1 }).wait_time).toBe(0);
    expect(serializeStandupV1({ ...row, broadcast_channel: null }).channel).toBeNull();
    expect(["9:05", "09:05", "09:05:07", "23:59:00"].map(formatTimeV1)).toEqual(["09:05:00", "09:05:00", "09:05:07", "23:59:00"]);
  });
});

describe("unknown paths", () => {
  it("/v1/* answers a v1 JSON 404 for every method, without authentication", async () => {
    const handlers = { GET: v1Get, POST: v1Post, PUT: v1Put, PATCH: v1Patch, DELETE: v1Delete };
    for (const [method, handler] of Object.entries(handlers)) {
      const r = await call(handler, { method, path: "/v1/nope/x", params: { path: ["nope", "x"] } });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "Not found" });
      expect(r.headers.get("content-type")).toContain("application/json");
    }
  });

  it("/v2/* answers a v2 JSON 404 for every method", async () => {
    const handlers = { GET: v2Get, POST: v2Post, PUT: v2Put, PATCH: v2Patch, DELETE: v2Delete };
    for (const [method, handler] of Object.entries(handlers)) {
      const r = await call(handler, { method, path: "/v2/nope", params: { path: ["nope"] } });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
    const pre = await call(async () => v2Options(), { method: "OPTIONS", path: "/v2/nope" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
  });
});
