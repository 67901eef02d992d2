/**
 * Stored poll results (issue 14; lib/api/v2/votes.ts `storePollResults`, migration
 * `*_poll_results`): GET /v2/polls/{id}/votes reads a closed broadcast's `questions` from
 * `poll_results` while stored at the occurrence's `results_version`, and the database's triggers
 * bump that version (and enqueue `store_poll_results`) on every change that alters the results.
 * Checked against a real PostgreSQL: the stored text is what the reads send (a marked row shows
 * through), and after each kind of change (a vote added, changed and deleted, a categorization
 * completing, a question edited and archived, a voter's chat id, the poll's anonymity, a broadcast
 * re-opened) the read equals the TypeScript rendering (`serializePollResultsV2(getPollVotes)`)
 * at once, before the job stores the results again; an older store never replaces a newer one.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { pollVotesWire, serializePollResultsV2, storePollResults } from "@/lib/api/v2/votes";
import { db } from "@/lib/db";
import { getPollVotes, type PollVotesFilters } from "@/lib/domain/votes";
import { createTaskList } from "@/lib/jobs/tasks";
import {
  createTestCheckin,
  createTestOccurrence,
  createTestTeam,
  jobQueued,
  type TestTeam,
  type TestUser,
  unqueueJobs,
} from "@/tests/fixtures";
import { createTestCategorization, createTestVote } from "@/tests/poll-fixtures";
import { TRICKY } from "@/tests/tricky-strings";

type Poll = Awaited<ReturnType<typeof createTestCheckin>>;

let A: TestTeam;
let admin: TestUser;
let m0: TestUser;
let m1: TestUser;
let poll: Poll;
let closed: number[];
let open: number;

/** Every broadcast of the poll. */
const ALL: PollVotesFilters = { since: new Date("2026-01-01T00:00:00Z"), until: new Date("2026-12-31T00:00:00Z") };

/** The TypeScript rendering of the results (the reference) and the wire text. */
async function both(filters: PollVotesFilters = ALL) {
  const expected = JSON.stringify(serializePollResultsV2(await getPollVotes(admin.actor, poll.id, filters)));
  return { expected, wire: await pollVotesWire(admin.actor, poll.id, filters) };
}

/** Occurrence id → [stored version, current results_version] (stored null when no row). */
async function versions(): Promise<Map<number, [number | null, number]>> {
  const rows = await db.$queryRaw<Array<{ id: number; stored: number | null; current: number }>>`
    SELECT o.id, pr.version AS stored, o.results_version AS current FROM occurrences o
    LEFT JOIN poll_results pr ON pr.team_id = o.team_id AND pr.occurrence_id = o.id WHERE o.checkin_id = ${poll.id}`;
  return new Map(rows.map((r) => [r.id, [r.stored, r.current]]));
}

/** Stores every closed broadcast through the job's task, as the worker would. */
async function storeAll(): Promise<void> {
  const task = createTaskList(() => {}).store_poll_results;
  if (!task) throw new Error("store_poll_results is not a registered task");
  for (const id of closed) await task({ occurrenceId: id }, {} as never);
}

/** Whether the store job of `occurrenceId` is queued (job outbox or graphile-worker, by job key). */
const queued = (occurrenceId: number) => jobQueued(`poll_results:${occurrenceId}`);

/** Removes the queued store jobs of `ids`. */
const unqueue = (ids: number[]) => unqueueJobs(ids.map((id) => `poll_results:${id}`));

beforeAll(async () => {
  A = await createTestTeam({ members: 2 });
  admin = A.admin;
  [, m0, m1] = A.users;
  poll = await createTestCheckin(A, {
    kind: "poll",
    name: `Stored ${TRICKY[0]}`,
    members: [admin, m0, m1],
    questions: [
      { text: `Pick ${TRICKY[1]}`, choices: ["a", "b"] },
      { text: "Ideas", answer_type: "open_ended" },
    ],
  });
  const members = [admin, m0, m1];
  const o1 = await createTestOccurrence(poll, "2026-04-01", members);
  const o2 = await createTestOccurrence(poll, "2026-04-08", members);
  const o3 = await createTestOccurrence(poll, "2026-04-15", members);
  await createTestVote(poll, o1.id, m0, 0, { choice: "a" });
  await createTestVote(poll, o1.id, m1, 1, { text: `idea ${TRICKY[2]}`, categories: ["x"] });
  await createTestVote(poll, o2.id, m1, 0, { choice: "own label" });
  await createTestVote(poll, o2.id, admin, 1, { text: "another idea" });
  await createTestVote(poll, o3.id, m0, 0, { choice: "b" });
  closed = [o1.id, o2.id];
  open = o3.id;
  await db.occurrence.updateMany({ where: { id: { in: closed } }, data: { closed_at: new Date("2026-04-10T00:00:00Z") } });
});

