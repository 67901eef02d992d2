/**
 * Legacy standup endpoints (spec §4.3, compatibility.md) against the real test database:
 * GET/POST /v1/standups/, GET/PATCH/PUT/DELETE /v1/standups/{id}, POST …/duplicate, POST …/start.
 * Covers every error status (400, 401 auth and forbidden edits, 404 invisible, 422 duplicate of a
 * confidential standup), tolerant bodies, raw and Bearer keys, and the wait_time conventions.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as duplicate from "@/app/v1/standups/[id]/duplicate/route";
import * as one from "@/app/v1/standups/[id]/route";
import * as start from "@/app/v1/standups/[id]/start/route";
import * as collection from "@/app/v1/standups/route";
import { db } from "@/lib/db";
import { createTestChannel, createTestCheckin, createTestUser, type StandardTeams, standardTeams } from "@/tests/fixtures";
import { call } from "@/tests/http";

let { A, B, admin, m0, m1, m2, m3 } = {} as StandardTeams;
let daily: Awaited<ReturnType<typeof createTestCheckin>>;
let owned: Awaited<ReturnType<typeof createTestCheckin>>;
let confidential: Awaited<ReturnType<typeof createTestCheckin>>;
let archived: Awaited<ReturnType<typeof createTestCheckin>>;
let draft: Awaited<ReturnType<typeof createTestCheckin>>;
let other: Awaited<ReturnType<typeof createTestCheckin>>;

const path = (id: number | string, suffix = "") => `/v1/standups/${id}${suffix}`;
const getOne = (key: string | undefined, id: number | string, bearer = false) =>
  call(one.GET, { path: path(id), key, bearer, params: { id: String(id) } });
const patch = (key: string, id: number, body: unknown) =>
  call(one.PATCH, { method: "PATCH", path: path(id), key, body, params: { id: String(id) } });
const put = (key: string, id: number, body: unknown) =>
  call(one.PUT, { method: "PUT", path: path(id), key, body, params: { id: String(id) } });
const del = (key: string, id: number) => call(one.DELETE, { method: "DELETE", path: path(id), key, params: { id: String(id) } });
const dup = (key: string, id: number | string, body?: unknown) =>
  call(duplicate.POST, { method: "POST", path: path(id, "/duplicate"), key, body, params: { id: String(id) } });
const startRun = (key: string, id: number, body?: unknown, rawBody?: string) =>
  call(start.POST, { method: "POST", path: path(id, "/start"), key, body, rawBody, params: { id: String(id) } });
const create = (key: string, body: unknown) => call(collection.POST, { method: "POST", path: "/v1/standups/", key, body });

beforeAll(async () => {
  ({ A, B, admin, m0, m1, m2, m3 } = await standardTeams({ members: 4 }));
  daily = await createTestCheckin(A, { name: "Daily", owner: admin, members: [admin, m0, m1, m2] });
  owned = await createTestCheckin(A, { name: "Owned by m0", owner: m0, members: [m0, m1] });
  confidential = await createTestCheckin(A, { name: "Secret", owner: m1, members: [m1, m2], is_confidential: true });
  archived = await createTestCheckin(A, { name: "Old", owner: admin, members: [admin, m0], state: "archived" });
  draft = await createTestCheckin(A, { name: "Draft", owner: m2, members: [m2, m0], state: "draft" });
  other = await createTestCheckin(B, { name: "Other team", owner: B.admin, members: B.users });
});

describe("authentication", () => {
  it("accepts the raw key and the Bearer form", async () => {
    expect((await getOne(m0.key, daily.id)).status).toBe(200);
    expect((await getOne(m0.key, daily.id, true)).status).toBe(200);
  });
  it("answers 401 {error: 'Unauthorized'} without a key or with an unknown one", async () => {
    const none = await getOne(undefined, daily.id);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: "Unauthorized" });
    expect((await getOne("api_nope", daily.id)).status).toBe(401);
    expect((await call(collection.GET, { path: "/v1/standups/" })).status).toBe(401);
  });
});

describe("GET /v1/standups/", () => {
  it("lists the caller's standups as a bare array of v1 standups (drafts only for their creator)", async () => {
    const res = await call(collection.GET, { path: "/v1/standups/", key: m0.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const ids = res.body.map((s: { id: number }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([daily.id, owned.id]));
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(archived.id);
    expect(ids).not.toContain(confidential.id);
    const mine = await call(collection.GET, { path: "/v1/standups", key: m2.key });
    expect(mine.body.map((s: { id: number }) => s.id)).toContain(draft.id);
  });
  it("admin=true (or 1) lists every standup of the team for admins only", async () => {
    const all = await call(collection.GET, { path: "/v1/standups/?admin=true", key: admin.key });
    expect(all.body.map((s: { id: number }) => s.id)).toContain(owned.id);
    const one1 = await call(collection.GET, { path: "/v1/standups/?admin=1", key: admin.key });
    expect(one1.body.map((s: { id: number }) => s.id)).toContain(owned.id);
    const member = await call(collection.GET, { path: "/v1/standups/?admin=true", key: m3.key });
    expect(member.body.map((s: { id: number }) => s.id)).not.toContain(owned.id);
  });
});

describe("GET /v1/standups/{id}", () => {
  it("serializes the v1 standup with the compatibility fields (wait_time 0: asked at its time)", async () => {
    const res = await getOne(m1.key, daily.id);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      id: daily.id,
      name: "Daily",
      time: "09:00:00",
      wait_time: 0,
      timezone: "UTC",
      channel: A.channels[0].name,
    });
    expect(s.days).toEqual(["Mon", "Tue", "Wed", "Thu", "Fri"]);
    expect(s.questions).toHaveLength(3);
    expect(s.questions[0]).toMatchObject({ id: daily.questions[0].id, text: daily.questions[0].text, color: "EEEEEE" });
    // v1 standup user ids are the chat-style string ids, as in /v1/teams/ (lib/api/v1/users.ts).
    expect(s.users.map((u: { id: string }) => u.id)).toEqual([admin.chat_id, m0.chat_id, m1.chat_id, m2.chat_id]);
    expect(s.users[0]).toMatchObject({ role: "admin", email: admin.email, username: admin.username, realname: admin.realname });
    expect(typeof s.users[0].profile_img).toBe("string");
    expect(s).toMatchObject({
      sync_channel_members: false,
      confidential: false,
      anonymous: false,
      paused: false,
      draft: false,
      master: admin.chat_id,
    });
  });
  it("answers 404 for invisible standups: not a participant, other team, confidential, archived, polls, bad ids", async () => {
    expect((await getOne(m3.key, daily.id)).status).toBe(404);
    expect((await getOne(m0.key, other.id)).status).toBe(404);
    expect((await getOne(m2.key, confidential.id)).status).toBe(404);
    expect((await getOne(admin.key, archived.id)).status).toBe(404);
    expect((await getOne(m0.key, "abc")).status).toBe(404);
    const poll = await createTestCheckin(A, { kind: "poll", owner: m0, members: [m0] });
    const res = await getOne(m0.key, poll.id);
    expect(res.status).toBe(404);
    expect(typeof res.body.error).toBe("string");
  });
  it("lets the creator see a confidential standup, and an admin any non-confidential one", async () => {
    expect((await getOne(m1.key, confidential.id)).status).toBe(200);
    expect((await getOne(admin.key, owned.id)).status).toBe(200);
  });
});

describe("POST /v1/standups/", () => {
  const base = () => ({
    name: "Created via v1",
    channel: A.channels[0].name,
    time: "10:30:00",
    timezone: "Europe/Berlin",
    days: ["Mon", "wed", "Fri"],
    users: [m0.id, String(m1.id), m2.chat_id],
    sync_channel_members: false,
    personalised: true,
  });
  it("creates with three default questions; an omitted wait_time means asking at the scheduled time (0), null means -1", async () => {
    const res = await create(admin.key, base());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Created via v1",
      time: "10:30:00",
      timezone: "Europe/Berlin",
      wait_time: 0,
      personalised: true,
      sync_channel_members: false,
    });
    expect(res.body.days).toEqual(["Mon", "Wed", "Fri"]);
    expect(res.body.questions).toHaveLength(3);
    expect(res.body.users.map((u: { id: string }) => u.id).sort()).toEqual([m0.chat_id, m1.chat_id, m2.chat_id].sort());
    const row = await db.checkin.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ owner_id: admin.id, wait_time: 0, kind: "standup", state: "active" });
    expect(row.next_run_at).not.toBeNull();
    const manual = await create(admin.key, { ...base(), wait_time: null });
    expect(manual.body.wait_time).toBe(-1);
    const manualRow = await db.checkin.findUniqueOrThrow({ where: { id: manual.body.id } });
    expect(manualRow).toMatchObject({ wait_time: null, next_run_at: null });
    expect((await getOne(admin.key, manual.body.id)).body.wait_time).toBeNull();
  });
  it("takes given questions and wait_time, and members from the channel with sync_channel_members", async () => {
    const res = await create(m0.key, {
      ...base(),
      users: undefined,
      sync_channel_members: true,
      wait_time: 15,
      questions: [{ question: "How are you?" }, { question: "Pick one", answer_choices: ["a", "b"] }],
      channel: `#${A.channels[1].name}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.wait_time).toBe(15);
    expect(res.body.questions.map((q: { text: string }) => q.text)).toEqual(["How are you?", "Pick one"]);
    expect(res.body.questions[1]).toMatchObject({ answer_type: "multiple_choice", answer_choices: ["a", "b"] });
    expect(res.body.sync_channel_members).toBe(true);
    const channelMembers = await db.channelMember.count({ where: { channel_id: A.channels[1].id } });
    expect(res.body.users).toHaveLength(channelMembers);
  });
  it("answers 400 for missing or invalid fields, unknown channels and unknown users", async () => {
    const { name: _n, ...noName } = base();
    expect((await create(admin.key, noName)).status).toBe(400);
    expect((await create(admin.key, { ...base(), time: "25:00:00" })).status).toBe(400);
    expect((await create(admin.key, { ...base(), timezone: "Mars/Base" })).status).toBe(400);
    expect((await create(admin.key, { ...base(), days: ["Funday"] })).status).toBe(400);
    expect((await create(admin.key, { ...base(), channel: "no-such-channel" })).status).toBe(400);
    const unknownUser = await create(admin.key, { ...base(), users: [B.admin.id] });
    expect(unknownUser.status).toBe(400);
    expect(typeof unknownUser.body.error).toBe("string");
    expect((await create(admin.key, { ...base(), users: [], sync_channel_members: false })).status).toBe(400);
    const notJson = await call(collection.POST, { method: "POST", path: "/v1/standups/", key: admin.key, rawBody: "{nope" });
    expect(notJson.status).toBe(400);
  });
  it("answers 400 for a channel that is only '#' instead of creating a standup without a channel", async () => {
    const before = await db.checkin.count({ where: { team_id: A.id } });
    for (const channel of ["#", " # ", ""]) {
      const res = await create(admin.key, { ...base(), channel });
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe("string");
    }
    expect((await create(admin.key, { ...base(), sync_channel: "#", sync_channel_members: true })).status).toBe(400);
    expect(await db.checkin.count({ where: { team_id: A.id } })).toBe(before);
  });
  it("applies the 30-question limit on create as PATCH and PUT do", async () => {
    const questions = Array.from({ length: 31 }, (_, i) => ({ question: `Question ${i + 1}?` }));
    const res = await create(admin.key, { ...base(), questions });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/30/);
    expect((await create(admin.key, { ...base(), questions: questions.slice(0, 30) })).status).toBe(200);
  });
});

describe("user ids in v1 standups", () => {
  it("carries chat-style string user ids (users[].id) and master in the same string form, which PUT accepts back unchanged", async () => {
    const s = await createTestCheckin(A, { name: "Round trip", owner: m0, members: [m0, m1] });
    const read = (await getOne(m0.key, s.id)).body;
    for (const u of read.users) expect(u.id).toMatch(/^U[0-9A-Z]+$/);
    expect(read.users.map((u: { id: string }) => u.id)).toEqual([m0.chat_id, m1.chat_id]);
    // master is the creator's chat id, the same id form as users[].id (issue 43: a widely used
    // Geekbot client parses it as a string and fails on a number).
    expect(read.master).toBe(m0.chat_id);
    expect(typeof read.master).toBe("string");
    expect(read.users.map((u: { id: string }) => u.id)).toContain(read.master);
    const body = { ...read, time: read.time, users: read.users.map((u: { id: string }) => u.id) };
    const res = await put(m0.key, s.id, body);
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([m0.chat_id, m1.chat_id]);
    // The numeric ids keep working in bodies.
    expect((await patch(m0.key, s.id, { users: [m0.id, m1.id], sync_channel_members: false })).status).toBe(200);
    // User objects as read can be sent back too.
    expect((await patch(m0.key, s.id, { users: read.users, sync_channel_members: false })).status).toBe(200);
  });
  it("answers 400, not 500, for user ids beyond the integer range, as numbers or strings", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0, m1] });
    for (const users of [[99999999999], [1e300], ["9999999999"], [2147483648]]) {
      const p = await patch(m0.key, s.id, { users, sync_channel_members: false });
      expect(p.status).toBe(400);
      expect(typeof p.body.error).toBe("string");
      expect((await dup(m0.key, s.id, { users })).status).toBe(400);
      expect((await startRun(m0.key, s.id, { users })).status).toBe(400);
    }
  });
  it("lists only active members", async () => {
    const gone = await createTestUser(A.id, { name: "Gone" });
    const s = await createTestCheckin(A, { owner: m0, members: [m0, gone] });
    await db.user.update({ where: { id: gone.id }, data: { deactivated_at: new Date() } });
    const read = (await getOne(m0.key, s.id)).body;
    expect(read.users.map((u: { id: string }) => u.id)).toEqual([m0.chat_id]);
    expect(read.users_total).toBe(1);
  });
});

describe("atomic writes", () => {
  it("a PATCH, PUT or duplicate that fails part-way changes nothing", async () => {
    const s = await createTestCheckin(A, { name: "Atomic", owner: m0, members: [m0, m1] });
    const snapshot = async () => {
      const row = await db.checkin.findUniqueOrThrow({
        where: { id: s.id },
        include: { members: { orderBy: { user_id: "asc" } }, questions: { where: { archived_at: null }, orderBy: { id: "asc" } } },
      });
      return { name: row.name, time: row.time, members: row.members.map((m) => m.user_id), questions: row.questions.map((q) => q.id) };
    };
    const before = await snapshot();
    // Valid name, members and questions, then an unknown channel: the whole change is rolled back.
    const bad = {
      name: "Renamed",
      users: [m2.id],
      sync_channel_members: false,
      questions: [{ question: "New?" }],
      channel: "no-such-channel",
    };
    expect((await patch(m0.key, s.id, bad)).status).toBe(400);
    expect((await put(m0.key, s.id, { ...bad, time: "1000", timezone: "UTC", days: ["Mon"] })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
    const copies = await db.checkin.count({ where: { team_id: A.id } });
    expect((await dup(m0.key, s.id, { name: "Copy", users: [m2.id], channel: "no-such-channel" })).status).toBe(400);
    expect(await db.checkin.count({ where: { team_id: A.id } })).toBe(copies);
  });
});

describe("PATCH /v1/standups/{id}", () => {
  it("changes only the properties present", async () => {
    const s = await createTestCheckin(A, { name: "Patch me", owner: m0, members: [m0, m1], time: "08:15:00" });
    const res = await patch(m0.key, s.id, { name: "Patched" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Patched", time: "08:15:00", wait_time: 0 });
    expect(res.body.users).toHaveLength(2);
    expect(res.body.questions.map((q: { id: number }) => q.id)).toEqual(s.questions.map((q) => q.id));
  });
  it("accepts time as HHMM and HH:MM:SS, wait_time numbers, -1 and null", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0] });
    expect((await patch(m0.key, s.id, { time: "0930" })).body.time).toBe("09:30:00");
    expect((await patch(m0.key, s.id, { time: "17:45:10" })).body.time).toBe("17:45:10");
    expect((await patch(m0.key, s.id, { wait_time: 20 })).body.wait_time).toBe(20);
    expect((await patch(m0.key, s.id, { wait_time: -1 })).body.wait_time).toBe(-1);
    expect((await db.checkin.findUniqueOrThrow({ where: { id: s.id } })).wait_time).toBeNull();
    await patch(m0.key, s.id, { wait_time: 5 });
    expect((await patch(m0.key, s.id, { wait_time: null })).body.wait_time).toBe(-1);
    expect((await getOne(m0.key, s.id)).body.wait_time).toBeNull();
    expect((await patch(m0.key, s.id, { time: "9h" })).status).toBe(400);
  });
  it("replaces users, requires users when sync_channel_members is false, and keeps answered question ids", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0] });
    const res = await patch(m0.key, s.id, { users: [m1.chat_id, m2.id], sync_channel_members: false });
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([m1.chat_id, m2.chat_id]);
    expect((await patch(m0.key, s.id, { sync_channel_members: false })).status).toBe(400);
    const synced = await patch(m0.key, s.id, { sync_channel_members: true });
    expect(synced.body.sync_channel_members).toBe(true);
    expect(synced.body.users.length).toBe(await db.channelMember.count({ where: { channel_id: A.channels[0].id } }));
    const q = await patch(m0.key, s.id, { questions: [{ question: s.questions[1].text }, { question: "Brand new?" }] });
    expect(q.body.questions[0].id).toBe(s.questions[1].id);
    expect(q.body.questions[1].text).toBe("Brand new?");
    const kept = await db.question.findMany({ where: { checkin_id: s.id }, orderBy: { id: "asc" } });
    expect(kept.filter((x) => x.archived_at !== null).map((x) => x.id)).toEqual([s.questions[0].id, s.questions[2].id]);
  });
  it("re-syncs members from the new channel when a synced standup changes channel", async () => {
    const created = await create(m0.key, {
      name: "Synced",
      channel: A.channels[0].name,
      time: "09:00:00",
      timezone: "UTC",
      days: ["Mon"],
      sync_channel_members: true,
    });
    expect(created.body.users).toHaveLength(A.users.length);
    const moved = await patch(m0.key, created.body.id, { channel: A.channels[1].name });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ channel: A.channels[1].name, sync_channel: A.channels[1].name, sync_channel_members: true });
    const engMembers = await db.channelMember.findMany({ where: { channel_id: A.channels[1].id } });
    expect(moved.body.users).toHaveLength(engMembers.length);
  });
  it("lets a team admin edit; answers 401 to members who may not edit and 404 to others", async () => {
    expect((await patch(admin.key, owned.id, { name: "Owned by m0" })).status).toBe(200);
    const forbidden = await patch(m1.key, owned.id, { name: "Hijack" });
    expect(forbidden.status).toBe(401);
    expect(typeof forbidden.body.error).toBe("string");
    expect((await patch(m3.key, owned.id, { name: "x" })).status).toBe(404);
    expect((await patch(m0.key, other.id, { name: "x" })).status).toBe(404);
    expect((await patch(m0.key, owned.id, { days: ["Someday"] })).status).toBe(400);
    expect((await patch(m0.key, owned.id, { channel: "missing" })).status).toBe(400);
  });
});

describe("PUT /v1/standups/{id}", () => {
  it("replaces the configuration and uses the three default questions when omitted", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0], questions: [{ text: "Only one?" }] });
    const res = await put(m0.key, s.id, {
      name: "Replaced",
      channel: A.channels[1].chat_id,
      time: "0700",
      timezone: "America/New_York",
      wait_time: 10,
      days: ["Tue"],
      users: [m1.id],
      sync_channel_members: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Replaced",
      channel: A.channels[1].name,
      time: "07:00:00",
      timezone: "America/New_York",
      wait_time: 10,
      days: ["Tue"],
    });
    expect(res.body.questions).toHaveLength(3);
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([m1.chat_id]);
  });
  it("accepts bodies sent back from GET: question objects with text, user objects, empty questions → defaults", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0, m1] });
    const current = (await getOne(m0.key, s.id)).body;
    const res = await put(m0.key, s.id, {
      ...current,
      time: current.time,
      users: current.users,
      questions: current.questions,
      sync_channel_members: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.questions.map((q: { id: number }) => q.id)).toEqual(s.questions.map((q) => q.id));
    expect(res.body.users.map((u: { id: string }) => u.id)).toEqual([m0.chat_id, m1.chat_id]);
    const reset = await put(m0.key, s.id, { ...current, questions: [], wait_time: null });
    expect(reset.status).toBe(200);
    expect(reset.body.questions.map((q: { text: string }) => q.text)).toEqual([
      "What did you do since the last standup?",
      "What will you do today?",
      "Anything blocking your progress?",
    ]);
  });
  it("answers 400 when a required field is missing and 401/404 without permission", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0, m1] });
    expect((await put(m0.key, s.id, { name: "x" })).status).toBe(400);
    const body = {
      name: "x",
      channel: A.channels[0].name,
      time: "0900",
      timezone: "UTC",
      days: ["Mon"],
      users: [m0.id],
      sync_channel_members: false,
      wait_time: -1,
    };
    expect((await put(m1.key, s.id, body)).status).toBe(401);
    expect((await put(m3.key, s.id, body)).status).toBe(404);
  });
});

describe("DELETE /v1/standups/{id}", () => {
  it("archives the standup and answers it as it was", async () => {
    const s = await createTestCheckin(A, { name: "Delete me", owner: m0, members: [m0, m1] });
    expect((await del(m1.key, s.id)).status).toBe(401);
    expect((await del(m3.key, s.id)).status).toBe(404);
    const res = await del(m0.key, s.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, name: "Delete me", wait_time: 0, time: "09:00:00" });
    expect((await db.checkin.findUniqueOrThrow({ where: { id: s.id } })).state).toBe("archived");
    expect((await getOne(m0.key, s.id)).status).toBe(404);
    expect((await del(m0.key, s.id)).status).toBe(404);
  });
});

describe("POST /v1/standups/{id}/duplicate", () => {
  it("copies the standup for the caller; given fields override the copy", async () => {
    const res = await dup(m1.key, daily.id, { name: "Daily copy", time: "11:00:00", days: ["Sat"] });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(daily.id);
    expect(res.body).toMatchObject({
      name: "Daily copy",
      time: "11:00:00",
      days: ["Sat"],
      channel: A.channels[0].name,
      master: m1.chat_id,
    });
    expect(res.body.questions.map((q: { text: string }) => q.text)).toEqual(daily.questions.map((q) => q.text));
    expect(res.body.questions[0].id).not.toBe(daily.questions[0].id);
    expect(res.body.users).toHaveLength(4);
    const bare = await dup(m0.key, daily.id);
    expect(bare.status).toBe(200);
    expect(bare.body.name).toBe("Daily (copy)");
    // Duplicate answers the create/update form: HH:MM:SS, and the copied wait_time (0: asked at its time).
    expect(bare.body).toMatchObject({ time: "09:00:00", wait_time: 0 });
  });
  it("answers 422 for a confidential standup and 404 for an invisible one", async () => {
    const res = await dup(m1.key, confidential.id, { name: "Leak" });
    expect(res.status).toBe(422);
    expect(typeof res.body.error).toBe("string");
    expect((await dup(m2.key, confidential.id, {})).status).toBe(404);
    expect((await dup(m3.key, daily.id, {})).status).toBe(404);
    expect((await dup(m0.key, "x1", {})).status).toBe(404);
  });
});

describe("POST /v1/standups/{id}/start", () => {
  const pendingOf = async (standupId: number) =>
    db.report.findMany({ where: { checkin_id: standupId, status: "pending" }, select: { user_id: true, occurrence_id: true } });
  const questionsTo = async (standupId: number) =>
    db.chatMessage.findMany({ where: { checkin_id: standupId, kind: "question" }, select: { recipient_id: true, text: true } });

  it("starts for everyone with no body and answers the JSON string 'ok'", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0, m1, m2] });
    const res = await startRun(m0.key, s.id);
    expect(res.status).toBe(200);
    expect(res.body).toBe("ok");
    expect(res.text).toBe('"ok"');
    const pending = await pendingOf(s.id);
    expect(pending.map((p) => p.user_id).sort()).toEqual([m0.id, m1.id, m2.id].sort());
    const occurrence = await db.occurrence.findUniqueOrThrow({
      where: { id: pending[0].occurrence_id as number },
      include: { members: true },
    });
    expect(occurrence.trigger).toBe("manual");
    expect(occurrence.members).toHaveLength(3);
    const messages = await questionsTo(s.id);
    expect(messages.map((m) => m.recipient_id).sort()).toEqual([m0.id, m1.id, m2.id].sort());
    // The question names the standup and links to the answer form.
    expect(messages[0].text).toContain(s.name);
    expect(messages[0].text).toContain(s.questions[0].text);
    expect(messages[0].text).toContain(`/my-checkins/${s.id}?occurrence=${occurrence.id}`);
    // Starting again re-asks but does not duplicate the pending reports.
    expect((await startRun(m0.key, s.id, {})).status).toBe(200);
    expect(await pendingOf(s.id)).toHaveLength(3);
  });
  it("runs only for the given users (numeric or chat ids, user_ids) or e-mails (any case)", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0, m1, m2, m3] });
    expect((await startRun(m0.key, s.id, { users: [m1.id], emails: null })).status).toBe(200);
    expect((await pendingOf(s.id)).map((p) => p.user_id)).toEqual([m1.id]);
    expect((await startRun(m0.key, s.id, { user_ids: [m2.chat_id] })).status).toBe(200);
    expect((await startRun(m0.key, s.id, { users: null, emails: [m3.email.toUpperCase()] })).status).toBe(200);
    expect((await pendingOf(s.id)).map((p) => p.user_id).sort()).toEqual([m1.id, m2.id, m3.id].sort());
    expect((await startRun(m0.key, s.id, undefined, "null")).status).toBe(200);
  });
  it("answers 400 for unknown users or e-mails and non-participants, 401 to members who may not edit, 404 otherwise", async () => {
    const s = await createTestCheckin(A, { owner: m0, members: [m0, m1] });
    expect((await startRun(m0.key, s.id, { emails: ["nobody@nowhere.example"] })).status).toBe(400);
    expect((await startRun(m0.key, s.id, { users: ["UNOPE"] })).status).toBe(400);
    expect((await startRun(m0.key, s.id, { users: [m3.id] })).status).toBe(400);
    expect((await startRun(m0.key, s.id, { users: "everyone" })).status).toBe(400);
    expect((await startRun(m1.key, s.id, {})).status).toBe(401);
    expect((await startRun(m3.key, s.id, {})).status).toBe(404);
    expect(await pendingOf(s.id)).toHaveLength(0);
  });
  it("skips members who are on vacation today when starting for everyone", async () => {
    const extra = await createTestUser(A.id, { name: "Away" });
    const s = await createTestCheckin(A, { owner: m0, members: [m0, extra] });
    const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    await db.absence.create({ data: { team_id: A.id, user_id: extra.id, start_date: today, end_date: today } });
    await startRun(m0.key, s.id);
    expect((await pendingOf(s.id)).map((p) => p.user_id)).toEqual([m0.id]);
  });
});

describe("channels and trailing slashes", () => {
  it("serves the collection with and without a trailing slash", async () => {
    const a = await call(collection.GET, { path: "/v1/standups", key: m0.key });
    const b = await call(collection.GET, { path: "/v1/standups/", key: m0.key });
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });
  it("creates with a channel given by chat id", async () => {
    const ch = await createTestChannel(A.id, `ops-${Date.now()}`, [m0, m1]);
    const res = await create(m0.key, {
      name: "Ops",
      channel: ch.chat_id,
      time: "09:00:00",
      timezone: "UTC",
      days: ["Mon"],
      sync_channel_members: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.channel).toBe(ch.name);
    expect(res.body.users.map((u: { id: string }) => u.id).sort()).toEqual([m0.chat_id, m1.chat_id].sort());
  });
});
