/**
 * GET /v2/standups and GET /v2/standups/{id} against the real test database: every filter and
 * default of spec §4.1, errors, cursor walks, the visibility matrix, serialization (spec §2.2,
 * §2.3 for the poll variant) and a query-count check (no N+1).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getStandupRoute } from "@/app/v2/standups/[standupId]/route";
import { GET as listStandupsRoute } from "@/app/v2/standups/route";
import { serializeCheckinV2 } from "@/lib/api/v2/standups";
import { db } from "@/lib/db";
import { type CheckinView, checkinViewSelect, getCheckin, listCheckins } from "@/lib/domain/standups";
import { walkPages } from "@/tests/cursor-walk";
import { createTestCheckin, type StandardTeams, standardTeams, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { installQueryCounter, listQueryMeter } from "@/tests/query-count";

// Count SQL statements: this file's shared Prisma client is a logging one (set before first use).
const queries = installQueryCounter();

const list = (key: string | undefined, qs = "") => call(listStandupsRoute, { path: `/v2/standups${qs ? `?${qs}` : ""}`, key });
const getOne = (key: string | undefined, id: number | string, qs = "") =>
  call(getStandupRoute, { path: `/v2/standups/${id}${qs ? `?${qs}` : ""}`, key, params: { standupId: String(id) } });
const ids = (body: { data: Array<{ id: number }> }) => body.data.map((s) => s.id);

const s: Record<string, { id: number; questions: Array<{ id: number }> }> = {};
const day = (n: number) => new Date(Date.UTC(2026, 0, n));

let { A, B, admin, m0, m1, m2, m3 } = {} as StandardTeams;
beforeAll(async () => {
  ({ A, B, admin, m0, m1, m2, m3 } = await standardTeams({ members: 4 }));
  const [general, eng] = A.channels;
  s.s1 = await createTestCheckin(A, { name: "Daily", owner: admin, members: A.users, channel: general, created_at: day(1) });
  s.s2 = await createTestCheckin(A, {
    name: "Anon paused",
    owner: admin,
    members: [admin, m0],
    channel: eng,
    state: "paused",
    is_anonymous: true,
    created_at: day(2),
  });
  s.s3 = await createTestCheckin(A, { name: "Confidential", owner: m1, members: [m0, m1, m2], is_confidential: true, created_at: day(3) });
  s.s4 = await createTestCheckin(A, { name: "Draft", owner: admin, state: "draft", created_at: day(4) });
  s.s5 = await createTestCheckin(A, { name: "Archived", owner: admin, state: "archived", created_at: day(5) });
  s.p1 = await createTestCheckin(A, { kind: "poll", name: "Poll", owner: admin, created_at: day(6) });
  s.s6 = await createTestCheckin(A, {
    name: "Owner not member",
    owner: m2,
    members: [m3],
    channel: null,
    created_at: day(7),
    days: ["Mon", "Wed"],
    time: "10:30:00",
    timezone: "Europe/Berlin",
    questions: [{ text: "Mood?", choices: ["good", "bad"] }, { text: "Removed" }, { text: "Plans?" }],
  });
  // Archive the second question and move "Plans?" before "Mood?".
  const [q0, q1, q2] = s.s6.questions;
  await db.question.update({ where: { id: q1.id }, data: { archived_at: new Date() } });
  await db.question.update({ where: { id: q2.id }, data: { position: 0 } });
  await db.question.update({ where: { id: q0.id }, data: { position: 5 } });
  await db.checkin.update({ where: { id: s.s6.id }, data: { wait_time: 15 } });
  s.s7 = await createTestCheckin(A, { name: "Admin only", owner: admin, members: [admin], created_at: day(8) });
  s.sB = await createTestCheckin(B, { name: "Other team", owner: B.admin, created_at: day(1) });
});

describe("visibility matrix (list and single)", () => {
  const cases: Array<[string, () => TestUser, () => number[]]> = [
    ["admin sees member/owned standups, not others' confidential ones", () => admin, () => [s.s7.id, s.s2.id, s.s1.id]],
    ["member sees member standups only", () => m0, () => [s.s2.id, s.s1.id]],
    ["creator of a confidential standup sees it", () => m1, () => [s.s3.id, s.s1.id]],
    ["creator who is not a member sees it; confidential member does not", () => m2, () => [s.s6.id, s.s1.id]],
    ["plain member", () => m3, () => [s.s6.id, s.s1.id]],
    ["member of the other team sees only their team", () => B.admin, () => [s.sB.id]],
  ];
  for (const [name, who, expected] of cases) {
    it(`list: ${name}`, async () => {
      const r = await list(who().key);
      expect(r.status).toBe(200);
      expect(ids(r.body)).toEqual(expected());
      expect(r.body.has_more).toBe(false);
      expect(r.body.next_cursor).toBeNull();
    });
  }

  it("single: visible standups are 200, everything else 404 NOT_FOUND", async () => {
    const all = ["s1", "s2", "s3", "s4", "s5", "p1", "s6", "s7", "sB"];
    const visible: Array<[TestUser, string[]]> = [
      [admin, ["s1", "s2", "s7"]],
      [m0, ["s1", "s2"]],
      [m1, ["s1", "s3"]],
      [m2, ["s1", "s6"]],
      [m3, ["s1", "s6"]],
      [B.admin, ["sB"]],
    ];
    for (const [user, names] of visible) {
      for (const name of all) {
        const r = await getOne(user.key, s[name].id);
        const want = names.includes(name) ? 200 : 404;
        expect({ user: user.realname, name, status: r.status }).toEqual({ user: user.realname, name, status: want });
        if (want === 404) expect(r.body).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
        else expect(r.body.data.id).toBe(s[name].id);
      }
    }
  });

  it("single: malformed or unknown ids are 404", async () => {
    for (const id of ["abc", "0", "-1", "1.5", "99999999", "9999999999999"]) {
      const r = await getOne(admin.key, id);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("NOT_FOUND");
    }
  });
});

describe("filters (spec §4.1)", () => {
  it("state: default both, subsets, empty value = default", async () => {
    expect(ids((await list(admin.key, "state=active")).body)).toEqual([s.s7.id, s.s1.id]);
    expect(ids((await list(admin.key, "state=paused")).body)).toEqual([s.s2.id]);
    expect(ids((await list(admin.key, "state=paused,active")).body)).toEqual([s.s7.id, s.s2.id, s.s1.id]);
    expect(ids((await list(admin.key, "state=")).body)).toEqual([s.s7.id, s.s2.id, s.s1.id]);
  });

  it("state: draft, archived or unknown values are 400", async () => {
    for (const v of ["draft", "archived", "bogus", "active,draft"]) {
      const r = await list(admin.key, `state=${v}`);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
  });

  it("is_anonymous true/false/1/0, else 400", async () => {
    expect(ids((await list(admin.key, "is_anonymous=true")).body)).toEqual([s.s2.id]);
    expect(ids((await list(admin.key, "is_anonymous=1")).body)).toEqual([s.s2.id]);
    expect(ids((await list(admin.key, "is_anonymous=false")).body)).toEqual([s.s7.id, s.s1.id]);
    expect(ids((await list(admin.key, "is_anonymous=0")).body)).toEqual([s.s7.id, s.s1.id]);
    expect((await list(admin.key, "is_anonymous=maybe")).status).toBe(400);
  });

  it("broadcast_channel is a channel id; unknown ids give an empty list", async () => {
    expect(ids((await list(admin.key, `broadcast_channel=${A.channels[1].chat_id}`)).body)).toEqual([s.s2.id]);
    expect(ids((await list(admin.key, `broadcast_channel=${A.channels[0].chat_id}`)).body)).toEqual([s.s7.id, s.s1.id]);
    expect(ids((await list(admin.key, "broadcast_channel=CNOPE")).body)).toEqual([]);
    expect(ids((await list(admin.key, `broadcast_channel=${B.channels[0].chat_id}`)).body)).toEqual([]);
  });

  it("created_since is inclusive, created_until exclusive; ISO and YYYY-MM-DD", async () => {
    expect(ids((await list(admin.key, "created_since=2026-01-02")).body)).toEqual([s.s7.id, s.s2.id]);
    expect(ids((await list(admin.key, "created_since=2026-01-02T00:00:00Z")).body)).toEqual([s.s7.id, s.s2.id]);
    expect(ids((await list(admin.key, "created_since=2026-01-02T00:00:00.001Z")).body)).toEqual([s.s7.id]);
    expect(ids((await list(admin.key, "created_until=2026-01-02")).body)).toEqual([s.s1.id]);
    expect(ids((await list(admin.key, "created_until=2026-01-02T00:00:00.001Z")).body)).toEqual([s.s2.id, s.s1.id]);
    expect(ids((await list(admin.key, "created_since=2026-01-02&created_until=2026-01-08")).body)).toEqual([s.s2.id]);
    expect(
      ids((await list(admin.key, "created_since=2026-01-01T01:00:00%2B01:00&created_until=2026-01-01T02:00:00%2B02:00")).body),
    ).toEqual([]);
    expect(ids((await list(admin.key, "created_since=2026-01-02&created_until=2026-01-02")).body)).toEqual([]);
  });

  it("bad or reversed dates are 400 INVALID_PARAMETER", async () => {
    for (const qs of [
      "created_since=yesterday",
      "created_until=2026-02-30",
      "created_since=2026-13-01",
      "created_since=2026-01-05&created_until=2026-01-04",
    ]) {
      const r = await list(admin.key, qs);
      expect(r.status, qs).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
  });

  it("filters combine", async () => {
    expect(
      ids(
        (await list(admin.key, `state=active&is_anonymous=false&broadcast_channel=${A.channels[0].chat_id}&created_until=2026-01-05`)).body,
      ),
    ).toEqual([s.s1.id]);
  });

  it("limit: 1..100, default 25; 0, 101, abc, -1, 1.5 are 400", async () => {
    const one = await list(admin.key, "limit=1");
    expect(one.body.data).toHaveLength(1);
    expect(one.body.has_more).toBe(true);
    expect(typeof one.body.next_cursor).toBe("string");
    expect((await list(admin.key, "limit=100")).status).toBe(200);
    for (const v of ["0", "101", "abc", "-1", "1.5", ""]) {
      const r = await list(admin.key, `limit=${v}`);
      expect(r.status, v).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
  });

  it("unknown include values are 400 on list and single", async () => {
    expect((await list(admin.key, "include=questions,answers")).body.error.code).toBe("INVALID_PARAMETER");
    const r = await getOne(admin.key, s.s1.id, "include=bogus");
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("INVALID_PARAMETER");
  });
});

describe("serialization (spec §2.2)", () => {
  it("without include: members carry only id, no questions", async () => {
    const r = await getOne(m2.key, s.s6.id);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: {
        id: s.s6.id,
        name: "Owner not member",
        state: "active",
        time: "10:30:00",
        wait_time: 15,
        timezone: "Europe/Berlin",
        days: ["Mon", "Wed"],
        broadcast_channel: null,
        is_anonymous: false,
        is_confidential: false,
        owner: m2.chat_id,
        created: "2026-01-07T00:00:00.000Z",
        updated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        members: [{ id: m3.chat_id }],
      },
    });
    expect(r.headers.get("content-type")).toContain("application/json");
  });

  it("include: member fields one by one and questions ordered by position (0-indexed display order), archived excluded", async () => {
    const [q0, , q2] = s.s6.questions;
    const r = await getOne(m2.key, s.s6.id, "include=questions,member_email,member_username,member_realname");
    expect(r.body.data.members).toEqual([{ id: m3.chat_id, email: m3.email, username: m3.username, realname: m3.realname }]);
    expect(r.body.data.questions).toEqual([
      { id: q2.id, text: "Plans?", position: 0, answer_type: "text", choices: [] },
      // stored position 5 (a gap after an archived question): the display order index is 1
      { id: q0.id, text: "Mood?", position: 1, answer_type: "multiple_choice", choices: ["good", "bad"] },
    ]);
    expect((await getOne(m2.key, s.s6.id, "include=member_email")).body.data.members).toEqual([{ id: m3.chat_id, email: m3.email }]);
    expect((await getOne(m2.key, s.s6.id, "include=member_username")).body.data.members).toEqual([
      { id: m3.chat_id, username: m3.username },
    ]);
    expect((await getOne(m2.key, s.s6.id, "include=member_realname")).body.data.members).toEqual([
      { id: m3.chat_id, realname: m3.realname },
    ]);
    expect((await getOne(m2.key, s.s6.id, "include=member_realname")).body.data.questions).toBeUndefined();
  });

  it("list items use the same serializer and honour include", async () => {
    const r = await list(admin.key, "include=questions,member_email&state=paused");
    const item = r.body.data[0];
    expect(item.broadcast_channel).toEqual({ id: A.channels[1].chat_id, name: A.channels[1].name });
    expect(item.is_anonymous).toBe(true);
    expect(item.state).toBe("paused");
    expect(item.wait_time).toBe(0);
    expect(item.members).toEqual([
      { id: admin.chat_id, email: admin.email },
      { id: m0.chat_id, email: m0.email },
    ]);
    expect(item.questions.map((q: { position: number }) => q.position)).toEqual([0, 1, 2]);
  });

  it("the one-statement reads return exactly the rows of the Prisma select (checkinViewSelect)", async () => {
    for (const actor of [admin, m0, m1, m2]) {
      const who = { teamId: A.id, userId: actor.id, userChatId: actor.chat_id, isAdmin: actor.is_admin };
      for (const kind of ["standup", "poll"] as const) {
        for (const withQuestions of [true, false]) {
          const rows = await listCheckins(who, kind, { states: ["active", "paused"], limit: 50, withQuestions });
          const expected = await db.checkin.findMany({
            where: { id: { in: rows.map((r) => r.id) } },
            orderBy: [{ created_at: "desc" }, { id: "desc" }],
            select: checkinViewSelect({ withQuestions }),
          });
          expect(rows, `${actor.username} ${kind} ${withQuestions}`).toEqual(expected);
          for (const row of rows) expect(await getCheckin(who, kind, row.id, { withQuestions })).toEqual(row);
        }
      }
    }
    // The fixture exercises archived and reordered questions, channel-less and paused standups.
    const all = await listCheckins({ teamId: A.id, userId: m2.id, userChatId: m2.chat_id, isAdmin: false }, "standup", {
      states: ["active", "paused"],
      limit: 50,
      withQuestions: true,
    });
    expect(all.find((r) => r.id === s.s6.id)?.questions?.map((q) => q.text)).toEqual(["Plans?", "Mood?"]);
  });

  it("poll variant (spec §2.3) has no wait_time and no is_confidential", async () => {
    const row = (await db.checkin.findUniqueOrThrow({
      where: { id: s.p1.id },
      select: checkinViewSelect({ withQuestions: true }),
    })) as unknown as CheckinView;
    const poll = serializeCheckinV2(row, new Set(["questions"]));
    expect(poll).not.toHaveProperty("wait_time");
    expect(poll).not.toHaveProperty("is_confidential");
    expect(poll.owner).toBe(admin.chat_id);
    expect(poll.questions).toHaveLength(3);
  });
});

describe("cursor pagination and query count", () => {
  let walker: TestUser;
  let expected: number[];

  beforeAll(async () => {
    walker = A.users[4]; // m3: member of s1 and s6 already
    const created: Array<{ id: number; at: Date }> = [];
    for (let i = 0; i < 21; i++) {
      // groups of three share one created_at to exercise the id tie-break
      const at = new Date(Date.UTC(2025, 5, 1 + Math.floor(i / 3)));
      const c = await createTestCheckin(A, {
        name: `Walk ${i}`,
        owner: walker,
        members: [walker],
        created_at: at,
        questions: [{ text: "Q" }],
        state: i % 4 === 0 ? "paused" : "active",
      });
      created.push({ id: c.id, at });
    }
    const all = [...created, { id: s.s1.id, at: day(1) }, { id: s.s6.id, at: day(7) }];
    expected = all.sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id).map((x) => x.id);
  });

  const walk = (qs: string, limit: number) =>
    walkPages((cursor) => list(walker.key, `${qs}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`), limit);

  for (const limit of [1, 2, 3, 5, 7, 23, 100]) {
    it(`visits every item exactly once in order with limit=${limit}`, async () => {
      expect(await walk("state=active,paused", limit)).toEqual(expected);
    });
  }

  it("walks with filters and include", async () => {
    const all = await walk("state=active&include=questions", 100);
    expect(await walk("state=active&include=member_email", 4)).toEqual(all);
    expect(all.length).toBeGreaterThan(10);
  });

  it("a cursor may be replayed with another limit or include", async () => {
    const first = await list(walker.key, "limit=2");
    const second = await list(walker.key, `limit=5&include=questions&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.status).toBe(200);
    expect(ids(second.body)).toEqual(expected.slice(2, 7));
  });

  it("garbage, tampered or cross-filter cursors are 400 INVALID_PARAMETER", async () => {
    const first = await list(walker.key, "limit=2&state=active");
    const cursor: string = first.body.next_cursor;
    const [payload, sig] = cursor.split(".");
    const tamperedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), p: ["2030-01-01T00:00:00.000Z", 1] }),
    ).toString("base64url");
    const flip = (x: string) => (x[0] === "A" ? "B" : "A") + x.slice(1);
    const bad = [
      "state=active&cursor=garbage",
      "state=active&cursor=",
      "state=active&cursor=a.b.c",
      `state=active&cursor=${encodeURIComponent(`${tamperedPayload}.${sig}`)}`,
      `state=active&cursor=${encodeURIComponent(`${payload}.${flip(sig)}`)}`,
      `cursor=${encodeURIComponent(cursor)}`, // default state set differs from state=active
      `state=paused&cursor=${encodeURIComponent(cursor)}`,
      `state=active&is_anonymous=false&cursor=${encodeURIComponent(cursor)}`,
      `state=active&created_since=2020-01-01&cursor=${encodeURIComponent(cursor)}`,
      `state=active&broadcast_channel=${A.channels[0].chat_id}&cursor=${encodeURIComponent(cursor)}`,
    ];
    for (const qs of bad) {
      const r = await list(walker.key, qs);
      expect(r.status, qs).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
    // same filters in another order and spelling are the same binding
    expect((await list(walker.key, `state=active,active&limit=2&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
  });

  it("query count (no N+1): a page of 100 issues as many SQL queries as a page of 2", async () => {
    const walker = A.users[4];
    const { warmUp, expectFlatQueryCount } = listQueryMeter(queries, (qs) => list(walker.key, qs));
    await warmUp();
    await expectFlatQueryCount("limit=2&include=questions,member_email", "limit=100&include=questions,member_email");
    // A single read stays within the read path's bound: at most 2 round trips, the API-key lookup
    // included (issue 14); it may pay the key lookup when the 5 s key cache has expired.
    const single = await queries.during(() => getOne(walker.key, s.s6.id, "include=questions"));
    expect(single).toBeLessThanOrEqual(2);
  });
});
