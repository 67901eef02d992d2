/**
 * A BOLA-style sweep (issue 45 "Anonymity that holds"): with the team's k = 3, an anonymous poll
 * with 2 votes and an anonymous standup run with 2 reports expose no count and no answer through
 * any path that can show them — GET /v2/polls/{id}/votes, GET /v1/polls/{id}/votes, the poll CSV,
 * the dashboard's poll results; GET /v2/reports (list and each one), GET /v1/reports/, the reports
 * CSV (both formats), the dashboard's reports list, blockers, participation report (choice trends)
 * and the run summary (GET /v2/standups/{id}/summaries) — for a team admin and for a member who
 * did not answer; with a third vote and a third report every one of them shows them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as pollCsvRoute } from "@/app/exports/polls/[pollId]/results.csv/route";
import { GET as reportsCsvRoute } from "@/app/exports/reports.csv/route";
import { GET as v1PollVotes } from "@/app/v1/polls/[id]/votes/route";
import { GET as v1Reports } from "@/app/v1/reports/route";
import { GET as v2PollVotes } from "@/app/v2/polls/[pollId]/votes/route";
import { GET as v2Report } from "@/app/v2/reports/[reportId]/route";
import { GET as v2Reports } from "@/app/v2/reports/route";
import { GET as v2Summaries } from "@/app/v2/standups/[standupId]/summaries/route";
import { db } from "@/lib/db";
import { listBlockers } from "@/lib/domain/blockers";
import { getParticipationReport } from "@/lib/domain/participation-report";
import { getPollResultsFor } from "@/lib/domain/poll-views";
import { listReports, resolveReportWindow } from "@/lib/domain/reports";
import { buildOccurrenceSummary } from "@/lib/domain/summaries";
import { castVote } from "@/lib/domain/vote-writes";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

const SECRET = "swept secret";
const today = new Date().toISOString().slice(0, 10);

let T: TestTeam;
let poll: Awaited<ReturnType<typeof createTestCheckin>>;
let standup: Awaited<ReturnType<typeof createTestCheckin>>;
let occurrenceId: number;
const reportIds: number[] = [];

beforeAll(async () => {
  T = await createTestTeam({ members: 4 });
  const [admin, ...members] = T.users;
  poll = await createTestCheckin(T, {
    kind: "poll",
    owner: admin,
    is_anonymous: true,
    questions: [
      { text: "Pick", answer_type: "multiple_choice", choices: ["tea", "coffee"] },
      { text: "Ideas?", answer_type: "open_ended" },
    ],
  });
  await createTestOccurrence(poll, today, T.users);
  standup = await createTestCheckin(T, {
    name: "Swept",
    owner: admin,
    members: T.users,
    is_anonymous: true,
    questions: [{ text: "Mood", answer_type: "multiple_choice", choices: ["great", "meh"] }, { text: "Blockers?" }],
  });
  await db.question.update({ where: { id: standup.questions[1].id }, data: { is_blocker: true } });
  occurrenceId = (await createTestOccurrence(standup, today, T.users)).id;
  for (const u of members.slice(0, 2)) await answer(u);
});

async function answer(u: TestUser) {
  await castVote(u.actor, {
    pollId: poll.id,
    answers: [
      { questionId: poll.questions[0].id, choices: ["tea"] },
      { questionId: poll.questions[1].id, text: `${SECRET} idea ${u.chat_id}` },
    ],
  });
  const r = await createTestReport(standup, u, { occurrence_id: occurrenceId, answers: ["great", `${SECRET} blocker ${u.chat_id}`] });
  reportIds.push(r.id);
}

type Probe = { name: string; text: string };

/** Every path, as `who` sees it, as text. */
async function sweep(who: TestUser): Promise<Probe[]> {
  const key = who.key;
  // The admin reads every path; a member may be refused one (poll results are their creator's): that shows nothing either.
  const allowed = who.actor.isAdmin ? [200] : [200, 403, 404];
  const json = (name: string, res: { status: number; text: string }): Probe => {
    expect({ name, allowed: allowed.includes(res.status) }).toEqual({ name, allowed: true });
    return { name, text: res.text };
  };
  const probes: Probe[] = [
    json("v2 poll votes", await call(v2PollVotes, { path: `/v2/polls/${poll.id}/votes`, key, params: { pollId: String(poll.id) } })),
    json("v1 poll votes", await call(v1PollVotes, { path: `/v1/polls/${poll.id}/votes`, key, params: { id: String(poll.id) } })),
    json("poll csv", await call(pollCsvRoute, { path: `/exports/polls/${poll.id}/results.csv`, key, params: { pollId: String(poll.id) } })),
    json("v2 reports", await call(v2Reports, { path: `/v2/reports?standup_id=${standup.id}`, key })),
    json("v1 reports", await call(v1Reports, { path: `/v1/reports/?standup_id=${standup.id}`, key })),
    json("reports csv", await call(reportsCsvRoute, { path: `/exports/reports.csv?standup_id=${standup.id}`, key })),
    json("reports csv answers", await call(reportsCsvRoute, { path: `/exports/reports.csv?standup_id=${standup.id}&format=answers`, key })),
  ];
  const ones = await Promise.all(
    reportIds.map((id) => call(v2Report, { path: `/v2/reports/${id}`, key, params: { reportId: String(id) } })),
  );
  probes.push({ name: "v2 report (each)", text: ones.map((r) => (r.status === 200 ? r.text : `status ${r.status}`)).join("\n") });
  const pollResults = await getPollResultsFor(who.actor, poll.id).catch((e: Error) => `not readable: ${e.message}`);
  probes.push({ name: "dashboard poll results", text: JSON.stringify(pollResults) });
  const window = resolveReportWindow({});
  probes.push({
    name: "dashboard reports",
    text: JSON.stringify(
      await listReports(who.actor, { ...window, standupId: standup.id, limit: 50, withAnswers: true, teamWide: "readers" }),
    ),
  });
  probes.push({
    name: "dashboard blockers",
    text: JSON.stringify(
      await listBlockers(who.actor, { status: "all", standupId: standup.id, since: new Date(Date.now() - 7 * 86_400_000) }),
    ),
  });
  const participation = await getParticipationReport(who.actor, { since: today, until: today, standupId: standup.id, today });
  probes.push({ name: "participation choice trends", text: JSON.stringify(participation.choiceTrends) });
  await buildOccurrenceSummary(occurrenceId, null);
  probes.push(
    json(
      "v2 summaries",
      await call(v2Summaries, { path: `/v2/standups/${standup.id}/summaries`, key, params: { standupId: String(standup.id) } }),
    ),
  );
  return probes;
}

