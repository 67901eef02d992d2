/**
 * Late and unscheduled answers through the API (issue 10 "Late and early answers"), the Sunday
 * scenario of the issue: a member answers two days after a run she missed, on a day the standup
 * does not run. The answer completes her pending report of that run (through v2 and v1 alike), no
 * occurrence is created for today, and nobody else's participation changes. A colleague with
 * nothing pending gets an ad-hoc report: no occurrence, in no participation figure (issue 41: no
 * phantom "1/1 · Everyone answered" run on a day the standup does not run).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as v1Submit } from "@/app/v1/reports/route";
import { DELETE as deleteReport } from "@/app/v2/reports/[reportId]/route";
import { GET as listReportsRoute, POST as v2Submit } from "@/app/v2/reports/route";
import { GET as participationRoute } from "@/app/v2/standups/[standupId]/participation/route";
import { db } from "@/lib/db";
import { WEEKDAYS } from "@/lib/domain/constants";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

const DAY = 86_400_000;
type Checkin = Awaited<ReturnType<typeof createTestCheckin>>;

let A: TestTeam;
let members: TestUser[];
let standup: Checkin;
let missedDate: string;
let occurrenceId: number;

const participation = async (key: string) =>
  (
    await call(participationRoute, {
      path: `/v2/standups/${standup.id}/participation`,
      key,
      params: { standupId: String(standup.id) },
    })
  ).body.data as Array<{ date: string; expected: number; responded: number }>;

beforeAll(async () => {
  A = await createTestTeam({ members: 4 });
  members = A.users.slice(1);
  // The standup runs only on the weekday two days ago (UTC), so today is never a scheduled day.
  const run = new Date(Date.now() - 2 * DAY);
  missedDate = run.toISOString().slice(0, 10);
  standup = await createTestCheckin(A, { members, days: [WEEKDAYS[run.getUTCDay()]], timezone: "UTC", channel: A.channels[0] });
  const occ = await createTestOccurrence(standup, missedDate, members);
  occurrenceId = occ.id;
  // The run's window closed a day later; three answered, members[0] did not (pending, missed).
  await db.occurrence.update({
    where: { id: occ.id },
    data: { closes_at: new Date(run.getTime() + DAY), closed_at: new Date(run.getTime() + DAY) },
  });
  for (const m of members.slice(1)) await createTestReport(standup, m, { occurrence_id: occ.id, submitted_at: run });
  await db.report.create({
    data: { team_id: A.id, checkin_id: standup.id, occurrence_id: occ.id, user_id: members[0].id, status: "pending" },
  });
  await db.occurrenceMember.update({
    where: { occurrence_id_user_id: { occurrence_id: occ.id, user_id: members[0].id } },
    data: { missed_at: new Date(run.getTime() + DAY) },
  });
});

describe("a late answer on a day the standup does not run", () => {
  it("completes the member's pending report of the missed run; no occurrence today; others unchanged", async () => {
    expect(await participation(A.admin.key)).toEqual([expect.objectContaining({ date: missedDate, expected: 4, responded: 3 })]);
    const answers = standup.questions.map((q) => ({ question_id: q.id, text: `late ${q.id}` }));
    const r = await call(v2Submit, { method: "POST", path: "/v2/reports", key: members[0].key, body: { standup_id: standup.id, answers } });
    expect(r.status).toBe(200);
    const report = await db.report.findUniqueOrThrow({ where: { id: r.body.data.id } });
    expect(report).toMatchObject({ occurrence_id: occurrenceId, status: "submitted" });
    expect(await db.occurrence.count({ where: { checkin_id: standup.id } })).toBe(1);
    expect(await participation(A.admin.key)).toEqual([expect.objectContaining({ date: missedDate, expected: 4, responded: 4 })]);
    const member = await db.occurrenceMember.findUniqueOrThrow({
      where: { occurrence_id_user_id: { occurrence_id: occurrenceId, user_id: members[0].id } },
    });
    expect(member.missed_at).toBeNull();
  });

  it("gives a member with nothing pending an ad-hoc report: no occurrence, in no participation figure (v1 too; issue 41)", async () => {
    const author = members[1];
    const answers = Object.fromEntries(standup.questions.map((q) => [String(q.id), { text: "weekend note" }]));
    const r = await call(v1Submit, { method: "POST", path: "/v1/reports/", key: author.key, body: { standup_id: standup.id, answers } });
    expect(r.status).toBe(200);
    const report = await db.report.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(report).toMatchObject({ status: "submitted", occurrence_id: null });
    // No phantom run: still the one occurrence, and participation lists only it, unchanged.
    expect(await db.occurrence.count({ where: { checkin_id: standup.id } })).toBe(1);
    expect(await participation(A.admin.key)).toEqual([expect.objectContaining({ date: missedDate, expected: 4, responded: 4 })]);
    // The report is still listed and broadcast like any other.
    const list = await call(listReportsRoute, { path: `/v2/reports?standup_id=${standup.id}`, key: A.admin.key });
    expect(list.body.data.map((x: { id: number }) => x.id)).toContain(r.body.id);
    expect(await db.chatMessage.count({ where: { report_id: r.body.id, kind: "report" } })).toBe(1);
    // v2 too, and a second ad-hoc report is another report (no run to edit).
    const v2Answers = standup.questions.map((q) => ({ question_id: q.id, text: "another note" }));
    const again = await call(v2Submit, {
      method: "POST",
      path: "/v2/reports",
      key: author.key,
      body: { standup_id: standup.id, answers: v2Answers },
    });
    expect(again.status).toBe(200);
    expect(again.body.data.id).not.toBe(r.body.id);
    expect(await db.occurrence.count({ where: { checkin_id: standup.id } })).toBe(1);
    const del = await call(deleteReport, {
      method: "DELETE",
      path: `/v2/reports/${r.body.id}`,
      key: author.key,
      params: { reportId: String(r.body.id) },
    });
    expect(del.status).toBe(200);
    expect(await participation(A.admin.key)).toEqual([expect.objectContaining({ date: missedDate, expected: 4, responded: 4 })]);
  });

  it("does not attach to a run whose late-answer period is over", async () => {
    await db.checkin.update({ where: { id: standup.id }, data: { late_answer_days: 0 } });
    const other = await createTestOccurrence(standup, new Date(Date.now() - 9 * DAY).toISOString().slice(0, 10), [members[2]]);
    await db.occurrence.update({ where: { id: other.id }, data: { closes_at: new Date(Date.now() - 8 * DAY) } });
    await db.report.create({
      data: { team_id: A.id, checkin_id: standup.id, occurrence_id: other.id, user_id: members[2].id, status: "pending" },
    });
    const answers = standup.questions.map((q) => ({ question_id: q.id, text: "too late" }));
    const r = await call(v2Submit, { method: "POST", path: "/v2/reports", key: members[2].key, body: { standup_id: standup.id, answers } });
    expect(r.status).toBe(200);
    const report = await db.report.findUniqueOrThrow({ where: { id: r.body.data.id } });
    expect(report.occurrence_id).toBeNull();
    expect(await db.report.count({ where: { occurrence_id: other.id, status: "pending" } })).toBe(1);
  });
});
