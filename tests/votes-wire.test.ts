/**
 * The v2 poll results JSON built in SQL (lib/api/v2/votes.ts `pollVotesWire`, issue 14)
 * is byte for byte what the TypeScript path gives (`JSON.stringify(serializePollResultsV2(await
 * getPollVotes(...)))`, lib/domain/votes.ts + lib/api/v2/votes.ts) for the same poll: anonymous and
 * named polls; multiple choice with declared, unvoted and own labels and multi-select voters; rows
 * without the field their question reads; open-ended (and plain text) questions in every
 * categorization state, with unusual stored categories; archived questions with old votes;
 * instance scope (latest, since/until ranges); JSON string escaping; the session's time zone; the
 * same errors. GET /v2/polls/{id}/votes sends these texts as they are; its contract is tested in
 * tests/api/v2-votes.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as votesRoute } from "@/app/v2/polls/[pollId]/votes/route";
import { pollVotesWire, serializePollResultsV2 } from "@/lib/api/v2/votes";
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { getPollVotes, type PollVotesFilters } from "@/lib/domain/votes";
import { createTestCheckin, createTestOccurrence, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestCategorization, createTestVote } from "@/tests/poll-fixtures";
import { inKolkataSession, TRICKY } from "@/tests/tricky-strings";

/** Stored categories of a completed categorization, beyond what the categorizer writes (jsonb text). */
const ODD_CATEGORIES = JSON.stringify([
  { name: TRICKY[0], count: 2 },
  { name: "", count: 1 },
  { name: "no count" },
  { name: "null count", count: null },
  "not an object",
  null,
  5,
  [1, 2],
  { count: 3 },
  { name: null, count: 3 },
  { name: TRICKY[3], count: " 4 " },
  { name: "not a number", count: "x" },
  { name: "empty string", count: "" },
  { name: "boolean", count: true },
  { name: 7, count: 1 },
  { name: false, count: false },
  { name: { nested: 1 }, count: 0 },
]).replace('"count":2}', '"count":2.0}');

type Poll = Awaited<ReturnType<typeof createTestCheckin>>;

let A: TestTeam;
let admin: TestUser;
let m0: TestUser;
let m1: TestUser;
let m2: TestUser;
let named: Poll;
let anon: Poll;
let empty: Poll;

/** Question indexes of the polls (see `seedPoll`). */
const Q = { pick: 0, completed: 1, processing: 2, failed: 3, pending: 4, silent: 5, text: 6, archived: 7 } as const;