/** Shown counts: a "tea" vote count or report choice count above zero, in any of the shapes. */
const COUNTS = /"votes":[1-9]|"count":[1-9]|"total_responses":[1-9]|"responses":[1-9]|tea",\s*"?[1-9]|\btea,[1-9]|"great":[1-9]|"n":[1-9]/;

describe("anonymity sweep, k = 3 (issue 45)", () => {
  it("2 answers: no count and no answer anywhere; 3 answers: everywhere", async () => {
    const [admin, , , , m3] = T.users;
    for (const who of [admin, m3]) {
      for (const p of await sweep(who)) {
        expect({ who: who.realname, probe: p.name, secret: p.text.includes(SECRET) }).toEqual({
          who: who.realname,
          probe: p.name,
          secret: false,
        });
        expect({ who: who.realname, probe: p.name, counts: COUNTS.exec(p.text)?.[0] ?? null }).toEqual({
          who: who.realname,
          probe: p.name,
          counts: null,
        });
      }
    }
    await answer(T.users[3]);
    const shown = await sweep(admin);
    // Every path shows the answers or counts once k people answered (the poll's choice counts, the
    // reports' texts; choice trends count "great").
    for (const p of shown) {
      expect({ probe: p.name, shows: p.text.includes(SECRET) || COUNTS.test(p.text) }).toEqual({ probe: p.name, shows: true });
    }
  });
});
