/**
 * GET /v2/reports and GET /v2/reports/{id} against the real test database: the window defaults
 * and limits, every filter, view=summary|full, anonymity rules, the visibility matrix, errors,
 * cursor walks and a query-count check (spec §2.4, §4.2, §7, §8).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getReportRoute } from "@/app/v2/reports/[reportId]/route";
import { GET as listReportsRoute } from "@/app/v2/reports/route";
import { GET as listStandupsRoute } from "@/app/v2/standups/route";
import { encodeCursor } from "@/lib/api/cursor";
import { reportCursorPosition, toReportListFilters } from "@/lib/api/v2/reports";
import { db } from "@/lib/db";
import { resolveReportWindow } from "@/lib/domain/reports";
import { walkPages } from "@/tests/cursor-walk";
import {
  createTestCheckin,
  createTestOccurrence,
  createTestReport,
  createTestTeam,
  type StandardTeams,
  standardTeams,
  type TestUser,
} from "@/tests/fixtures";
import { call } from "@/tests/http";
import { installQueryCounter, listQueryMeter } from "@/tests/query-count";

// Count SQL statements: this file's shared Prisma client is a logging one (set before first use).
const queries = installQueryCounter();

const list = (key: string | undefined, qs = "") => call(listReportsRoute, { path: `/v2/reports${qs ? `?${qs}` : ""}`, key });
const getOne = (key: string | undefined, id: number | string) =>
  call(getReportRoute, { path: `/v2/reports/${id}`, key, params: { reportId: String(id) } });
const ids = (body: { data: Array<{ id: number }> }) => body.data.map((r) => r.id);
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const now = Date.now();
const ago = (ms: number) => new Date(now - ms);
const iso = (d: Date) => encodeURIComponent(d.toISOString());

type Checkin = Awaited<ReturnType<typeof createTestCheckin>>;
const st: Record<string, Checkin> = {};
const r: Record<string, { id: number; submitted_at: Date | null }> = {};

let { A, B, admin, m0, m1, m2, m3 } = {} as StandardTeams;
beforeAll(async () => {
  ({ A, B, admin, m0, m1, m2, m3 } = await standardTeams({ members: 4 }));
  st.sA = await createTestCheckin(A, { name: "Daily", owner: admin, members: [admin, m0, m1, m2] });
  st.sAnon = await createTestCheckin(A, { name: "Anonymous", owner: admin, members: [admin, m0, m1], is_anonymous: true });
  st.sPaused = await createTestCheckin(A, { name: "Paused", owner: admin, members: [admin, m0, m1], state: "paused" });
  st.sConf = await createTestCheckin(A, { name: "Confidential", owner: m1, members: [m0, m1, m2], is_confidential: true });
  st.sDraft = await createTestCheckin(A, { name: "Draft", owner: admin, state: "draft" });
  st.sArch = await createTestCheckin(A, { name: "Archived", owner: admin, state: "archived" });
  st.sB = await createTestCheckin(B, { name: "Other team", owner: B.admin });

  // r1, r2 and r3 answer one occurrence: three people, so the anonymous r3 reaches the team's
  // anonymity threshold (k = 3, issue 45); r8, alone in its standup, stays hidden from all but its author.
  // The run's date is r3's (an anonymous report's time is its run's date at 00:00, issue 45).
  const occurrence_id = (
    await createTestOccurrence(
      st.sA,
      ago(72 * HOUR)
        .toISOString()
        .slice(0, 10),
      [admin, m0, m1, m2],
    )
  ).id;
  r.r1 = await createTestReport(st.sA, m0, { submitted_at: ago(24 * HOUR), answers: ["y1", "t1", "b1"], occurrence_id });
  r.r2 = await createTestReport(st.sA, m1, { submitted_at: ago(48 * HOUR), occurrence_id });
  r.r3 = await createTestReport(st.sA, m2, { submitted_at: ago(72 * HOUR), is_anonymous: true, occurrence_id });
  r.r14 = await createTestReport(st.sA, m2, { submitted_at: ago(30 * HOUR) });
  r.r4 = await createTestReport(st.sA, admin, { submitted_at: ago(10 * DAY) });
  r.r5 = await createTestReport(st.sA, m0, { status: "pending" });
  r.r6 = await createTestReport(st.sA, m0, { status: "discarded", submitted_at: ago(HOUR) });
  r.r7 = await createTestReport(st.sA, m0, { submitted_at: ago(100 * DAY) });
  r.r8 = await createTestReport(st.sAnon, m0, { submitted_at: ago(25 * HOUR), is_anonymous: true });
  // r9 was submitted while the standup was not yet anonymous (stored flag false): spec §2.4 "anonymous at submission".
  r.r9 = await createTestReport(st.sAnon, m1, { submitted_at: ago(49 * HOUR), is_anonymous: false });
  r.r10 = await createTestReport(st.sPaused, m0, { submitted_at: ago(26 * HOUR) });
  r.r11 = await createTestReport(st.sConf, m0, { submitted_at: ago(27 * HOUR) });
  r.r12 = await createTestReport(st.sConf, m1, { submitted_at: ago(50 * HOUR) });
  r.r13 = await createTestReport(st.sDraft, m0, { submitted_at: ago(28 * HOUR) });
  r.r15 = await createTestReport(st.sArch, m0, { submitted_at: ago(29 * HOUR) });
  r.rB = await createTestReport(st.sB, B.admin, { submitted_at: ago(24 * HOUR) });
});

/** The named reports newest first as lists order them: by stored time (an anonymous report's is its run's date, issue 45), then id. */
const storedAt = (n: string) => (r[n].submitted_at as Date).getTime();
const order = (...names: string[]) => [...names].sort((a, b) => storedAt(b) - storedAt(a) || r[b].id - r[a].id).map((n) => r[n].id);

