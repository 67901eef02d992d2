/**
 * Anonymity that holds for reports (issue 45): with the team's k = 3, an anonymous report whose
 * occurrence fewer than k people answered is shown to nobody but its author — GET /v2/reports (list
 * and one), GET /v1/reports/, the reports CSV, the dashboard's list (team-wide readers) — and is
 * shown (authorless) everywhere once a third person answered. Filters cannot single an author out.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/exports/reports.csv/route";
import { GET as v1List } from "@/app/v1/reports/route";
import { GET as v2One } from "@/app/v2/reports/[reportId]/route";
import { GET as v2List } from "@/app/v2/reports/route";
import { db } from "@/lib/db";
import { listBlockers } from "@/lib/domain/blockers";
import { listReports, resolveReportWindow } from "@/lib/domain/reports";
import { buildOccurrenceSummary } from "@/lib/domain/summaries";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

let T: TestTeam;
let admin: TestUser;
let m0: TestUser;
let m1: TestUser;
let m2: TestUser;
const SECRET = "anonymous answer text";

beforeAll(async () => {
  T = await createTestTeam({ members: 3 });
  [admin, m0, m1, m2] = T.users;
});

/** Every rendering of the standup's reports for `user`: ids (v2 list, v1 list), the CSV text, the dashboard list. */
async function seen(user: TestUser, standupId: number, inMay = true) {
  // The run is on 2026-05-04: anonymous reports carry its date as their time (coarse, issue 45).
  const win = inMay ? "since=2026-05-01T00:00:00Z&until=2026-05-08T00:00:00Z" : "";
  const v2 = await call(v2List, { path: `/v2/reports?standup_id=${standupId}&${win}`, key: user.key });
  const v1 = await call(v1List, { path: `/v1/reports/?standup_id=${standupId}`, key: user.key });
  const csv = await call(exportRoute, { path: `/exports/reports.csv?standup_id=${standupId}&${win}`, key: user.key });
  const window = inMay
    ? resolveReportWindow({ since: new Date("2026-05-01T00:00:00Z"), until: new Date("2026-05-08T00:00:00Z") })
    : resolveReportWindow({});
  const dashboard = await listReports(user.actor, { ...window, standupId, limit: 50, withAnswers: true, teamWide: "readers" });
  const blockers = await listBlockers(user.actor, { status: "all", standupId, since: new Date("2026-01-01T00:00:00Z") });
  expect([v2.status, v1.status, csv.status]).toEqual([200, 200, 200]);
  return {
    v2: v2.body.data.map((r: { id: number }) => r.id).sort(),
    v1: v1.body.map((r: { id: number }) => r.id).sort(),
    csv: csv.text,
    dashboard: dashboard.map((r) => r.id).sort(),
    blockers: blockers.map((b) => b.reportId).sort(),
    texts: [v2.text, v1.text, csv.text, JSON.stringify(dashboard), JSON.stringify(blockers)],
  };
}

describe("anonymous reports under the anonymity threshold (issue 45)", () => {
  it("two answers: only each author sees their own; a third answer shows all three, without authors", async () => {
    const standup = await createTestCheckin(T, {
      name: "Pulse",
      owner: admin,
      members: [admin, m0, m1, m2],
      is_anonymous: true,
      questions: [{ text: "Anything blocking you?" }],
    });
    // Its one question is a blocker question: the answers also reach the dashboard's blockers list.
    await db.question.update({ where: { id: standup.questions[0].id }, data: { is_blocker: true } });
    const occ = await createTestOccurrence(standup, "2026-05-04", [admin, m0, m1, m2]);
    const report = (u: TestUser) => createTestReport(standup, u, { occurrence_id: occ.id, answers: [`${SECRET} ${u.chat_id}`] });
    const [r0, r1] = [await report(m0), await report(m1)];

    const byAdmin = await seen(admin, standup.id);
    expect([byAdmin.v2, byAdmin.v1, byAdmin.dashboard, byAdmin.blockers]).toEqual([[], [], [], []]);
    for (const text of byAdmin.texts) expect(text).not.toContain(SECRET);
    const one = await call(v2One, { path: `/v2/reports/${r0.id}`, key: admin.key, params: { reportId: String(r0.id) } });
    expect(one.status).toBe(404);
    const byAuthor = await seen(m0, standup.id);
    expect([byAuthor.v2, byAuthor.v1, byAuthor.dashboard, byAuthor.blockers]).toEqual([[r0.id], [r0.id], [r0.id], [r0.id]]);
    expect(byAuthor.csv).toContain(`${SECRET} ${m0.chat_id}`);
    expect(byAuthor.csv).not.toContain(`${SECRET} ${m1.chat_id}`);
    // The run's summary (offline engine) leaves the anonymous answers out while below k.
    const summary = async () => {
      await buildOccurrenceSummary(occ.id, null);
      const row = await db.occurrenceSummary.findFirstOrThrow({ where: { occurrence_id: occ.id } });
      return `${row.text} ${JSON.stringify(row.sections)}`;
    };
    expect(await summary()).not.toContain(SECRET);

    const r2 = await report(m2);
    expect(await summary()).toContain(SECRET);
    const all = [r0.id, r1.id, r2.id].sort();
    const shown = await seen(admin, standup.id);
    expect([shown.v2, shown.v1, shown.dashboard, shown.blockers]).toEqual([all, all, all, all]);
    const win = "since=2026-05-01T00:00:00Z&until=2026-05-08T00:00:00Z";
    const list = await call(v2List, { path: `/v2/reports?standup_id=${standup.id}&${win}`, key: admin.key });
    expect(list.body.data.every((r: { user_id: string | null }) => r.user_id === null)).toBe(true);
    // A filter by author never singles one out.
    const filtered = await call(v2List, { path: `/v2/reports?standup_id=${standup.id}&user_id=${m0.chat_id}&${win}`, key: admin.key });
    expect(filtered.body.data).toEqual([]);
  });

  it("ad-hoc anonymous reports (no run) count with the standup's other ad-hoc reports of the same day", async () => {
    const standup = await createTestCheckin(T, { name: "Ad hoc", owner: admin, members: [admin, m0, m1, m2], is_anonymous: true });
    const at = new Date("2026-05-09T10:00:00Z");
    const [a0, a1] = [await createTestReport(standup, m0, { submitted_at: at }), await createTestReport(standup, m1, { submitted_at: at })];
    // Another day's ad-hoc report does not count towards this day.
    await createTestReport(standup, m2, { submitted_at: new Date("2026-05-10T10:00:00Z") });
    const read = async () =>
      (
        await listReports(admin.actor, {
          since: new Date("2026-05-09T00:00:00Z"),
          until: new Date("2026-05-11T00:00:00Z"),
          standupId: standup.id,
          limit: 50,
          withAnswers: false,
        })
      )
        .map((r) => r.id)
        .sort();
    expect(await read()).toEqual([]);
    const a2 = await createTestReport(standup, m2, { submitted_at: new Date("2026-05-09T18:00:00Z") });
    expect(await read()).toEqual([a0.id, a1.id, a2.id].sort());
  });

  it("named reports are never held back", async () => {
    const standup = await createTestCheckin(T, { name: "Named", owner: admin, members: [admin, m0] });
    const r = await createTestReport(standup, m0);
    expect((await seen(admin, standup.id, false)).v2).toEqual([r.id]);
  });
});
