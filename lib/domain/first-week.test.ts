/**
 * Issue 41 ("the defects a team meets in its first week"), domain side of items 2, 3 and 4: an
 * answer on a day the standup does not run opens no run (the answer page says so first), a
 * duplicate starts paused and asks nobody until activated (drafts can be activated), and a
 * deactivated person keeps their name on their past reports.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { WEEKDAYS } from "@/lib/domain/constants";
import { getOverview } from "@/lib/domain/dashboard";
import { UnprocessableError } from "@/lib/domain/errors";
import { previewMyAnswer } from "@/lib/domain/occurrence-resolution";
import { deactivatePerson } from "@/lib/domain/people";
import { submitReport } from "@/lib/domain/report-writes";
import { listReports, teamPeopleNames } from "@/lib/domain/reports";
import { duplicateStandup, setStandupState } from "@/lib/domain/standup-writes";
import { getStandupSettings } from "@/lib/domain/standups";
import { createTestCheckin, createTestReport, createTestTeam } from "@/tests/fixtures";

const ALL_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

describe("duplicate (issue 41 item 3)", () => {
  it("starts paused with no next run, so the same members are not asked twice; Activate schedules it", async () => {
    const team = await createTestTeam({ members: 2 });
    const source = await createTestCheckin(team, { days: ALL_DAYS });
    const copy = await duplicateStandup(team.admin.actor, source.id, {});
    expect(copy.state).toBe("paused");
    const row = await db.checkin.findUniqueOrThrow({ where: { id: copy.id }, select: { next_run_at: true } });
    expect(row.next_run_at).toBeNull();
    await setStandupState(team.admin.actor, { standupId: copy.id, state: "active" });
    const active = await db.checkin.findUniqueOrThrow({ where: { id: copy.id }, select: { state: true, next_run_at: true } });
    expect(active.state).toBe("active");
    expect(active.next_run_at).not.toBeNull();
    // The legacy v1 endpoint keeps its contract: its copy runs at once.
    expect((await duplicateStandup(team.admin.actor, source.id, {}, { state: "active" })).state).toBe("active");
  });

  it("a draft's copy is a draft, and a draft can be activated (never paused)", async () => {
    const team = await createTestTeam({ members: 1 });
    const draft = await createTestCheckin(team, { days: ALL_DAYS, state: "draft" });
    const copy = await duplicateStandup(team.admin.actor, draft.id, {});
    expect(copy.state).toBe("draft");
    await expect(setStandupState(team.admin.actor, { standupId: copy.id, state: "paused" })).rejects.toBeInstanceOf(UnprocessableError);
    await setStandupState(team.admin.actor, { standupId: copy.id, state: "active" });
    expect((await getStandupSettings(team.admin.actor, copy.id)).state).toBe("active");
  });
});

describe("history keeps names (issue 41 item 4)", () => {
  it("names a deactivated author of past reports", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, leaver] = team.users;
    const standup = await createTestCheckin(team, { members: [admin, leaver] });
    await createTestReport(standup, leaver);
    await deactivatePerson(admin.actor, { teamId: team.id, userId: leaver.id });
    const names = await teamPeopleNames(admin.actor);
    const rows = await listReports(admin.actor, {
      since: new Date(Date.now() - 86_400_000),
      until: new Date(Date.now() + 60_000),
      limit: 10,
      withAnswers: false,
      teamWide: "readers",
    });
    expect(rows.map((r) => names.get(r.user.chat_id))).toEqual([leaver.realname]);
    // Another team's people are never named.
    const other = await createTestTeam({ members: 0 });
    expect((await teamPeopleNames(other.admin.actor)).has(leaver.chat_id)).toBe(false);
  });
});

describe("an answer on a day the standup does not run (issue 41 item 2)", () => {
  it("is an ad-hoc report: no occurrence, nothing on the Overview; the answer page says so before; a scheduled day says today's run", async () => {
    const team = await createTestTeam({ members: 1 });
    const [admin, ann] = team.users;
    const todayIndex = new Date().getUTCDay();
    const notToday = WEEKDAYS.filter((_, i) => i !== todayIndex);
    const offDay = await createTestCheckin(team, { members: [ann], days: notToday, timezone: "UTC" });
    const everyDay = await createTestCheckin(team, { members: [ann], days: [...WEEKDAYS], timezone: "UTC" });
    const answers = (s: typeof offDay) => s.questions.map((q) => ({ questionId: q.id, text: "note" }));

    expect(await previewMyAnswer(ann.actor, offDay.id)).toMatchObject({ rule: "adhoc" });
    const adhoc = await submitReport(ann.actor, { standupId: offDay.id, answers: answers(offDay) });
    expect(adhoc.occurrenceId).toBeNull();
    expect(await db.occurrence.count({ where: { checkin_id: offDay.id } })).toBe(0);
    const overview = await getOverview(admin.actor, { timezone: "UTC" });
    expect(overview.week.filter((o) => o.checkinId === offDay.id)).toEqual([]);
    // Still ad-hoc afterwards (no run was opened by the first one).
    expect(await previewMyAnswer(ann.actor, offDay.id)).toMatchObject({ rule: "adhoc" });

    const today = new Date().toISOString().slice(0, 10);
    expect(await previewMyAnswer(ann.actor, everyDay.id)).toEqual({ rule: "today", date: today, answered: false });
    const run = await submitReport(ann.actor, { standupId: everyDay.id, answers: answers(everyDay) });
    expect(run.occurrenceId).not.toBeNull();
    expect(await previewMyAnswer(ann.actor, everyDay.id)).toEqual({ rule: "today", date: today, answered: true });
    // Not a member: nothing to preview.
    expect(await previewMyAnswer(admin.actor, offDay.id)).toBeNull();
  });

  it("a manual-only standup nobody started: the answer opens today's run of its author; a second one edits it", async () => {
    const team = await createTestTeam({ members: 2 });
    const [, ann, bob] = team.users;
    const manual = await createTestCheckin(team, { members: [ann, bob], days: [...WEEKDAYS], timezone: "UTC" });
    await db.checkin.update({ where: { id: manual.id }, data: { wait_time: null } });
    const answers = manual.questions.map((q) => ({ questionId: q.id, text: "manual" }));
    const today = new Date().toISOString().slice(0, 10);
    expect(await previewMyAnswer(ann.actor, manual.id)).toEqual({ rule: "manual", date: today, answered: false });
    const first = await submitReport(ann.actor, { standupId: manual.id, answers });
    expect(first.occurrenceId).not.toBeNull();
    expect(await previewMyAnswer(ann.actor, manual.id)).toEqual({ rule: "manual", date: today, answered: true });
    const second = await submitReport(ann.actor, { standupId: manual.id, answers: answers.map((a) => ({ ...a, text: "again" })) });
    expect(second.reportId).toBe(first.reportId);
    const bobs = await submitReport(bob.actor, { standupId: manual.id, answers });
    expect(bobs.occurrenceId).toBe(first.occurrenceId);
    expect(await db.report.count({ where: { occurrence_id: first.occurrenceId } })).toBe(2);
  });
});
