/**
 * Voters of anonymous polls are not stored with their vote (issue 45): a vote of an anonymous poll
 * keeps `user_id` null and only a keyed hash (HMAC with the stored 'voter_key') per broadcast; who
 * voted is `occurrence_members.voted`. The voter still sees and changes their own vote, the counts
 * stay right, votes stored before are rewritten by the one-time job, their export finds them, and
 * an erasure cuts the hash's link to the person without changing the counts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as v2Votes } from "@/app/v2/polls/[pollId]/votes/route";
import { db } from "@/lib/db";
import { erasePerson } from "@/lib/domain/erasure";
import { exportPersonData } from "@/lib/domain/my-data";
import { castVote, getBallot } from "@/lib/domain/vote-writes";
import { anonymisePollVoters, voterHash } from "@/lib/domain/voter-hash";
import { createTestCheckin, createTestOccurrence, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestVote } from "@/tests/poll-fixtures";

let T: TestTeam;

beforeAll(async () => {
  T = await createTestTeam({ members: 4 });
});

async function anonymousPoll() {
  const [admin, ...members] = T.users;
  const poll = await createTestCheckin(T, {
    kind: "poll",
    owner: admin,
    is_anonymous: true,
    questions: [{ text: "Lunch?", answer_type: "multiple_choice", choices: ["pizza", "salad"] }],
  });
  const occ = await createTestOccurrence(poll, new Date().toISOString().slice(0, 10), [admin, ...members]);
  return { poll, occ };
}

describe("voters of anonymous polls (issue 45)", () => {
  it("stores no voter with the vote; the voter sees and changes theirs; the counts stay right", async () => {
    const [admin, m0, m1, m2] = T.users;
    const { poll, occ } = await anonymousPoll();
    const vote = (u: TestUser, choice: string) =>
      castVote(u.actor, { pollId: poll.id, answers: [{ questionId: poll.questions[0].id, choices: [choice] }] });
    await vote(m0, "pizza");
    await vote(m1, "salad");
    await vote(m0, "salad"); // changes their vote

    const rows = await db.vote.findMany({ where: { occurrence_id: occ.id } });
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r).toMatchObject({ user_id: null, voter_hash: expect.stringMatching(/^[\w-]{43}$/) });
    expect(new Set(rows.map((r) => r.voter_hash)).size).toBe(2);
    // The hash is keyed and per broadcast: not a plain digest of the user id, and it is theirs only through the key.
    expect(rows.map((r) => r.voter_hash).sort()).toEqual([await voterHash(occ.id, m0.id), await voterHash(occ.id, m1.id)].sort());
    const voted = await db.occurrenceMember.findMany({ where: { occurrence_id: occ.id, voted: true }, select: { user_id: true } });
    expect(voted.map((v) => v.user_id).sort()).toEqual([m0.id, m1.id].sort());

    const ballot = await getBallot(m0.actor, poll.id);
    expect(ballot.questions[0].mine.choices).toEqual(["salad"]);
    expect((await getBallot(m2.actor, poll.id)).questions[0].mine.choices).toEqual([]);

    await vote(m2, "pizza");
    const res = await call(v2Votes, { path: `/v2/polls/${poll.id}/votes`, key: admin.key, params: { pollId: String(poll.id) } });
    expect(res.status).toBe(200);
    const choices = res.body.data.instances[0].questions[0].choices;
    expect(choices).toEqual([
      { text: "pizza", votes: 1, voters: null },
      { text: "salad", votes: 2, voters: null },
    ]);
    expect(res.body.data.instances[0].questions[0].total_responders).toBe(3);
  });

  it("the one-time job rewrites votes stored with their voter; export and erasure find them by hash", async () => {
    const [, m0, m1, m2] = T.users;
    const { poll, occ } = await anonymousPoll();
    for (const [u, c] of [
      [m0, "pizza"],
      [m1, "salad"],
      [m2, "salad"],
    ] as const) {
      await createTestVote(poll, occ.id, u, 0, { choice: c });
      await db.occurrenceMember.update({
        where: { occurrence_id_user_id: { occurrence_id: occ.id, user_id: u.id } },
        data: { voted: false },
      });
    }
    expect(await anonymisePollVoters()).toBeGreaterThanOrEqual(3);
    const rows = await db.vote.findMany({ where: { occurrence_id: occ.id } });
    expect(rows.every((r) => r.user_id === null && r.voter_hash)).toBe(true);
    expect(await db.occurrenceMember.count({ where: { occurrence_id: occ.id, voted: true } })).toBe(3);
    expect(await anonymisePollVoters()).toBe(0); // idempotent

    const archive = await exportPersonData(m1.actor);
    expect(archive.votes.filter((v) => v.occurrence_id === occ.id).map((v) => v.choice)).toEqual(["salad"]);

    const mine = await voterHash(occ.id, m0.id);
    await erasePerson(m0.actor, { userId: m0.id, confirm: m0.email });
    const after = await db.vote.findMany({ where: { occurrence_id: occ.id } });
    expect(after).toHaveLength(3);
    expect(after.map((r) => r.voter_hash)).not.toContain(mine);
    expect(new Set(after.map((r) => r.voter_hash)).size).toBe(3);
  });
});