/** Creates a poll with every question kind and votes in three broadcasts (plus an early one without votes). */
async function seedPoll(name: string, isAnonymous: boolean): Promise<Poll> {
  const poll = await createTestCheckin(A, {
    kind: "poll",
    name,
    is_anonymous: isAnonymous,
    members: [admin, m0, m1, m2],
    questions: [
      { text: `Pick ${TRICKY[1]}`, choices: [TRICKY[0], 'b \\ "c"', "🚀", "nobody"] },
      { text: `Ideas ${TRICKY[2]}`, answer_type: "open_ended" },
      { text: "Processing?", answer_type: "open_ended" },
      { text: "Failed?", answer_type: "open_ended" },
      { text: "Pending?", answer_type: "open_ended" },
      { text: "Silent?", answer_type: "open_ended" },
      { text: `Plain text ${TRICKY[4]}`, answer_type: "text" },
      { text: "Archived pick", choices: ["x", "y"] },
    ],
  });
  const members = [admin, m0, m1, m2];
  await createTestOccurrence(poll, "2026-02-01", members);
  const i1 = await createTestOccurrence(poll, "2026-03-01", members);
  const i2 = await createTestOccurrence(poll, "2026-03-08", members);
  const i3 = await createTestOccurrence(poll, "2026-03-15", members);

  // The oldest broadcast: votes on the question archived since, a completed categorization.
  await createTestVote(poll, i1.id, m0, Q.archived, { choice: "y" });
  await createTestVote(poll, i1.id, m1, Q.archived, { choice: "x" });
  await createTestVote(poll, i1.id, m2, Q.pick, { choice: "🚀" });
  await createTestVote(poll, i1.id, m0, Q.completed, { text: "old idea", categories: ["old"] });
  await createTestCategorization(poll, i1.id, Q.completed, [{ name: "old", count: 1 }]);

  // The middle one: a few answers, no categorization rows.
  await createTestVote(poll, i2.id, m1, Q.pick, { choice: "nobody" });
  await createTestVote(poll, i2.id, admin, Q.silent, { text: TRICKY[3] });

  // The latest: multi-select, own labels (first voted "zeta", then "alpha"), every status.
  await createTestVote(poll, i3.id, m2, Q.pick, { choice: `zeta own ${TRICKY[3]}` });
  await createTestVote(poll, i3.id, m0, Q.pick, { choice: TRICKY[0] });
  await createTestVote(poll, i3.id, m0, Q.pick, { choice: "🚀" });
  await createTestVote(poll, i3.id, admin, Q.pick, { choice: "alpha own" });
  await createTestVote(poll, i3.id, m1, Q.pick, { choice: TRICKY[0] });
  await createTestVote(poll, i3.id, m1, Q.completed, { text: TRICKY[1], categories: [TRICKY[0], TRICKY[3]] });
  await createTestVote(poll, i3.id, m0, Q.completed, { text: TRICKY[4], categories: [] });
  await createTestVote(poll, i3.id, admin, Q.completed, { text: "", categories: ["7"] });
  await createTestCategorization(poll, i3.id, Q.completed, []);
  await db.$executeRaw`UPDATE categorizations SET categories = ${ODD_CATEGORIES}::jsonb
    WHERE occurrence_id = ${i3.id} AND question_id = ${poll.questions[Q.completed].id}`;
  await createTestVote(poll, i3.id, m2, Q.processing, { text: "in the works", categories: ["hidden until completed"] });
  await createTestVote(poll, i3.id, m0, Q.failed, { text: TRICKY[0], categories: ["hidden"] });
  for (const [q, status] of [
    [Q.processing, "processing"],
    [Q.failed, "failed"],
  ] as const) {
    await db.categorization.create({
      data: { team_id: A.id, occurrence_id: i3.id, question_id: poll.questions[q].id, status, categories: [{ name: "hidden", count: 1 }] },
    });
  }
  await createTestVote(poll, i3.id, m1, Q.pending, { text: "waiting" });
  await createTestVote(poll, i3.id, m2, Q.pending, { text: `waiting too ${TRICKY[2]}` });
  await createTestVote(poll, i3.id, m2, Q.text, { text: "plain", categories: ["not completed"] });
  // Rows without the field their question reads: counted in the totals, never listed.
  await createTestVote(poll, i3.id, m2, Q.pick, { text: "typed, not picked" });
  await createTestVote(poll, i3.id, m0, Q.silent, { choice: "picked, not typed" });

  await db.question.update({ where: { id: poll.questions[Q.archived].id }, data: { archived_at: new Date() } });
  return poll;
}

beforeAll(async () => {
  A = await createTestTeam({ members: 3 });
  admin = A.admin;
  [, m0, m1, m2] = A.users;
  named = await seedPoll(`Named ${TRICKY[0]} ${TRICKY[3]}`, false);
  anon = await seedPoll(`Anon ${TRICKY[1]}`, true);
  empty = await createTestCheckin(A, { kind: "poll", name: "No broadcast yet", questions: [{ text: "Q", choices: ["a"] }] });
});

/** Both renderings of the results; the wire text through `client` when given. */
async function both(actor: Actor, pollId: number, filters: PollVotesFilters, client?: Tx) {
  const expected = JSON.stringify(serializePollResultsV2(await getPollVotes(actor, pollId, filters)));
  const wire = await pollVotesWire(actor, pollId, filters, {}, client);
  return { expected, wire };
}

const RANGES: Array<[string, PollVotesFilters]> = [
  ["latest only", {}],
  ["since and until", { since: new Date("2026-02-20T12:00:00Z"), until: new Date("2026-03-08T00:00:01Z") }],
  ["since only (until now)", { since: new Date("2026-01-01T00:00:00Z") }],
  ["until only", { until: new Date("2026-03-02T00:00:00Z") }],
  ["a range without broadcasts", { since: new Date("2025-01-01T00:00:00Z"), until: new Date("2025-02-01T00:00:00Z") }],
];

