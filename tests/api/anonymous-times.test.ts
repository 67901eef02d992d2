/**
 * Anonymous report timestamps are coarse in every output (issue 45): the reports of an anonymous
 * standup's run show the run's date at 00:00 in the standup's timezone (plus a random fraction of
 * a second) in GET /v2/reports, GET /v1/reports/ (and no `chat_ts`, a message id being a time),
 * the reports CSV and the dashboard list; their answers' stored times too; and a run's anonymous
 * reports are not listed in the order they were written (that order is random, not by id).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/exports/reports.csv/route";
import { GET as v1List } from "@/app/v1/reports/route";
import { GET as v2List } from "@/app/v2/reports/route";
import { db } from "@/lib/db";
import { listReports, resolveReportWindow } from "@/lib/domain/reports";
import { createTestCheckin, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { submitEveryAnswer } from "@/tests/standup-fixtures";

let T: TestTeam;

beforeAll(async () => {
  T = await createTestTeam({ members: 8 });
});

describe("coarse times of anonymous reports (issue 45)", () => {
  it("every output shows the run's date at 00:00 in the standup's timezone, in no submission order", async () => {
    const [admin, ...members] = T.users;
    const standup = await createTestCheckin(T, { name: "Coarse", owner: admin, members: T.users, is_anonymous: true });
    await db.checkin.update({ where: { id: standup.id }, data: { timezone: "Asia/Tokyo" } });
    const submit = (u: TestUser) => submitEveryAnswer(u.actor, standup, `coarse ${u.chat_id}`);
    const ids: number[] = [];
    for (const u of members) ids.push((await submit(u)).reportId);

    const stored = await db.report.findMany({ where: { id: { in: ids } }, include: { occurrence: true, answers: true } });
    const tokyoDay = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Tokyo" }).format(d);
    const day = stored[0].occurrence ? stored[0].occurrence.date.toISOString().slice(0, 10) : tokyoDay(new Date());
    // 00:00 in Tokyo is 15:00 UTC the day before.
    const midnight = new Date(`${day}T00:00:00+09:00`).getTime();
    for (const r of stored) {
      for (const at of [
        r.submitted_at,
        r.started_at,
        r.created_at,
        r.updated_at,
        ...r.answers.flatMap((a) => [a.created_at, a.updated_at]),
      ]) {
        expect(at?.getTime()).toBeGreaterThanOrEqual(midnight);
        expect(at?.getTime()).toBeLessThan(midnight + 1000);
      }
    }

    const window = `since=${new Date(midnight - 1000).toISOString()}`;
    const v2 = await call(v2List, { path: `/v2/reports?standup_id=${standup.id}&${window}`, key: admin.key });
    expect(v2.status).toBe(200);
    const v2Ids = v2.body.data.map((r: { id: number }) => r.id);
    expect([...v2Ids].sort()).toEqual([...ids].sort());
    for (const r of v2.body.data) expect(new Date(r.posted_at).getTime() - midnight).toBeLessThan(1000);
    // Newest first by time then id would be submission order: the run comes out in another order.
    expect(v2Ids).not.toEqual([...ids].sort((a, b) => b - a));

    const v1 = await call(v1List, { path: `/v1/reports/?standup_id=${standup.id}`, key: admin.key });
    expect(v1.status).toBe(200);
    for (const r of v1.body) expect(r).toMatchObject({ timestamp: midnight / 1000, chat_ts: null, slack_ts: null });

    const csv = await call(exportRoute, { path: `/exports/reports.csv?standup_id=${standup.id}&${window}`, key: admin.key });
    const times = [...csv.text.matchAll(/\d{4}-\d\d-\d\dT[\d:.]+Z/g)].map((m) => new Date(m[0]).getTime() - midnight);
    expect(times).toHaveLength(ids.length * standup.questions.length);
    for (const t of times) expect(t).toBeLessThan(1000);

    const dashboard = await listReports(admin.actor, {
      ...resolveReportWindow({ since: new Date(midnight - 1000) }),
      standupId: standup.id,
      limit: 50,
      withAnswers: true,
      teamWide: "readers",
    });
    for (const r of dashboard) expect(r.submitted_at.getTime() - midnight).toBeLessThan(1000);

    // An edit keeps the coarse time.
    const before = await db.report.findUniqueOrThrow({ where: { id: ids[0] } });
    await submit(members[0]);
    const after = await db.report.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(after.submitted_at).toEqual(before.submitted_at);
  });
});
