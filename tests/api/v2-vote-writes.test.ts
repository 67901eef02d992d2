/**
 * POST /v2/polls/{pollId}/votes (v2 extension, issue 10) against the real test database:
 * recipients vote once per question (a second vote replaces the first), choices by text, own
 * options, one_option_limit, open-ended text, 404 for non-recipients, 409 POLL_CLOSED, 422
 * UNKNOWN_CHOICE / TOO_MANY_CHOICES, Idempotency-Key replay, and the results that count it once.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as votesGet, POST as votesPost } from "@/app/v2/polls/[pollId]/votes/route";
import { db } from "@/lib/db";
import { castVote } from "@/lib/domain/vote-writes";
import { createTestCheckin, createTestOccurrence, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

type Checkin = Awaited<ReturnType<typeof createTestCheckin>>;

const post = (key: string, id: number | string, body: unknown, headers: Record<string, string> = {}) =>
  call(votesPost, { method: "POST", path: `/v2/polls/${id}/votes`, key, params: { pollId: String(id) }, body, headers });
const results = (key: string, id: number) => call(votesGet, { path: `/v2/polls/${id}/votes`, key, params: { pollId: String(id) } });

let A: TestTeam;
let owner: TestUser;
let voter: TestUser;
let other: TestUser;
let outsider: TestUser;
let poll: Checkin;

beforeAll(async () => {
  A = await createTestTeam({ members: 3 });
  [owner, voter, other, outsider] = A.users;
  poll = await createTestCheckin(A, {
    kind: "poll",
    owner,
    name: "Lunch",
    questions: [
      { text: "Drink?", choices: ["Coffee", "Tea"] },
      { text: "Ideas?", answer_type: "open_ended" },
      { text: "Snacks?", choices: ["Nuts", "Fruit"] },
    ],
  });
  await db.question.update({ where: { id: poll.questions[2].id }, data: { one_option_limit: false, add_own_options: true } });
  const today = new Date().toISOString().slice(0, 10);
  await createTestOccurrence(poll, today, [owner, voter, other]);
});

describe("POST /v2/polls/{pollId}/votes", () => {
  it("records a recipient's vote, replaces it on a second vote, and the results count it once", async () => {
    const [q1, q2, q3] = poll.questions.map((q) => q.id);
    const first = await post(voter.key, poll.id, {
      answers: [
        { question_id: q1, choices: ["Coffee"] },
        { question_id: q2, text: "  more plants  " },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      poll_id: poll.id,
      answers: [
        { question_id: q1, choices: ["Coffee"], text: null },
        { question_id: q2, choices: null, text: "more plants" },
      ],
    });
    const again = await post(voter.key, poll.id, { answers: [{ question_id: q1, choices: ["Tea"] }] });
    expect(again.status).toBe(200);
    const several = await post(voter.key, poll.id, { answers: [{ question_id: q3, choices: ["Nuts", "Crisps", "Nuts"] }] });
    expect(several.status).toBe(200);
    expect(several.body.data.answers[0].choices).toEqual(["Nuts", "Crisps"]);

    const r = await results(owner.key, poll.id);
    const [drink, ideas, snacks] = r.body.data.instances[0].questions;
    expect(drink.choices).toEqual([
      { text: "Coffee", votes: 0, voters: [] },
      { text: "Tea", votes: 1, voters: [voter.chat_id] },
    ]);
    expect(drink.total_responders).toBe(1);
    expect(ideas.responses.map((x: { text: string }) => x.text)).toEqual(["more plants"]);
    expect(snacks.choices.map((c: { text: string; votes: number }) => [c.text, c.votes])).toEqual([
      ["Nuts", 1],
      ["Fruit", 0],
      ["Crisps", 1],
    ]);
  });

  it("answers 422 for an unknown choice or too many choices, 400 for malformed answers", async () => {
    const [q1, q2] = poll.questions.map((q) => q.id);
    const unknown = await post(other.key, poll.id, { answers: [{ question_id: q1, choices: ["Juice"] }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe("UNKNOWN_CHOICE");
    const many = await post(other.key, poll.id, { answers: [{ question_id: q1, choices: ["Coffee", "Tea"] }] });
    expect(many.status).toBe(422);
    expect(many.body.error.code).toBe("TOO_MANY_CHOICES");
    for (const body of [
      {},
      { answers: [] },
      { answers: [{ question_id: q1 }] },
      { answers: [{ question_id: q1, choices: ["Tea"], text: "x" }] },
      { answers: [{ question_id: q2, choices: ["Tea"] }] },
      { answers: [{ question_id: 999999999, choices: ["Tea"] }] },
      {
        answers: [
          { question_id: q1, choices: ["Tea"] },
          { question_id: q1, choices: ["Tea"] },
        ],
      },
    ]) {
      const res = await post(other.key, poll.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("INVALID_PARAMETER");
    }
    expect(await db.vote.count({ where: { user_id: other.id } })).toBe(0);
  });

  it("answers 404 to non-recipients and for unknown polls", async () => {
    const q1 = poll.questions[0].id;
    const res = await post(outsider.key, poll.id, { answers: [{ question_id: q1, choices: ["Tea"] }] });
    expect(res.status).toBe(404);
    expect((await post(voter.key, 987654321, { answers: [{ question_id: q1, choices: ["Tea"] }] })).status).toBe(404);
    expect((await post(voter.key, "abc", { answers: [{ question_id: q1, choices: ["Tea"] }] })).status).toBe(404);
  });

  it("replays an Idempotency-Key and writes once", async () => {
    const q1 = poll.questions[0].id;
    const key = randomUUID();
    const a = await post(other.key, poll.id, { answers: [{ question_id: q1, choices: ["Coffee"] }] }, { "idempotency-key": key });
    const b = await post(other.key, poll.id, { answers: [{ question_id: q1, choices: ["Coffee"] }] }, { "idempotency-key": key });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    expect(await db.vote.count({ where: { user_id: other.id, question_id: q1 } })).toBe(1);
  });

  it("answers 409 POLL_CLOSED once the broadcast closed, through the API and the domain alike", async () => {
    const closed = await createTestCheckin(A, { kind: "poll", owner, questions: [{ text: "Q", choices: ["a", "b"] }] });
    const occurrence = await createTestOccurrence(closed, "2026-01-05", [voter]);
    await db.occurrence.update({ where: { id: occurrence.id }, data: { closes_at: new Date(Date.now() - 1000) } });
    const res = await post(voter.key, closed.id, { answers: [{ question_id: closed.questions[0].id, choices: ["a"] }] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("POLL_CLOSED");
    await expect(
      castVote(voter.actor, { pollId: closed.id, answers: [{ questionId: closed.questions[0].id, choices: ["a"] }] }),
    ).rejects.toMatchObject({
      detailCode: "POLL_CLOSED",
    });
  });
});