describe("pollVotesWire", () => {
  for (const [which, pollOf] of [
    ["named", () => named],
    ["anonymous", () => anon],
    ["without broadcasts", () => empty],
  ] as const) {
    for (const [label, filters] of RANGES) {
      it(`returns JSON.stringify(serializePollResultsV2(getPollVotes)) for the ${which} poll (${label})`, async () => {
        const { expected, wire } = await both(admin.actor, pollOf().id, filters);
        expect(wire).toBe(expected);
      });
    }
  }

  it("prints the same dates whatever the session's time zone", async () => {
    for (const poll of [named, anon]) {
      for (const [, filters] of RANGES) {
        const expected = JSON.stringify(serializePollResultsV2(await getPollVotes(admin.actor, poll.id, filters)));
        const wire = await inKolkataSession((tx) => pollVotesWire(admin.actor, poll.id, filters, {}, tx));
        expect(wire).toBe(expected);
      }
    }
  });

  it("covers what it claims: statuses, own labels, multi-select, archived questions, odd categories", async () => {
    const latest = JSON.parse(await pollVotesWire(admin.actor, named.id));
    expect(latest.instances.map((i: { date: string }) => i.date)).toEqual(["2026-03-15"]);
    const questions = latest.instances[0].questions;
    expect(questions.map((q: { question_id: number }) => q.question_id)).toEqual(named.questions.slice(0, Q.archived).map((q) => q.id));
    const pick = questions[Q.pick];
    expect(pick.choices.map((c: { text: string }) => c.text)).toEqual([
      TRICKY[0],
      'b \\ "c"',
      "🚀",
      "nobody",
      `zeta own ${TRICKY[3]}`,
      "alpha own",
    ]);
    expect(pick.choices[0].voters).toEqual([m0.chat_id, m1.chat_id]);
    expect(pick.choices[3]).toEqual({ text: "nobody", votes: 0, voters: [] });
    expect([pick.total_responses, pick.total_responders]).toEqual([6, 4]);
    expect(questions[Q.silent]).toMatchObject({ total_responses: 1, categorization_status: null, responses: [] });
    expect(questions.map((q: { categorization_status?: string | null }) => q.categorization_status)).toEqual([
      undefined,
      "completed",
      "processing",
      "failed",
      "pending",
      null,
      "pending",
    ]);
    expect(questions[Q.completed].categories).toEqual([
      { name: TRICKY[0], count: 2 },
      { name: "no count", count: 0 },
      { name: "null count", count: 0 },
      { name: TRICKY[3], count: 4 },
      { name: "not a number", count: null },
      { name: "empty string", count: 0 },
      { name: "boolean", count: 1 },
      { name: "7", count: 1 },
      { name: "false", count: 0 },
      { name: "[object Object]", count: 0 },
    ]);
    expect(questions[Q.processing].categories).toEqual([]);
    expect(questions[Q.processing].responses[0].categories).toEqual([]);
    expect(questions[Q.text].answer_type).toBe("open_ended");

    const old = JSON.parse(await pollVotesWire(admin.actor, named.id, { until: new Date("2026-03-02T00:00:00Z") }));
    expect(old.instances.map((i: { date: string }) => i.date)).toEqual(["2026-03-01", "2026-02-01"]);
    expect(old.instances[0].questions.at(-1).question_id).toBe(named.questions[Q.archived].id);
    expect(old.instances[1].questions.map((q: { question_id: number }) => q.question_id)).toHaveLength(Q.archived);

    const anonymous = JSON.parse(await pollVotesWire(admin.actor, anon.id));
    expect(anonymous.instances[0].questions[Q.pick].choices.every((c: { voters: unknown }) => c.voters === null)).toBe(true);
    expect(anonymous.instances[0].questions[Q.pending].responses.map((r: { user_id: unknown }) => r.user_id)).toEqual([null, null]);
  });

  it("throws what getPollVotes throws: NotFound for a poll the actor may not read, InvalidParameter for a reversed range", async () => {
    await expect(getPollVotes(m0.actor, named.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(pollVotesWire(m0.actor, named.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(pollVotesWire(admin.actor, 2_000_000_000)).rejects.toBeInstanceOf(NotFoundError);
    const reversed = { since: new Date("2026-03-10T00:00:00Z"), until: new Date("2026-03-01T00:00:00Z") };
    await expect(getPollVotes(admin.actor, named.id, reversed)).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(pollVotesWire(admin.actor, named.id, reversed)).rejects.toBeInstanceOf(InvalidParameterError);
  });

  it("is what GET /v2/polls/{id}/votes sends, inside the data envelope", async () => {
    for (const [qs, filters] of [
      ["", {}],
      ["since=2026-02-20T12:00:00Z&until=2026-03-08T00:00:01Z", RANGES[1][1]],
    ] as const) {
      const r = await call(votesRoute, {
        path: `/v2/polls/${named.id}/votes${qs ? `?${qs}` : ""}`,
        key: admin.key,
        params: { pollId: String(named.id) },
      });
      expect(r.status).toBe(200);
      expect(r.text).toBe(JSON.stringify({ data: serializePollResultsV2(await getPollVotes(admin.actor, named.id, filters)) }));
    }
  });
});