describe("visibility matrix", () => {
  it("list (default window): submitted reports of active standups the caller can see", async () => {
    const cases: Array<[TestUser, string[]]> = [
      [admin, ["r1", "r14", "r2", "r9", "r3"]], // r8: anonymous, below the anonymity threshold (its author only)
      [m0, ["r1", "r8", "r14", "r2", "r9", "r3"]], // member of the confidential standup, not its creator: none of it
      [m1, ["r1", "r11", "r14", "r2", "r9", "r12", "r3"]], // creator of the confidential standup sees all of it
      [m2, ["r1", "r14", "r2", "r3"]],
      [m3, []],
    ];
    for (const [user, names] of cases) {
      const res = await list(user.key);
      expect(res.status).toBe(200);
      expect({ user: user.realname, ids: ids(res.body) }).toEqual({ user: user.realname, ids: order(...names) });
      expect(res.body.has_more).toBe(false);
      expect(res.body.next_cursor).toBeNull();
    }
    expect(ids((await list(B.admin.key)).body)).toEqual([r.rB.id]);
  });

  it("single: pending, discarded, draft/archived, other team and unauthorised paused/confidential are 404", async () => {
    const cases: Array<[TestUser, string, number]> = [
      [admin, "r1", 200],
      [admin, "r4", 200], // outside the list window: single reads are not windowed
      [admin, "r7", 200],
      [admin, "r5", 404], // pending
      [admin, "r6", 404], // discarded
      [admin, "r13", 404], // draft standup
      [admin, "r15", 404], // archived standup
      [admin, "rB", 404], // other team
      [B.admin, "r1", 404],
      [B.admin, "rB", 200],
      [m3, "r1", 404], // not a member
      [admin, "r10", 200], // paused standup, caller owns it
      [m0, "r10", 404], // paused standup, caller wrote the report but does not own the standup (spec §4.2)
      [m1, "r10", 404], // paused standup, member only
      [m1, "r11", 200], // confidential, caller owns the standup
      [m0, "r11", 404], // confidential, caller wrote the report but does not own the standup (spec §4.2)
      [m0, "r12", 404], // confidential, someone else's report
      [m2, "r11", 404], // confidential, member only
      [admin, "r11", 404], // confidential, team admin is no exception
      [m0, "r13", 404], // draft standup, even for the author
    ];
    for (const [user, name, status] of cases) {
      const res = await getOne(user.key, r[name].id);
      expect({ user: user.realname, name, status: res.status }).toEqual({ user: user.realname, name, status });
      if (status === 404) expect(res.body).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
    for (const id of ["abc", "0", "99999999", "1e3"]) expect((await getOne(admin.key, id)).status).toBe(404);
  });
});

describe("serialization (spec §2.4)", () => {
  it("full view: answers ordered by question position, with question text", async () => {
    const [q0, q1, q2] = st.sA.questions;
    const res = await getOne(m0.key, r.r1.id);
    expect(res.status).toBe(200);
    const a = (await db.answer.findMany({ where: { report_id: r.r1.id }, orderBy: { question_id: "asc" } })).map((x) => x.id);
    expect(res.body).toEqual({
      data: {
        id: r.r1.id,
        standup_id: st.sA.id,
        standup_name: "Daily",
        user_id: m0.chat_id,
        posted_at: r.r1.submitted_at?.toISOString(),
        is_anonymous: false,
        is_confidential: false,
        answers: [
          { id: a[0], question_id: q0.id, question: q0.text, answer: "y1" },
          { id: a[1], question_id: q1.id, question: q1.text, answer: "t1" },
          { id: a[2], question_id: q2.id, question: q2.text, answer: "b1" },
        ],
      },
    });
  });

  it("answers follow position after a reorder", async () => {
    const [q0, q1, q2] = st.sA.questions;
    await db.question.update({ where: { id: q0.id }, data: { position: 9 } });
    try {
      const res = await list(m0.key, `standup_id=${st.sA.id}&user_id=${m0.chat_id}`);
      expect(res.body.data[0].answers.map((x: { question_id: number }) => x.question_id)).toEqual([q1.id, q2.id, q0.id]);
    } finally {
      await db.question.update({ where: { id: q0.id }, data: { position: 0 } });
    }
  });

  it("view=summary omits answers; view=full (default) has them; unknown view is 400", async () => {
    const summary = await list(m0.key, "view=summary"); // m0 also sees r8, their own anonymous report
    expect(summary.status).toBe(200);
    expect(summary.body.data.length).toBe(6);
    for (const item of summary.body.data) {
      expect(item).not.toHaveProperty("answers");
      expect(Object.keys(item).sort()).toEqual([
        "id",
        "is_anonymous",
        "is_confidential",
        "posted_at",
        "standup_id",
        "standup_name",
        "user_id",
      ]);
    }
    const full = await list(admin.key, "view=full");
    for (const item of full.body.data) expect(item.answers).toHaveLength(3);
    expect((await list(admin.key)).body).toEqual(full.body);
    const bad = await list(admin.key, "view=compact");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_PARAMETER");
  });

  it("anonymous reports (report or standup flag at submission) have user_id null and is_anonymous true", async () => {
    // r3 reached the anonymity threshold (three people answered its occurrence); r8 is read by its author.
    const res = await list(m0.key);
    const byId = new Map(res.body.data.map((x: { id: number }) => [x.id, x]));
    for (const name of ["r3", "r8"]) expect(byId.get(r[name].id)).toMatchObject({ user_id: null, is_anonymous: true });
    expect(byId.get(r.r2.id)).toMatchObject({ user_id: m1.chat_id, is_anonymous: false });
    expect((await getOne(admin.key, r.r3.id)).body.data).toMatchObject({ user_id: null, is_anonymous: true });
    expect((await getOne(m0.key, r.r8.id)).body.data).toMatchObject({ user_id: null, is_anonymous: true });
  });

  it("is_anonymous follows the flags at submission, not the standup's current flag (spec §2.4)", async () => {
    // r9: submitted before its standup was made anonymous.
    const res = await list(admin.key);
    const byId = new Map(res.body.data.map((x: { id: number }) => [x.id, x]));
    expect(byId.get(r.r9.id)).toMatchObject({ user_id: m1.chat_id, is_anonymous: false });
    expect((await getOne(admin.key, r.r9.id)).body.data).toMatchObject({ user_id: m1.chat_id, is_anonymous: false });
    // A standup made non-anonymous later keeps its earlier reports anonymous.
    const C = await createTestTeam({ members: 1 });
    const [cAdmin, c0] = C.users;
    const wasAnon = await createTestCheckin(C, { name: "Was anonymous", owner: cAdmin, members: [cAdmin, c0], is_anonymous: true });
    const old = await createTestReport(wasAnon, c0, { submitted_at: ago(2 * HOUR) });
    await db.checkin.update({ where: { id: wasAnon.id }, data: { is_anonymous: false } });
    // Read by its author: alone in its (absent) occurrence, it is below the anonymity threshold for anyone else.
    expect((await getOne(c0.key, old.id)).body.data).toMatchObject({ user_id: null, is_anonymous: true });
    expect((await list(c0.key)).body.data).toMatchObject([{ id: old.id, user_id: null, is_anonymous: true }]);
    expect((await getOne(cAdmin.key, old.id)).status).toBe(404);
    expect(ids((await list(cAdmin.key, `user_id=${c0.chat_id}`)).body)).toEqual([]);
    const conf = await getOne(m1.key, r.r11.id);
    expect(conf.body.data).toMatchObject({ is_confidential: true, user_id: m0.chat_id });
  });
});

describe("filters", () => {
  it("standup_id: visible standups only; invisible or unknown ids give nothing; non-numeric is 400", async () => {
    expect(ids((await list(admin.key, `standup_id=${st.sA.id}`)).body)).toEqual(order("r1", "r14", "r2", "r3"));
    expect(ids((await list(admin.key, `standup_id=${st.sConf.id}`)).body)).toEqual([]);
    expect(ids((await list(admin.key, `standup_id=${st.sPaused.id}`)).body)).toEqual([]);
    expect(ids((await list(admin.key, `standup_id=${st.sB.id}`)).body)).toEqual([]);
    expect(ids((await list(m1.key, `standup_id=${st.sConf.id}`)).body)).toEqual(order("r11", "r12"));
    for (const v of ["abc", "-1", "0", "1.5"]) {
      const res = await list(admin.key, `standup_id=${v}`);
      expect(res.status, v).toBe(400);
      expect(res.body.error.code).toBe("INVALID_PARAMETER");
    }
  });

  it("user_id of another user excludes anonymous reports and reports of anonymous standups", async () => {
    expect(ids((await list(admin.key, `user_id=${m0.chat_id}`)).body)).toEqual(order("r1")); // r8 is in an anonymous standup
    expect(ids((await list(admin.key, `user_id=${m1.chat_id}`)).body)).toEqual(order("r2")); // r9: anonymous standup, report flag unset
    expect(ids((await list(admin.key, `user_id=${m2.chat_id}`)).body)).toEqual(order("r14")); // r3 is an anonymous report
    expect(ids((await list(admin.key, "user_id=UNOBODY")).body)).toEqual([]);
    expect(ids((await list(admin.key, `user_id=${B.admin.chat_id}`)).body)).toEqual([]);
  });

  it("user_id of the caller includes the caller's own anonymous reports, still without author", async () => {
    const res = await list(m0.key, `user_id=${m0.chat_id}`);
    expect(ids(res.body)).toEqual(order("r1", "r8"));
    expect(res.body.data[1]).toMatchObject({ user_id: null, is_anonymous: true });
    expect(ids((await list(m2.key, `user_id=${m2.chat_id}`)).body)).toEqual(order("r14", "r3"));
  });

  it("since is inclusive, until exclusive", async () => {
    const at = r.r1.submitted_at as Date;
    expect(ids((await list(admin.key, `since=${iso(at)}&until=${iso(new Date(now))}`)).body)).toEqual(order("r1"));
    expect(ids((await list(m0.key, `since=${iso(ago(2 * DAY))}&until=${iso(at)}`)).body)).toEqual(
      order(...["r8", "r14", "r2"].filter((n) => storedAt(n) >= ago(2 * DAY).getTime())),
    ); // r2 is exactly at since
    expect(ids((await list(admin.key, `since=${iso(at)}&until=${iso(at)}`)).body)).toEqual([]);
  });

  it("only since: until defaults to now; only until: since = until − 7 days", async () => {
    expect(ids((await list(m0.key, `since=${iso(ago(12 * DAY))}`)).body)).toEqual(order("r1", "r8", "r14", "r2", "r9", "r3", "r4"));
    expect(ids((await list(admin.key, `until=${iso(ago(9 * DAY))}`)).body)).toEqual(order("r4"));
    expect(ids((await list(admin.key, `until=${iso(ago(8 * DAY))}`)).body)).toEqual(order("r4"));
    expect(ids((await list(admin.key, `until=${iso(ago(3 * DAY - 1))}`)).body)).toEqual(order("r3")); // r4 is 1 ms before the derived since
    expect(ids((await list(admin.key, `until=${iso(r.r3.submitted_at as Date)}`)).body)).toEqual(order("r4")); // r3 at until (exclusive)
  });

  it("YYYY-MM-DD dates and a window of exactly 90 days are accepted", async () => {
    const res = await list(admin.key, "since=2026-01-01&until=2026-04-01");
    expect(res.status).toBe(200);
    const wide = await list(admin.key, `since=${iso(ago(95 * DAY))}&until=${iso(ago(5 * DAY))}`);
    expect(ids(wide.body)).toEqual(order("r4"));
    const old = await list(admin.key, `since=${iso(ago(101 * DAY))}&until=${iso(ago(50 * DAY))}`);
    expect(ids(old.body)).toEqual(order("r7"));
  });

  it("bad dates, reversed ranges and windows over 90 days are 400 INVALID_PARAMETER", async () => {
    const bad = [
      "since=yesterday",
      "until=2026-02-30",
      "since=2026-01-01T25:00:00Z",
      "since=2026-03-02&until=2026-03-01",
      `since=${iso(new Date(now + DAY))}`, // future since, until defaults to now
      "since=2026-01-01&until=2026-04-01T00:00:00.001Z",
      `since=${iso(ago(91 * DAY))}`,
      "since=2025-01-01&until=2026-01-01",
    ];
    for (const qs of bad) {
      const res = await list(admin.key, qs);
      expect(res.status, qs).toBe(400);
      expect(res.body.error.code).toBe("INVALID_PARAMETER");
      expect(typeof res.body.error.message).toBe("string");
    }
  });

  it("limit: default 25, 1..100, 0/101/abc are 400", async () => {
    const res = await list(admin.key, "limit=2");
    expect(res.body.data).toHaveLength(2);
    expect(res.body.has_more).toBe(true);
    for (const v of ["0", "101", "abc", "-5", "2.5"]) {
      const bad = await list(admin.key, `limit=${v}`);
      expect(bad.status, v).toBe(400);
      expect(bad.body.error.code).toBe("INVALID_PARAMETER");
    }
  });
});

describe("window resolution (unit)", () => {
  const t = new Date("2026-06-15T12:00:00Z");
  it("defaults to the last 7 days", () => {
    expect(resolveReportWindow({}, t)).toEqual({ since: new Date("2026-06-08T12:00:00Z"), until: t });
  });
  it("derives the missing bound", () => {
    expect(resolveReportWindow({ since: new Date("2026-06-01T00:00:00Z") }, t)).toEqual({
      since: new Date("2026-06-01T00:00:00Z"),
      until: t,
    });
    expect(resolveReportWindow({ until: new Date("2026-06-01T00:00:00Z") }, t)).toEqual({
      since: new Date("2026-05-25T00:00:00Z"),
      until: new Date("2026-06-01T00:00:00Z"),
    });
  });
  it("rejects reversed and over-90-day windows", () => {
    expect(() => resolveReportWindow({ since: new Date("2026-06-02"), until: new Date("2026-06-01") }, t)).toThrow(/reversed/);
    expect(() => resolveReportWindow({ since: new Date("2026-01-01"), until: new Date("2026-06-01") }, t)).toThrow(/90 days/);
  });
  it("a cursor keeps the window of its first page while now moves", () => {
    const first = toReportListFilters({ limit: 1, view: "full" }, t);
    const row = { id: 5, submitted_at: "2026-06-14T00:00:00.000Z" };
    const cursor = encodeCursor(reportCursorPosition(first.filters)(row), first.binding);
    const later = toReportListFilters({ limit: 1, view: "full", cursor }, new Date(t.getTime() + 3 * HOUR));
    expect(later.filters).toMatchObject({ since: first.filters.since, until: t, after: { postedAt: new Date(row.submitted_at), id: 5 } });
    expect(() => toReportListFilters({ limit: 1, view: "full", cursor, standup_id: 3 }, t)).toThrow(/cursor/i);
  });
});

describe("cursor pagination and query count", () => {
  let walker: TestUser;
  let expected: number[];
  let walkerOwn: Set<number>;
  let walkStandup: Checkin;

  beforeAll(async () => {
    walker = m3;
    walkStandup = await createTestCheckin(A, { name: "Walk", owner: walker, members: [walker] });
    const rows: Array<{ id: number; at: Date }> = [];
    walkerOwn = new Set();
    for (let i = 0; i < 23; i++) {
      // groups of three share one posted_at to exercise the id tie-break
      const at = ago(HOUR + Math.floor(i / 3) * 5 * HOUR);
      const rep = await createTestReport(walkStandup, i % 2 ? walker : admin, { submitted_at: at });
      rows.push({ id: rep.id, at });
      if (i % 2) walkerOwn.add(rep.id);
    }
    await createTestReport(walkStandup, walker, { status: "pending" });
    await createTestReport(walkStandup, walker, { status: "discarded", submitted_at: ago(2 * HOUR) });
    expected = rows.sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id).map((x) => x.id);
  });

  const walk = (qs: string, limit: number) =>
    walkPages((cursor) => list(walker.key, `${qs}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`), limit);

  for (const limit of [1, 2, 3, 5, 7, 23, 100]) {
    it(`visits every report exactly once in order with limit=${limit} (default window)`, async () => {
      expect(await walk("view=summary", limit)).toEqual(expected);
    });
  }

  it("walks with explicit filters, and view may change between pages", async () => {
    const mine = await walk(`user_id=${walker.chat_id}&standup_id=${walkStandup.id}&since=${iso(ago(3 * DAY))}`, 4);
    expect(mine).toEqual(expected.filter((id) => walkerOwn.has(id)));
    expect(mine.length).toBe(11);
    const first = await list(walker.key, "limit=3&view=summary");
    const second = await list(walker.key, `limit=10&view=full&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.status).toBe(200);
    expect(ids(second.body)).toEqual(expected.slice(3, 13));
    expect(second.body.data[0].answers).toHaveLength(3);
  });

  it("garbage, tampered or cross-filter cursors are 400 INVALID_PARAMETER", async () => {
    const first = await list(walker.key, `limit=2&standup_id=${walkStandup.id}`);
    const cursor: string = first.body.next_cursor;
    const c = encodeURIComponent(cursor);
    const [payload, sig] = cursor.split(".");
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString());
    const widened = Buffer.from(
      JSON.stringify({ ...decoded, p: [decoded.p[0], decoded.p[1], "2020-01-01T00:00:00.000Z", decoded.p[3]] }),
    ).toString("base64url");
    const standupsCursor = (await call(listStandupsRoute, { path: "/v2/standups?limit=1", key: admin.key })).body.next_cursor;
    const bad = [
      `standup_id=${walkStandup.id}&cursor=nonsense`,
      `standup_id=${walkStandup.id}&cursor=${encodeURIComponent(`${widened}.${sig}`)}`,
      `standup_id=${walkStandup.id}&cursor=${encodeURIComponent(`${payload}.${sig.slice(1)}x`)}`,
      `cursor=${c}`,
      `standup_id=${st.sA.id}&cursor=${c}`,
      `standup_id=${walkStandup.id}&user_id=${walker.chat_id}&cursor=${c}`,
      `standup_id=${walkStandup.id}&since=${iso(ago(DAY))}&cursor=${c}`,
      `standup_id=${walkStandup.id}&until=${iso(ago(DAY))}&cursor=${c}`,
      `cursor=${encodeURIComponent(standupsCursor)}`,
    ];
    for (const qs of bad) {
      const res = await list(walker.key, qs);
      expect(res.status, qs).toBe(400);
      expect(res.body.error.code).toBe("INVALID_PARAMETER");
    }
    expect((await list(walker.key, `standup_id=${walkStandup.id}&limit=50&view=summary&cursor=${c}`)).status).toBe(200);
  });

  it("query count (no N+1): a page of 100 issues as many SQL queries as a page of 2", async () => {
    const { measure, warmUp, expectFlatQueryCount } = listQueryMeter(queries, (qs) => list(walker.key, qs));
    await warmUp();
    const small = await expectFlatQueryCount("limit=2", "limit=100");
    expect((await measure("limit=100&view=summary")).n).toBeLessThanOrEqual(small.n);
  });
});