describe("stored poll results", () => {
  it("closing a broadcast enqueues its store job; stored results are what the read sends", async () => {
    for (const id of closed) expect(await queued(id)).toBe(true);
    expect(await queued(open)).toBe(false);
    await storeAll();
    const v = await versions();
    for (const id of closed) expect(v.get(id)?.[0]).toBe(v.get(id)?.[1]);
    expect(v.get(open)?.[0]).toBeNull();
    const { expected, wire } = await both();
    expect(wire).toBe(expected);

    // The read really uses the stored row: a marked one shows through, for closed broadcasts only.
    await db.$executeRaw`UPDATE poll_results SET questions = '["stored"]' WHERE occurrence_id = ${closed[0]}`;
    expect(await pollVotesWire(admin.actor, poll.id, ALL)).toContain('"questions":["stored"]');
    await db.$executeRaw`UPDATE occurrences SET closed_at = NULL WHERE id = ${closed[0]}`;
    expect(await pollVotesWire(admin.actor, poll.id, ALL)).not.toContain('"questions":["stored"]');
    await db.$executeRaw`UPDATE occurrences SET closed_at = '2026-04-10T00:00:00Z' WHERE id = ${closed[0]}`;
    expect(await pollVotesWire(admin.actor, poll.id, ALL)).not.toContain('"questions":["stored"]');
    await storeAll();
    expect((await both()).wire).toBe(expected);
  });

  const CHANGES: Array<[string, () => Promise<unknown>]> = [
    ["a vote added", () => createTestVote(poll, closed[0], admin, 0, { choice: "b" })],
    ["a vote changed", () => db.vote.updateMany({ where: { occurrence_id: closed[1], choice: "own label" }, data: { choice: "a" } })],
    ["a vote deleted", () => db.vote.deleteMany({ where: { occurrence_id: closed[0], user_id: admin.id } })],
    ["a categorization completed", () => createTestCategorization(poll, closed[0], 1, [{ name: "x", count: 1 }])],
    [
      "a categorization's categories changed",
      () => db.categorization.updateMany({ where: { occurrence_id: closed[0] }, data: { categories: [{ name: "y", count: 1 }] } }),
    ],
    ["a question's text edited", () => db.question.update({ where: { id: poll.questions[1].id }, data: { text: `Ideas ${TRICKY[3]}` } })],
    ["a question's choices edited", () => db.question.update({ where: { id: poll.questions[0].id }, data: { choices: ["b", "a", "c"] } })],
    ["a question archived", () => db.question.update({ where: { id: poll.questions[1].id }, data: { archived_at: new Date() } })],
    ["a voter's chat id", () => db.user.update({ where: { id: m1.id }, data: { chat_id: `${m1.chat_id}-renamed` } })],
    ["the poll made anonymous", () => db.checkin.update({ where: { id: poll.id }, data: { is_anonymous: true } })],
  ];
  for (const [what, change] of CHANGES) {
    it(`after ${what}: the read is current at once, and stored again by the job`, async () => {
      await storeAll();
      await unqueue(closed);
      for (const id of closed) expect(await queued(id)).toBe(false);
      const before = await versions();
      await change();
      const after = await versions();
      const bumped = closed.filter((id) => (after.get(id)?.[1] ?? 0) > (before.get(id)?.[1] ?? 0));
      expect(bumped.length).toBeGreaterThan(0);
      for (const id of bumped) expect(await queued(id)).toBe(true);
      const live = await both();
      expect(live.wire).toBe(live.expected);
      await storeAll();
      for (const [id, [stored, current]] of await versions()) if (closed.includes(id)) expect(stored).toBe(current);
      const stored = await both();
      expect(stored.wire).toBe(stored.expected);
    });
  }

  it("leaves other broadcasts and bookkeeping changes alone and never replaces a newer stored row", async () => {
    await storeAll();
    const before = await versions();
    await createTestVote(poll, open, m1, 0, { choice: "a" });
    await createTestVote(poll, closed[1], m0, 0, { choice: "b" });
    // Bookkeeping that the results do not show: a categorization's attempts, a standup's question.
    await db.categorization.updateMany({ where: { occurrence_id: closed[0] }, data: { attempts: { increment: 1 }, error: "retry" } });
    const standup = await createTestCheckin(A, { name: "Daily", questions: [{ text: "Yesterday?" }] });
    await db.question.update({ where: { id: standup.questions[0].id }, data: { text: "Yesterday, really?" } });
    const after = await versions();
    expect(after.get(open)?.[1]).toBe(before.get(open)?.[1]);
    expect(after.get(closed[0])?.[1]).toBe(before.get(closed[0])?.[1]);
    expect(after.get(closed[1])?.[1]).toBe((before.get(closed[1])?.[1] ?? 0) + 1);

    await db.$executeRaw`UPDATE poll_results SET version = version + 100, questions = '["newer"]' WHERE occurrence_id = ${closed[0]}`;
    expect(await storePollResults(closed[0])).toBe(false);
    expect(await storePollResults(open)).toBe(false);
    expect(await storePollResults(2_000_000_000)).toBe(false);
    await db.$executeRaw`DELETE FROM poll_results WHERE occurrence_id = ${closed[0]}`;
    expect(await storePollResults(closed[0])).toBe(true);
    const { expected, wire } = await both();
    expect(wire).toBe(expected);
  });
});
