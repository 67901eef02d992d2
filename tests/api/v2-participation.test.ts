/**
 * GET /v2/standups/{id}/participation and GET /v2/polls/{id}/participation against the real test
 * database: expected/responded/rate/excluded.vacation per occurrence, vacations and out-of-office,
 * responders outside the snapshot, expected = 0, membership changes after the fact, since/until,
 * cursors, limits, visibility, and a fixed query count per page (no N+1).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as pollParticipationRoute } from "@/app/v2/polls/[pollId]/participation/route";
import { GET as standupParticipationRoute } from "@/app/v2/standups/[standupId]/participation/route";
import { db } from "@/lib/db";
import {
  createTestCheckin,
  createTestOccurrence,
  createTestReport,
  createTestUser,
  type StandardTeams,
  standardTeams,
  type TestUser,
} from "@/tests/fixtures";
import { call } from "@/tests/http";
import { installQueryCounter } from "@/tests/query-count";

// Count SQL statements: this file's shared Prisma client is a logging one (set before first use).
const queries = installQueryCounter();

const standupPart = (key: string, id: number | string, qs = "") =>
  call(standupParticipationRoute, {
    path: `/v2/standups/${id}/participation${qs ? `?${qs}` : ""}`,
    key,
    params: { standupId: String(id) },
  });
const pollPart = (key: string, id: number | string, qs = "") =>
  call(pollParticipationRoute, { path: `/v2/polls/${id}/participation${qs ? `?${qs}` : ""}`, key, params: { pollId: String(id) } });

let { A, B, admin, m0, m1, m2 } = {} as StandardTeams;
let outsider: TestUser;
let standup: Awaited<ReturnType<typeof createTestCheckin>>;
let poll: Awaited<ReturnType<typeof createTestCheckin>>;

beforeAll(async () => {
  ({ A, B, admin, m0, m1, m2 } = await standardTeams({ members: 3 }));
  outsider = await createTestUser(A.id);
  standup = await createTestCheckin(A, { owner: admin, members: [admin, m0, m1, m2] });
  const all = [admin, m0, m1, m2];

  // 2026-01-05: m2 on vacation and silent; m0, m1 reported; admin silent.
  const d1 = await createTestOccurrence(standup, "2026-01-05", all);
  await createTestReport(standup, m0, { occurrence_id: d1.id });
  await createTestReport(standup, m1, { occurrence_id: d1.id });
  await db.absence.create({
    data: { team_id: A.id, user_id: m2.id, kind: "vacation", start_date: new Date("2026-01-04"), end_date: new Date("2026-01-06") },
  });
  // 2026-01-06: m2 on vacation but reported (counts); m0 pending; m1 discarded; admin out of office.
  const d2 = await createTestOccurrence(standup, "2026-01-06", all);
  await createTestReport(standup, m2, { occurrence_id: d2.id });
  await createTestReport(standup, m0, { occurrence_id: d2.id, status: "pending" });
  await createTestReport(standup, m1, { occurrence_id: d2.id, status: "discarded" });
  await db.absence.create({
    data: { team_id: A.id, user_id: admin.id, kind: "out_of_office", start_date: new Date("2026-01-06"), end_date: new Date("2026-01-06") },
  });
  // 2026-01-07: snapshot only m0; admin reported anyway (joined later that day); m0 reported twice.
  const d3 = await createTestOccurrence(standup, "2026-01-07", [m0]);
  await createTestReport(standup, m0, { occurrence_id: d3.id });
  await createTestReport(standup, m0, { occurrence_id: d3.id });
  await createTestReport(standup, admin, { occurrence_id: d3.id });
  // 2026-01-08: nobody expected.
  await createTestOccurrence(standup, "2026-01-08", []);

  poll = await createTestCheckin(A, {
    kind: "poll",
    owner: m0,
    members: [admin, m0, m1],
    questions: [{ text: "Pick", choices: ["a", "b"] }],
  });
  const p1 = await createTestOccurrence(poll, "2026-02-01", [admin, m0, m1]);
  const p2 = await createTestOccurrence(poll, "2026-02-08", [admin, m0]);
  const q = poll.questions[0].id;
  await db.vote.createMany({
    data: [
      { team_id: A.id, occurrence_id: p1.id, question_id: q, user_id: m0.id, choice: "a" },
      { team_id: A.id, occurrence_id: p1.id, question_id: q, user_id: m0.id, choice: "b" },
      { team_id: A.id, occurrence_id: p1.id, question_id: q, user_id: m1.id, choice: "a" },
      { team_id: A.id, occurrence_id: p2.id, question_id: q, user_id: m2.id, choice: "b" },
    ],
  });
});

const expectedEntries = () => [
  { date: "2026-01-08", expected: 0, responded: 0, participation_rate: 0, excluded: { vacation: 0 } },
  { date: "2026-01-07", expected: 2, responded: 2, participation_rate: 1, excluded: { vacation: 0 } },
  { date: "2026-01-06", expected: 3, responded: 1, participation_rate: 0.3333, excluded: { vacation: 1 } },
  { date: "2026-01-05", expected: 3, responded: 2, participation_rate: 0.6667, excluded: { vacation: 1 } },
];

describe("GET /v2/standups/{id}/participation", () => {
  it("one entry per occurrence, newest first, with vacation exclusions", async () => {
    const r = await standupPart(m0.key, standup.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(r.body.data).toEqual(expectedEntries().map((e) => ({ standup_id: standup.id, is_poll: false, ...e })));
  });

  it("does not change when membership changes after the fact", async () => {
    await db.checkinMember.deleteMany({ where: { checkin_id: standup.id, user_id: m1.id } });
    await db.checkinMember.create({ data: { checkin_id: standup.id, user_id: outsider.id, team_id: A.id } });
    const r = await standupPart(admin.key, standup.id);
    expect(r.body.data.map((e: object) => ({ ...e, standup_id: undefined, is_poll: undefined }))).toEqual(
      expectedEntries().map((e) => ({ ...e, standup_id: undefined, is_poll: undefined })),
    );
    await db.checkinMember.deleteMany({ where: { checkin_id: standup.id, user_id: outsider.id } });
    await db.checkinMember.create({ data: { checkin_id: standup.id, user_id: m1.id, team_id: A.id } });
  });

  it("since (inclusive) / until (exclusive) on the occurrence date", async () => {
    const dates = async (qs: string) => (await standupPart(m0.key, standup.id, qs)).body.data.map((e: { date: string }) => e.date);
    expect(await dates("since=2026-01-06&until=2026-01-08")).toEqual(["2026-01-07", "2026-01-06"]);
    expect(await dates("since=2026-01-07")).toEqual(["2026-01-08", "2026-01-07"]);
    expect(await dates("until=2026-01-06")).toEqual(["2026-01-05"]);
    expect(await dates("since=2026-01-06T12:00:00Z&until=2026-01-06T13:00:00Z")).toEqual(["2026-01-06"]);
    expect(await dates("since=2027-01-01")).toEqual([]);
  });

  it("paginates with a cursor bound to since/until", async () => {
    const p1 = await standupPart(m0.key, standup.id, "limit=3");
    expect(p1.body.data.map((e: { date: string }) => e.date)).toEqual(["2026-01-08", "2026-01-07", "2026-01-06"]);
    expect(p1.body.has_more).toBe(true);
    const p2 = await standupPart(m0.key, standup.id, `limit=3&cursor=${p1.body.next_cursor}`);
    expect(p2.body.data.map((e: { date: string }) => e.date)).toEqual(["2026-01-05"]);
    expect(p2.body).toMatchObject({ has_more: false, next_cursor: null });
    const bad = await standupPart(m0.key, standup.id, `limit=3&since=2026-01-01&cursor=${p1.body.next_cursor}`);
    expect(bad.status).toBe(400);
    const otherStandup = await standupPart(m0.key, poll.id, `cursor=${p1.body.next_cursor}`);
    expect([400, 404]).toContain(otherStandup.status);
  });

  it("400 INVALID_PARAMETER for invalid dates, reversed range, bad limit, bad cursor", async () => {
    for (const qs of ["since=nope", "since=2026-01-08&until=2026-01-05", "limit=0", "limit=101", "limit=x", "cursor=abc"]) {
      const r = await standupPart(m0.key, standup.id, qs);
      expect(r.status, qs).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
  });

  it("404 for non-visible standups: not a member, confidential not owned, polls, other teams, archived", async () => {
    const confidential = await createTestCheckin(A, { owner: admin, members: [admin, m0], is_confidential: true });
    const archived = await createTestCheckin(A, { members: [m0], state: "archived" });
    const foreign = await createTestCheckin(B, {});
    expect((await standupPart(outsider.key, standup.id)).status).toBe(404);
    expect((await standupPart(m0.key, confidential.id)).status).toBe(404);
    expect((await standupPart(admin.key, confidential.id)).status).toBe(200);
    for (const id of [poll.id, archived.id, foreign.id, "x"]) expect((await standupPart(m0.key, id)).status).toBe(404);
  });

  it("defaults to the latest 30 occurrences, with a fixed number of queries", async () => {
    const big = await createTestCheckin(A, { members: [m0] });
    for (let i = 0; i < 32; i++) {
      const date = new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10);
      const occ = await createTestOccurrence(big, date, [m0, m1]);
      if (i % 2 === 0) await createTestReport(big, m0, { occurrence_id: occ.id });
    }
    queries.reset();
    const r = await standupPart(m0.key, big.id);
    const fullPageQueries = queries.count;
    expect(r.body.data).toHaveLength(30);
    expect(r.body.has_more).toBe(true);
    expect(r.body.data[0].date).toBe("2025-02-01");
    queries.reset();
    await standupPart(m0.key, big.id, "limit=1");
    expect(fullPageQueries).toBe(queries.count);
    expect(fullPageQueries).toBeLessThanOrEqual(4);
  });
});

describe("GET /v2/polls/{id}/participation", () => {
  it("one entry per broadcast: expected = recipients, responded = distinct voters", async () => {
    const r = await pollPart(m0.key, poll.id);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      { poll_id: poll.id, is_poll: true, date: "2026-02-08", expected: 3, responded: 1, participation_rate: 0.3333 },
      { poll_id: poll.id, is_poll: true, date: "2026-02-01", expected: 3, responded: 2, participation_rate: 0.6667 },
    ]);
    const ranged = await pollPart(m0.key, poll.id, "since=2026-02-02");
    expect(ranged.body.data.map((e: { date: string }) => e.date)).toEqual(["2026-02-08"]);
  });

  it("404 unless the caller created the poll", async () => {
    expect((await pollPart(admin.key, poll.id)).status).toBe(404);
    expect((await pollPart(m0.key, standup.id)).status).toBe(404);
    expect((await pollPart(B.admin.key, poll.id)).status).toBe(404);
  });
});
