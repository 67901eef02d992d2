/**
 * Anonymity that holds (issue 45): with the team's k = 3, a broadcast of an anonymous poll that two
 * people answered reveals no counts, choices, answers or CSV rows through any path that shows poll
 * results — GET /v2/polls/{id}/votes (live and stored), GET /v1/polls/{id}/votes, the dashboard's
 * results (domain read + rendered view), the results CSV, the `poll.closed` webhook and the chat
 * results message — and says how many answers are still needed; with a third voter every path
 * shows the results. Named polls are never suppressed. k is an admin setting, never below 2.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/exports/polls/[pollId]/results.csv/route";
import * as v1Votes from "@/app/v1/polls/[id]/votes/route";
import { GET as v2Votes } from "@/app/v2/polls/[pollId]/votes/route";
import { PollResultsView } from "@/components/polls/poll-results";
import { storePollResults } from "@/lib/api/v2/votes";
import { db } from "@/lib/db";
import { getAnonymityThreshold, setAnonymityThreshold } from "@/lib/domain/anonymity";
import { listAudit } from "@/lib/domain/audit";
import { ForbiddenError, InvalidParameterError } from "@/lib/domain/errors";
import { closeDueOccurrences } from "@/lib/domain/occurrence-close";
import { getPollResultsFor } from "@/lib/domain/poll-views";
import { createTestCheckin, createTestOccurrence, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestVote } from "@/tests/poll-fixtures";

type Poll = Awaited<ReturnType<typeof createTestCheckin>>;

let T: TestTeam;
let admin: TestUser;
let m0: TestUser;
let m1: TestUser;
let m2: TestUser;
let endpointId: number;
const SECRET = "secret idea nobody may read";

const questions = [
  { text: "Pick", choices: ["a", "b"] },
  { text: "Ideas?", answer_type: "open_ended" as const },
];

/** An anonymous (or named) poll of the admin with one broadcast on `date`, voted by `voters` (a, then the secret idea), closed. */
async function closedPoll(date: string, voters: TestUser[], anonymous = true): Promise<{ poll: Poll; occurrenceId: number }> {
  const poll = await createTestCheckin(T, { kind: "poll", name: `Poll ${date}`, is_anonymous: anonymous, questions });
  const occ = await createTestOccurrence(poll, date, [admin, m0, m1, m2]);
  for (const v of voters) {
    await createTestVote(poll, occ.id, v, 0, { choice: "a" });
    await createTestVote(poll, occ.id, v, 1, { text: `${SECRET} ${v.chat_id}` });
  }
  await db.occurrence.update({ where: { id: occ.id }, data: { closes_at: new Date(`${date}T10:00:00Z`) } });
  await closeDueOccurrences(new Date(`${date}T10:00:01Z`), db, { teamId: T.id });
  return { poll, occurrenceId: occ.id };
}

const v2 = (id: number) => call(v2Votes, { path: `/v2/polls/${id}/votes`, key: admin.key, params: { pollId: String(id) } });
const v1 = (id: number) => call(v1Votes.GET, { path: `/v1/polls/${id}/votes`, key: admin.key, params: { id: String(id) } });
const csv = (id: number) => call(exportRoute, { path: `/exports/polls/${id}/results.csv`, key: admin.key, params: { pollId: String(id) } });

/** Everything each path shows about the poll, as text, plus the parsed API bodies. */
async function everyRendering(poll: Poll, occurrenceId: number) {
  const [r2, r1, r3] = [await v2(poll.id), await v1(poll.id), await csv(poll.id)];
  expect([r2.status, r1.status, r3.status]).toEqual([200, 200, 200]);
  const dashboard = await getPollResultsFor(admin.actor, poll.id);
  const html = renderToStaticMarkup(createElement(PollResultsView, { instances: dashboard.instances, nameOf: (c: string) => c }));
  const chat = await db.chatMessage.findFirstOrThrow({ where: { occurrence_id: occurrenceId, kind: "poll_results" } });
  const hooks = await db.webhookDelivery.findMany({ where: { endpoint_id: endpointId, event_type: "poll.closed" } });
  const hook = hooks.find((d) => (d.payload as { data: { id: number } }).data.id === occurrenceId);
  expect(hook).toBeDefined();
  return { v2: r2, v1: r1, csv: r3, dashboard, html, chat: chat.text ?? "", hook: JSON.stringify(hook?.payload) };
}

beforeAll(async () => {
  T = await createTestTeam({ members: 3 });
  [admin, m0, m1, m2] = T.users;
  endpointId = (
    await db.webhookEndpoint.create({
      data: { team_id: T.id, url: "https://hooks.example.com/anon", events: ["poll.closed"], secret: "whsec_dGVzdA==" },
    })
  ).id;
});

