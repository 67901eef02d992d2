/**
 * Issue 41 item 1: every dashboard view, export and count follows the one reading rule of
 * lib/domain/access.ts (`DASHBOARD_READS`): admins and managers read every non-confidential
 * standup's reports and participation; a member reads only their own standups; confidential stays
 * with its creator. Each view is checked for each role against the same data.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { listBlockers } from "@/lib/domain/blockers";
import { addDaysIso, getOverview } from "@/lib/domain/dashboard";
import { type CsvExport, exportParticipation, exportReports } from "@/lib/domain/exports";
import { getMemberProfile } from "@/lib/domain/member-profile";
import { getTodayOverview } from "@/lib/domain/overview";
import { getParticipationReport } from "@/lib/domain/participation-report";
import { changeRole } from "@/lib/domain/people";
import { listReports } from "@/lib/domain/reports";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam } from "@/tests/fixtures";

const ALL_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const today = () => new Date().toISOString().slice(0, 10);

async function rowCount(exp: CsvExport): Promise<number> {
  let n = 0;
  for await (const page of exp.rows) n += page.length;
  return n;
}

/** What each dashboard view shows `actor` of the team's data, as counts. */
async function views(actor: Actor, authorChatId: string) {
  const window = { since: new Date(Date.now() - 7 * 86_400_000), until: new Date(Date.now() + 60_000) };
  const since = addDaysIso(today(), -6);
  const [blockers, todayRuns, overview, participation, profile, feed] = await Promise.all([
    listBlockers(actor, { status: "open" }),
    getTodayOverview(actor, { timezone: "UTC" }),
    getOverview(actor, { timezone: "UTC" }),
    getParticipationReport(actor, { since, until: today(), today: today() }),
    getMemberProfile(actor, { chatId: authorChatId, timezone: "UTC" }),
    listReports(actor, { ...window, limit: 50, withAnswers: false, teamWide: "readers" }),
  ]);
  return {
    blockers: blockers.length,
    todayRuns: todayRuns.standups.length,
    weekResponded: overview.week.reduce((n, o) => n + o.responded, 0),
    participationStandups: participation.standups.length,
    participationMembers: participation.members.length,
    profileReports: profile.recentReports.length,
    profileAnswered: profile.overall.answered,
    feed: feed.length,
    answersCsv: await rowCount(await exportReports(actor, window, "answers")),
    reportsCsv: await rowCount(await exportReports(actor, window, "reports")),
    occurrenceCsv: await rowCount(await exportParticipation(actor, { since, until: today() }, "occurrence")),
    memberCsv: await rowCount(await exportParticipation(actor, { since, until: today() }, "member")),
  };
}

describe("the manager role reads what the admin reads (issue 41)", () => {
  it("Blockers, Overview, Participation, a member's page, Reports and every export: admin = manager; a member outside the standup sees none; confidential stays hidden", async () => {
    const team = await createTestTeam({ members: 3 });
    const [admin, author, manager, member] = team.users;
    await changeRole(admin.actor, { userId: manager.id, role: "manager" });
    const managerActor: Actor = { ...manager.actor, isAdmin: false, role: "manager" };
    const open = await createTestCheckin(team, {
      owner: author,
      members: [author],
      days: ALL_DAYS,
      questions: [{ text: "Done?" }, { text: "Blocked?" }],
    });
    await db.question.update({ where: { id: open.questions[1].id }, data: { is_blocker: true } });
    const occ = await createTestOccurrence(open, today(), [author]);
    await createTestReport(open, author, { occurrence_id: occ.id, answers: ["Shipped", "Waiting on the VPN"] });
    // A confidential standup of the same author: nobody but its creator reads it.
    const secret = await createTestCheckin(team, { owner: author, members: [author], days: ALL_DAYS, is_confidential: true });
    const secretOcc = await createTestOccurrence(secret, today(), [author]);
    await createTestReport(secret, author, { occurrence_id: secretOcc.id });

    const expected = {
      blockers: 1,
      todayRuns: 1,
      weekResponded: 1,
      participationStandups: 1,
      participationMembers: 1,
      profileReports: 1,
      profileAnswered: 1,
      feed: 1,
      answersCsv: 2,
      reportsCsv: 1,
      occurrenceCsv: 1,
      memberCsv: 1,
    };
    expect(await views(admin.actor, author.chat_id)).toEqual(expected);
    expect(await views(managerActor, author.chat_id)).toEqual(expected);
    const nothing = Object.fromEntries(Object.keys(expected).map((k) => [k, 0]));
    expect(await views(member.actor, author.chat_id)).toEqual(nothing);
  });
});
