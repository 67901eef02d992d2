/**
 * GET /v2/polls/{id}/votes against the real test database: latest instance by default, every
 * instance in [since, until) otherwise, multiple-choice counts and voters, open-ended responses
 * with categorization status/categories, anonymous polls, errors and visibility.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/exports/polls/[pollId]/results.csv/route";
import { GET as votesRoute } from "@/app/v2/polls/[pollId]/votes/route";
import { db } from "@/lib/db";
import { createTestCheckin, createTestOccurrence, type StandardTeams, standardTeams } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestCategorization, createTestVote } from "@/tests/poll-fixtures";

type Checkin = Awaited<ReturnType<typeof createTestCheckin>>;

const votes = (key: string, id: number | string, qs = "") =>
  call(votesRoute, { path: `/v2/polls/${id}/votes${qs ? `?${qs}` : ""}`, key, params: { pollId: String(id) } });

let { A, B, admin, m0, m1 } = {} as StandardTeams;
let named: Checkin;
let anon: Checkin;
const occ: Record<string, number> = {};

beforeAll(async () => {
  ({ A, B, admin, m0, m1 } = await standardTeams({ members: 2 }));
  const questions = [
    { text: "Pick", choices: ["a", "b", "c"] },
    { text: "Ideas?", answer_type: "open_ended" as const },
  ];
  named = await createTestCheckin(A, { kind: "poll", owner: m0, name: "Named", questions });
  anon = await createTestCheckin(A, { kind: "poll", owner: m0, name: "Anon", questions, is_anonymous: true });
  const members = [admin, m0, m1];
  occ.i1 = (await createTestOccurrence(named, "2026-03-01", members)).id;
  occ.i2 = (await createTestOccurrence(named, "2026-03-08", members)).id;
  occ.i3 = (await createTestOccurrence(named, "2026-03-15", members)).id;
  await createTestVote(named, occ.i1, m0, 0, { choice: "a" });
  await createTestVote(named, occ.i1, m1, 0, { choice: "a" });
  await createTestVote(named, occ.i1, admin, 0, { choice: "b" });
  await createTestVote(named, occ.i1, m0, 1, { text: "more coffee", categories: ["food"] });
  await createTestVote(named, occ.i1, m1, 1, { text: "fewer meetings", categories: ["process", "time"] });
  await createTestCategorization(named, occ.i1, 1, [
    { name: "food", count: 1 },
    { name: "process", count: 1 },
    { name: "time", count: 1 },
  ]);
  await createTestVote(named, occ.i2, m0, 0, { choice: "c" });
  await createTestVote(named, occ.i2, m0, 0, { choice: "a" });
  await createTestVote(named, occ.i3, m1, 0, { choice: "b" });
  await createTestVote(named, occ.i3, admin, 0, { choice: "own idea" });
  await createTestVote(named, occ.i3, m0, 1, { text: "hi", categories: ["ignored until completed"] });

  occ.a1 = (await createTestOccurrence(anon, "2026-03-02", members)).id;
  await createTestVote(anon, occ.a1, m0, 0, { choice: "c" });
  await createTestVote(anon, occ.a1, m1, 0, { choice: "c" });
  await createTestVote(anon, occ.a1, m1, 1, { text: "secret", categories: ["x"] });
  await db.categorization.create({
    data: { team_id: A.id, occurrence_id: occ.a1, question_id: anon.questions[1].id, status: "processing" },
  });
});

describe("GET /v2/polls/{id}/votes", () => {
  it("defaults to the latest instance; MC choices with votes and voters; pending open-ended answers", async () => {
    const r = await votes(m0.key, named.id);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      poll_id: named.id,
      poll_name: "Named",
      is_anonymous: false,
      instances: [
        {
          instance_id: occ.i3,
          date: "2026-03-15",
          questions: [
            {
              question_id: named.questions[0].id,
              text: "Pick",
              answer_type: "multiple_choice",
              total_responses: 2,
              total_responders: 2,
              choices: [
                { text: "a", votes: 0, voters: [] },
                { text: "b", votes: 1, voters: [m1.chat_id] },
                { text: "c", votes: 0, voters: [] },
                { text: "own idea", votes: 1, voters: [admin.chat_id] },
              ],
            },
            {
              question_id: named.questions[1].id,
              text: "Ideas?",
              answer_type: "open_ended",
              total_responses: 1,
              total_responders: 1,
              categorization_status: "pending",
              categories: [],
              responses: [{ text: "hi", categories: [], user_id: m0.chat_id }],
            },
          ],
        },
      ],
    });
  });

  it("with a range returns every instance in [since, until), newest first", async () => {
    const r = await votes(m0.key, named.id, "since=2026-03-01&until=2026-03-09");
    expect(r.status).toBe(200);
    const [i2, i1] = r.body.data.instances;
    expect(r.body.data.instances.map((i: { instance_id: number }) => i.instance_id)).toEqual([occ.i2, occ.i1]);
    expect(i2.questions[0]).toMatchObject({ total_responses: 2, total_responders: 1 });
    expect(i2.questions[0].choices).toEqual([
      { text: "a", votes: 1, voters: [m0.chat_id] },
      { text: "b", votes: 0, voters: [] },
      { text: "c", votes: 1, voters: [m0.chat_id] },
    ]);
    expect(i2.questions[1]).toMatchObject({
      total_responses: 0,
      total_responders: 0,
      categorization_status: null,
      categories: [],
      responses: [],
    });
    expect(i1.questions[0].choices[0]).toEqual({ text: "a", votes: 2, voters: [m0.chat_id, m1.chat_id] });
    expect(i1.questions[1]).toEqual({
      question_id: named.questions[1].id,
      text: "Ideas?",
      answer_type: "open_ended",
      total_responses: 2,
      total_responders: 2,
      categorization_status: "completed",
      categories: [
        { name: "food", count: 1 },
        { name: "process", count: 1 },
        { name: "time", count: 1 },
      ],
      responses: [
        { text: "more coffee", categories: ["food"], user_id: m0.chat_id },
        { text: "fewer meetings", categories: ["process", "time"], user_id: m1.chat_id },
      ],
    });
    const ids = async (qs: string) =>
      (await votes(m0.key, named.id, qs)).body.data.instances.map((i: { instance_id: number }) => i.instance_id);
    expect(await ids("since=2026-03-08")).toEqual([occ.i3, occ.i2]); // until defaults to now
    expect(await ids("until=2026-03-08")).toEqual([occ.i1]);
    expect(await ids("since=2026-03-02&until=2026-03-07")).toEqual([]);
  });

  it("anonymous polls hide voters and authors", async () => {
    // Two voters: shown only with the team's anonymity threshold at 2 (issue 45; the default 3 suppresses them).
    await db.team.update({ where: { id: A.id }, data: { anonymity_threshold: 2 } });
    const r = await votes(m0.key, anon.id).finally(() => db.team.update({ where: { id: A.id }, data: { anonymity_threshold: 3 } }));
    expect(r.body.data.is_anonymous).toBe(true);
    const [mc, open] = r.body.data.instances[0].questions;
    expect(mc.choices).toEqual([
      { text: "a", votes: 0, voters: null },
      { text: "b", votes: 0, voters: null },
      { text: "c", votes: 2, voters: null },
    ]);
    expect(open).toMatchObject({
      categorization_status: "processing",
      categories: [],
      responses: [{ text: "secret", categories: [], user_id: null }],
    });
  });

  it("a poll with no broadcast yet has no instances", async () => {
    const fresh = await createTestCheckin(A, { kind: "poll", owner: m0, questions: [{ text: "Q", choices: ["a", "b"] }] });
    const r = await votes(m0.key, fresh.id);
    expect(r.status).toBe(200);
    expect(r.body.data.instances).toEqual([]);
  });

  it("400 for bad dates and reversed ranges; 404 for non-visible polls", async () => {
    for (const qs of ["since=bad", "until=2026-13-01", "since=2026-03-09&until=2026-03-01", "since=2999-01-01"]) {
      const r = await votes(m0.key, named.id, qs);
      expect(r.status, qs).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
    const archived = await createTestCheckin(A, {
      kind: "poll",
      owner: m0,
      state: "archived",
      questions: [{ text: "Q", choices: ["a", "b"] }],
    });
    const standup = await createTestCheckin(A, { owner: m0 });
    for (const [key, id] of [
      [admin.key, named.id],
      [m1.key, named.id],
      [B.admin.key, named.id],
      [m0.key, archived.id],
      [m0.key, standup.id],
      [m0.key, "zz"],
    ] as const) {
      const r = await votes(key, id);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("NOT_FOUND");
    }
  });

  it("the results CSV with an API key follows the same rule: the creator only, a team admin's key gets 404 (issue 40)", async () => {
    const csv = (key: string, id: number) =>
      call(exportRoute, { path: `/exports/polls/${id}/results.csv`, key, params: { pollId: String(id) } });
    const own = await csv(m0.key, named.id);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(own.text).toContain("Named");
    for (const key of [admin.key, m1.key, B.admin.key]) {
      const [api, exported] = [await votes(key, named.id), await csv(key, named.id)];
      expect(api.status).toBe(404);
      expect(exported.status).toBe(404);
      expect(exported.body.error.code).toBe("NOT_FOUND");
    }
  });
});