describe("anonymity threshold k (issue 45)", () => {
  it("defaults to 3", async () => {
    expect(await getAnonymityThreshold(admin.actor)).toBe(3);
  });

  it("with k=3, two votes on an anonymous poll expose no counts anywhere; the answers still needed are said", async () => {
    const { poll, occurrenceId } = await closedPoll("2026-04-01", [m0, m1]);
    const out = await everyRendering(poll, occurrenceId);

    const instance = out.v2.body.data.instances[0];
    expect(instance).toMatchObject({ suppressed: true, answers_needed: 1 });
    expect(instance.questions).toEqual([
      {
        question_id: poll.questions[0].id,
        text: "Pick",
        answer_type: "multiple_choice",
        total_responses: 0,
        total_responders: 0,
        choices: [],
      },
      {
        question_id: poll.questions[1].id,
        text: "Ideas?",
        answer_type: "open_ended",
        total_responses: 0,
        total_responders: 0,
        categorization_status: null,
        categories: [],
        responses: [],
      },
    ]);
    expect(out.v1.body.instances).toEqual([{ id: occurrenceId, date: "2026-04-01", answer_count: 0, suppressed: true, answers_needed: 1 }]);
    for (const q of out.v1.body.questions) {
      expect([q.total_responses, q.total_responders, q.categories]).toEqual([0, 0, []]);
      expect(q.results.every((r: { answers: unknown[] }) => r.answers.length === 0)).toBe(true);
    }
    expect(out.csv.text.trim().split("\n")).toHaveLength(1); // the header only
    expect(out.dashboard.instances[0].answersNeeded).toBe(1);
    expect(out.html).toContain("1 more answer is needed");
    expect(out.chat).toContain("Results are hidden");
    expect(out.chat).not.toMatch(/- a: /);
    for (const text of [out.v2.text, out.v1.text, out.csv.text, out.html, out.chat, out.hook]) expect(text).not.toContain(SECRET);

    // The stored results (written by the store job after close) are not read past the threshold either.
    await storePollResults(occurrenceId);
    expect((await v2(poll.id)).text).toBe(out.v2.text);

    // A third voter (a late vote) lifts the suppression everywhere the results are read.
    await createTestVote(poll, occurrenceId, m2, 0, { choice: "b" });
    const shown = await v2(poll.id);
    expect(shown.body.data.instances[0].suppressed).toBeUndefined();
    expect(shown.body.data.instances[0].questions[0].choices).toEqual([
      { text: "a", votes: 2, voters: null },
      { text: "b", votes: 1, voters: null },
    ]);
    expect((await v1(poll.id)).body.instances[0]).toEqual({ id: occurrenceId, date: "2026-04-01", answer_count: 5 });
    expect((await csv(poll.id)).text).toContain(SECRET);
  });

  it("with three votes at close, the API, dashboard, CSV and chat message show the results", async () => {
    const { poll, occurrenceId } = await closedPoll("2026-04-02", [m0, m1, m2]);
    const out = await everyRendering(poll, occurrenceId);
    const instance = out.v2.body.data.instances[0];
    expect(instance.suppressed).toBeUndefined();
    expect(instance.questions[0]).toMatchObject({
      total_responses: 3,
      total_responders: 3,
      choices: [
        { text: "a", votes: 3, voters: null },
        { text: "b", votes: 0, voters: null },
      ],
    });
    expect(instance.questions[1].responses).toHaveLength(3);
    expect(out.v1.body.instances[0]).toEqual({ id: occurrenceId, date: "2026-04-02", answer_count: 6 });
    expect(out.csv.text).toContain(SECRET);
    expect(out.dashboard.instances[0].answersNeeded).toBe(0);
    expect(out.html).not.toContain("more answer");
    expect(out.chat).toContain("- a: 3 (100%)");
  });

  it("a named poll is never suppressed, whatever the number of voters", async () => {
    const { poll } = await closedPoll("2026-04-03", [m0], false);
    const r = await v2(poll.id);
    expect(r.body.data.instances[0].suppressed).toBeUndefined();
    expect(r.body.data.instances[0].questions[0].choices[0]).toEqual({ text: "a", votes: 1, voters: [m0.chat_id] });
  });

  it("follows the team's k: lowered to 2, two votes show; k below 2 or set by a member is refused; changes are audited", async () => {
    const { poll } = await closedPoll("2026-04-04", [m0, m1]);
    expect((await v2(poll.id)).body.data.instances[0].answers_needed).toBe(1);
    await setAnonymityThreshold(admin.actor, 2);
    try {
      expect((await v2(poll.id)).body.data.instances[0].questions[0].choices[0]).toEqual({ text: "a", votes: 2, voters: null });
      await expect(setAnonymityThreshold(admin.actor, 1)).rejects.toBeInstanceOf(InvalidParameterError);
      await expect(setAnonymityThreshold(admin.actor, 2.5)).rejects.toBeInstanceOf(InvalidParameterError);
      await expect(setAnonymityThreshold(m0.actor, 5)).rejects.toBeInstanceOf(ForbiddenError);
      await expect(db.team.update({ where: { id: T.id }, data: { anonymity_threshold: 1 } })).rejects.toThrow(/anonymity_threshold_check/);
      const audit = await listAudit(admin.actor, { action: "team.privacy" });
      expect(audit.items[0]).toMatchObject({ target: `team:${T.id}`, details: { anonymity_threshold: { from: 3, to: 2 } } });
    } finally {
      await setAnonymityThreshold(admin.actor, 3);
    }
    expect((await v2(poll.id)).body.data.instances[0].answers_needed).toBe(1);
  });
});
