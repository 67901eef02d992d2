/**
 * The manager's views against a real PostgreSQL: today's roll call (overview.ts), streaks and
 * weekly buckets (member-participation.ts), the member page (member-profile.ts), the participation
 * report (participation-report.ts), grouped reports (report-groups.ts), full-text search, and the
 * CSV exports read page by page (exports.ts).
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { addAbsence } from "@/lib/domain/absences";
import { addDaysIso } from "@/lib/domain/dashboard";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { EXPORT_PAGE_SIZE, exportParticipation, exportReports } from "@/lib/domain/exports";
import { bucketByWeek, currentStreak, longestStreak, responseTimeDistribution } from "@/lib/domain/member-participation";
import { getMemberProfile } from "@/lib/domain/member-profile";
import { getTodayOverview } from "@/lib/domain/overview";
import { checkDateRange, getParticipationReport } from "@/lib/domain/participation-report";
import { getReportGroups } from "@/lib/domain/report-groups";
import { listReports } from "@/lib/domain/reports";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam } from "@/tests/fixtures";

const ALL_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const today = () => new Date().toISOString().slice(0, 10);

async function collect(rows: AsyncIterable<Array<Array<string | number | null>>>) {
  const out: Array<Array<string | number | null>> = [];
  let pages = 0;
  for await (const page of rows) {
    pages++;
    out.push(...page);
  }
  return { rows: out, pages };
}

describe("streaks and buckets", () => {
  const row = (date: string, status: "answered" | "excused" | "missed", occurrenceId = 0) => ({ date, status, occurrenceId });
  it("skips excused days, stops at a missed one, ignores today's open run", () => {
    const rows = [
      row("2026-11-16", "answered"),
      row("2026-11-17", "missed"),
      row("2026-11-18", "answered"),
      row("2026-11-19", "excused"),
      row("2026-11-20", "answered"),
      row("2026-11-22", "missed"),
    ];
    expect(currentStreak(rows, "2026-11-22")).toBe(2);
    expect(currentStreak(rows, "2026-11-23")).toBe(0);
    expect(longestStreak(rows)).toBe(2);
  });
  it("keeps weeks where nothing ran as gaps (rate null) and counts response times in buckets", () => {
    const weeks = bucketByWeek([{ date: "2026-11-02", status: "answered" }], "2026-11-01", "2026-11-20");
    expect(weeks.map((w) => [w.weekStart, w.rate])).toEqual([
      ["2026-10-26", null],
      ["2026-11-02", 1],
      ["2026-11-09", null],
      ["2026-11-16", null],
    ]);
    expect(responseTimeDistribution([5, 20, 30, 600]).buckets.map((b) => b.count)).toEqual([1, 2, 0, 0, 1]);
    expect(responseTimeDistribution([]).median).toBeNull();
  });
  it("rejects reversed and too long ranges with messages for people", () => {
    expect(() => checkDateRange({ since: "2026-11-20", until: "2026-11-01" })).toThrow("The start date must be on or before the end date");
    expect(() => checkDateRange({ since: "2020-01-01", until: "2026-01-01" })).toThrow(InvalidParameterError);
  });
});

describe("today, member page, participation report, grouped reports", () => {
  it("lists who has not answered today, never for anonymous standups", async () => {
    const team = await createTestTeam({ members: 3 });
    const [admin, a, b, c] = team.users;
    const named = await createTestCheckin(team, { days: ALL_DAYS, members: [a, b, c], name: "Named" });
    const anon = await createTestCheckin(team, { days: ALL_DAYS, members: [a, b], name: "Anon", is_anonymous: true });
    const occ = await createTestOccurrence(named, today(), [a, b, c]);
    const occAnon = await createTestOccurrence(anon, today(), [a, b]);
    await createTestReport(named, a, { occurrence_id: occ.id });
    await addAbsence(admin.actor, { userId: c.id, kind: "vacation", startDate: today(), endDate: today() });
    await createTestReport(anon, a, { occurrence_id: occAnon.id });

    const overview = await getTodayOverview(admin.actor, { timezone: "UTC" });
    const byName = Object.fromEntries(overview.standups.map((s) => [s.name, s]));
    expect(byName.Named).toMatchObject({ asked: 3, answered: 1, excused: 1, pending: 1, pendingMembers: [{ chatId: b.chat_id }] });
    expect(byName.Anon).toMatchObject({ asked: 2, answered: 1, pending: 1, pendingMembers: null });
    expect(overview.thisWeek.expected).toBeGreaterThanOrEqual(3);

    const report = await getParticipationReport(admin.actor, { since: addDaysIso(today(), -6), until: today(), today: today() });
    expect(report.standups.map((s) => s.name).sort()).toEqual(["Anon", "Named"]);
    // Per-member figures leave the anonymous standup out.
    expect(report.members.find((m) => m.chatId === a.chat_id)).toMatchObject({ answered: 1, expected: 1 });

    const profile = await getMemberProfile(admin.actor, { chatId: a.chat_id, timezone: "UTC" });
    expect(profile.standups.map((s) => s.name)).toEqual(["Named"]);
    expect(profile.overall).toMatchObject({ answered: 1, expected: 1 });
    expect(profile.recentReports.every((r) => !r.checkin.is_anonymous)).toBe(true);

    const other = await createTestTeam({ members: 1 });
    expect((await getTodayOverview(other.admin.actor, { timezone: "UTC" })).standups).toEqual([]);
    await expect(getMemberProfile(other.admin.actor, { chatId: a.chat_id, timezone: "UTC" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("groups reports by run with a roll call, marks edits and finds answers by full-text search", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, a, b] = team.users;
    const standup = await createTestCheckin(team, { days: ALL_DAYS, members: [admin, a, b] });
    const occ = await createTestOccurrence(standup, today(), [admin, a, b]);
    const ra = await createTestReport(standup, a, { occurrence_id: occ.id, answers: ["Deployed the staging cluster", "Tests", "None"] });
    await createTestReport(standup, b, { occurrence_id: occ.id, answers: ["Reviews", "Docs", "No"] });
    await db.answer.update({
      where: { id: ra.answers[1].id },
      data: { text: "Tests, then docs", updated_at: new Date(Date.now() + 60_000) },
    });

    const window = { since: new Date(Date.now() - 86_400_000), until: new Date(Date.now() + 60_000) };
    const rows = await listReports(admin.actor, { ...window, standupId: standup.id, limit: 10, withAnswers: true });
    const { meta, rollCalls } = await getReportGroups(
      admin.actor,
      rows.map((r) => r.id),
    );
    expect(meta.get(ra.id)).toMatchObject({ occurrenceId: occ.id, date: today(), edited: true, own: false });
    expect(rollCalls.get(occ.id)).toMatchObject({ answered: 2, excused: 0, notAnswered: [admin.realname] });

    const found = await listReports(admin.actor, {
      ...window,
      standupId: standup.id,
      limit: 10,
      withAnswers: false,
      search: "deploy staging",
    });
    expect(found.map((r) => r.id)).toEqual([ra.id]);
    const none = await listReports(admin.actor, { ...window, standupId: standup.id, limit: 10, withAnswers: false, search: "kubernetes" });
    expect(none).toEqual([]);
  });
});

describe("CSV exports", () => {
  it("reads reports page by page and equals the report list for the same filter", async () => {
    const team = await createTestTeam({ members: 1 });
    const [, a] = team.users;
    const standup = await createTestCheckin(team, { days: ALL_DAYS, members: [a] });
    const base = Date.now() - 3_600_000;
    const total = EXPORT_PAGE_SIZE + 3;
    await db.report.createMany({
      data: Array.from({ length: total }, (_, i) => ({
        team_id: team.id,
        checkin_id: standup.id,
        user_id: a.id,
        status: "submitted" as const,
        submitted_at: new Date(base + i * 1000),
      })),
    });
    const filters = { since: new Date(base - 1000), until: new Date(), standupId: standup.id };
    const exp = await exportReports(team.admin.actor, filters, "reports");
    expect(exp.header.slice(0, 6)).toEqual(["report_id", "posted_at", "standup_id", "standup", "user_id", "user_name"]);
    expect(exp.header.slice(6)).toEqual(standup.questions.map((q) => q.text));
    const { rows, pages } = await collect(exp.rows);
    expect(pages).toBe(2);
    expect(rows).toHaveLength(total);
    const listed = await listReports(team.admin.actor, { ...filters, limit: total + 10, withAnswers: false });
    expect(rows.map((r) => r[0])).toEqual(listed.map((r) => r.id));
  });

  it("writes participation per run and per member (anonymous standups only per run)", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, a, b] = team.users;
    const standup = await createTestCheckin(team, { days: ALL_DAYS, members: [a, b] });
    const anon = await createTestCheckin(team, { days: ALL_DAYS, members: [a, b], is_anonymous: true });
    const day = addDaysIso(today(), -1);
    const occ = await createTestOccurrence(standup, day, [a, b]);
    await createTestOccurrence(anon, day, [a, b]);
    await createTestReport(standup, a, { occurrence_id: occ.id });
    const perRun = await collect((await exportParticipation(admin.actor, { since: day, until: day }, "occurrence")).rows);
    expect(perRun.rows.find((r) => r[1] === standup.id)).toEqual([day, standup.id, standup.name, occ.id, 2, 1, 0, 1, 2, 0.5]);
    expect(perRun.rows).toHaveLength(2);
    const perMember = await collect((await exportParticipation(admin.actor, { since: day, until: day }, "member")).rows);
    expect(perMember.rows.map((r) => [r[1], r[3], r[5]])).toEqual([
      [standup.id, a.chat_id, "answered"],
      [standup.id, b.chat_id, "missed"],
    ]);
  });
});
