/**
 * Stored participation counts (issue 14; lib/domain/participation.ts `storeParticipationCounts`,
 * migration `*_participation_counts`): participation pages and dashboards read a closed
 * occurrence's counts from `participation_counts` while stored at the occurrence's
 * `counts_version`, and the database's triggers bump that version (and enqueue
 * `store_participation_counts`) on every change the counts depend on. Checked against a real
 * PostgreSQL: the stored counts are what the reads send (a marked row shows through, for closed
 * occurrences only), and after each kind of change (a report submitted, un-submitted, deleted or
 * moved, a member added to or removed from the snapshot, an absence added, moved or deleted, an
 * occurrence moved to another date, a vote added or deleted) the read equals the counts computed
 * from the rows at once, before the job stores them again; bookkeeping (an edited answer, a
 * reminder, a note) bumps nothing; an older store never replaces a newer one.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { countOccurrenceParticipation, listParticipation, storeParticipationCounts } from "@/lib/domain/participation";
import { Prisma } from "@/lib/generated/prisma/client";
import { createTaskList } from "@/lib/jobs/tasks";
import {
  createTestCheckin,
  createTestOccurrence,
  createTestReport,
  createTestTeam,
  jobQueued,
  type TestTeam,
  type TestUser,
  unqueueJobs,
} from "@/tests/fixtures";
import { createTestVote } from "@/tests/poll-fixtures";

type Checkin = Awaited<ReturnType<typeof createTestCheckin>>;

let A: TestTeam;
let admin: TestUser;
let u1: TestUser;
let u2: TestUser;
let u3: TestUser;
let u4: TestUser;
let standup: Checkin;
let poll: Checkin;
/** Closed standup occurrences (03-02, 03-03, 03-04) and the open one (03-05). */
let closed: number[];
let open: number;
/** Closed poll broadcasts. */
let closedPoll: number[];

const CLOSED_AT = new Date("2026-03-20T00:00:00Z");

/** The counts of participation entries or of occurrence counts, in the same shape. */
const counted = (rows: Array<{ occurrenceId: number; expected: number; responded: number; excludedVacation: number }>) =>
  rows.map(({ occurrenceId, expected, responded, excludedVacation }) => ({ occurrenceId, expected, responded, excludedVacation }));

/** The counts of every occurrence of `checkin` as the reads give them (stored where current) and computed from the rows. */
async function both(checkin: Checkin) {
  const isPoll = checkin.kind === "poll";
  const where = [Prisma.sql`o.checkin_id = ${checkin.id}`];
  const read = await countOccurrenceParticipation(db, { where, isPoll, order: "desc" });
  const live = await countOccurrenceParticipation(db, { where, isPoll, order: "desc", live: true });
  const page = await listParticipation(admin.actor, isPoll ? "poll" : "standup", checkin.id, { limit: 50 });
  return { read, live, page: counted(page) };
}

/** Occurrence id → [stored version, current counts_version] (stored null when no row). */
async function versions(): Promise<Map<number, [number | null, number]>> {
  const rows = await db.$queryRaw<Array<{ id: number; stored: number | null; current: number }>>`
    SELECT o.id, pc.version AS stored, o.counts_version AS current FROM occurrences o
    LEFT JOIN participation_counts pc ON pc.team_id = o.team_id AND pc.occurrence_id = o.id
    WHERE o.checkin_id IN (${standup.id}, ${poll.id})`;
  return new Map(rows.map((r) => [r.id, [r.stored, r.current]]));
}

/** Stores every closed occurrence through the job's task, as the worker would. */
async function storeAll(): Promise<void> {
  const task = createTaskList(() => {}).store_participation_counts;
  if (!task) throw new Error("store_participation_counts is not a registered task");
  for (const id of [...closed, ...closedPoll]) await task({ occurrenceId: id }, {} as never);
}

/** Whether the store job of `occurrenceId` is queued (job outbox or graphile-worker, by job key). */
const queued = (occurrenceId: number) => jobQueued(`participation_counts:${occurrenceId}`);

/** Removes the queued store jobs of `ids`. */
const unqueue = (ids: number[]) => unqueueJobs(ids.map((id) => `participation_counts:${id}`));

async function absent(user: { id: number }, start: string, end: string) {
  return db.absence.create({ data: { team_id: A.id, user_id: user.id, start_date: new Date(start), end_date: new Date(end) } });
}

beforeAll(async () => {
  A = await createTestTeam({ members: 4 });
  admin = A.admin;
  [, u1, u2, u3, u4] = A.users;
  const all = [admin, u1, u2, u3, u4];
  standup = await createTestCheckin(A, { owner: admin, members: all });
  const d1 = await createTestOccurrence(standup, "2026-03-02", all);
  const d2 = await createTestOccurrence(standup, "2026-03-03", all);
  const d3 = await createTestOccurrence(standup, "2026-03-04", [u1, u2]);
  const d4 = await createTestOccurrence(standup, "2026-03-05", all);
  await createTestReport(standup, u1, { occurrence_id: d1.id });
  await createTestReport(standup, u2, { occurrence_id: d1.id });
  await createTestReport(standup, u1, { occurrence_id: d2.id, status: "pending" });
  await createTestReport(standup, admin, { occurrence_id: d3.id }); // from outside the snapshot
  await createTestReport(standup, u1, { occurrence_id: d4.id });
  await absent(u3, "2026-03-01", "2026-03-02"); // silent on 03-02: excluded
  closed = [d1.id, d2.id, d3.id];
  open = d4.id;

  poll = await createTestCheckin(A, { kind: "poll", members: all, questions: [{ text: "Pick", choices: ["a", "b"] }] });
  const b1 = await createTestOccurrence(poll, "2026-03-02", all);
  const b2 = await createTestOccurrence(poll, "2026-03-09", all);
  await createTestVote(poll, b1.id, u1, 0, { choice: "a" });
  await createTestVote(poll, b2.id, u2, 0, { choice: "b" });
  closedPoll = [b1.id, b2.id];
  await db.occurrence.updateMany({ where: { id: { in: [...closed, ...closedPoll] } }, data: { closed_at: CLOSED_AT } });
});

describe("stored participation counts", () => {
  it("closing an occurrence enqueues its store job; stored counts are what the reads give", async () => {
    for (const id of [...closed, ...closedPoll]) expect(await queued(id)).toBe(true);
    expect(await queued(open)).toBe(false);
    // An occurrence written already closed (the demo seed, an import) is stored too.
    const written = await db.occurrence.create({
      data: { team_id: A.id, checkin_id: standup.id, date: new Date("2026-02-27"), scheduled_at: CLOSED_AT, closed_at: CLOSED_AT },
    });
    expect(await queued(written.id)).toBe(true);
    await db.occurrence.delete({ where: { id: written.id } });
    await storeAll();
    const v = await versions();
    for (const id of [...closed, ...closedPoll]) expect(v.get(id)?.[0]).toBe(v.get(id)?.[1]);
    expect(v.get(open)?.[0]).toBeNull();
    for (const checkin of [standup, poll]) {
      const { read, live, page } = await both(checkin);
      expect(read).toEqual(live);
      expect(page).toEqual(counted(live));
    }
    // 03-02: 5 asked, u3 away and silent → expected 4, responded 2, 1 on leave.
    const { live } = await both(standup);
    expect(live.find((c) => c.occurrenceId === closed[0])).toMatchObject({ expected: 4, responded: 2, excludedVacation: 1 });

    // The reads really use the stored row: a marked one shows through, for closed occurrences only.
    await db.$executeRaw`UPDATE participation_counts SET expected = 999 WHERE occurrence_id = ${closed[0]}`;
    expect((await both(standup)).page.find((c) => c.occurrenceId === closed[0])?.expected).toBe(999);
    await db.$executeRaw`UPDATE occurrences SET closed_at = NULL WHERE id = ${closed[0]}`;
    expect((await both(standup)).page.find((c) => c.occurrenceId === closed[0])?.expected).toBe(4);
    await db.$executeRaw`UPDATE occurrences SET closed_at = ${CLOSED_AT} WHERE id = ${closed[0]}`;
    expect((await both(standup)).page.find((c) => c.occurrenceId === closed[0])?.expected).toBe(4);
    await storeAll();
    const after = await both(standup);
    expect(after.read).toEqual(after.live);
  });

  const CHANGES: Array<[string, () => Promise<unknown>]> = [
    ["a report submitted to a closed occurrence", () => createTestReport(standup, u4, { occurrence_id: closed[1] })],
    [
      "a pending report submitted",
      () =>
        db.report.updateMany({
          where: { occurrence_id: closed[1], user_id: u1.id },
          data: { status: "submitted", submitted_at: new Date() },
        }),
    ],
    ["a submitted report deleted", () => db.report.deleteMany({ where: { occurrence_id: closed[0], user_id: u2.id } })],
    [
      "a report moved to another occurrence",
      () => db.report.updateMany({ where: { occurrence_id: closed[2] }, data: { occurrence_id: closed[1] } }),
    ],
    [
      "a member added to a snapshot",
      () => db.occurrenceMember.create({ data: { team_id: A.id, occurrence_id: closed[2], user_id: u3.id } }),
    ],
    ["a member removed from a snapshot", () => db.occurrenceMember.deleteMany({ where: { occurrence_id: closed[0], user_id: u4.id } })],
    ["an absence added", () => absent(u3, "2026-03-03", "2026-03-04")],
    [
      "an absence moved",
      () =>
        db.absence.updateMany({
          where: { user_id: u3.id, start_date: new Date("2026-03-03") },
          data: { start_date: new Date("2026-03-04"), end_date: new Date("2026-03-04") },
        }),
    ],
    ["an absence deleted", () => db.absence.deleteMany({ where: { user_id: u3.id, start_date: new Date("2026-03-01") } })],
    [
      "an occurrence moved to another date",
      () => db.occurrence.update({ where: { id: closed[0] }, data: { date: new Date("2026-03-01") } }),
    ],
    ["a vote added", () => createTestVote(poll, closedPoll[0], u3, 0, { choice: "b" })],
    ["a vote deleted", () => db.vote.deleteMany({ where: { occurrence_id: closedPoll[1] } })],
  ];
  for (const [what, change] of CHANGES) {
    it(`after ${what}: the read is current at once, and stored again by the job`, async () => {
      await storeAll();
      await unqueue([...closed, ...closedPoll]);
      const before = await versions();
      const liveBefore = [...(await both(standup)).live, ...(await both(poll)).live];
      await change();
      const after = await versions();
      const bumped = [...closed, ...closedPoll].filter((id) => (after.get(id)?.[1] ?? 0) > (before.get(id)?.[1] ?? 0));
      expect(bumped.length).toBeGreaterThan(0);
      for (const id of bumped) expect(await queued(id)).toBe(true);
      // Not a vacuous check: the change altered what the rows count (or the occurrence's date).
      const liveAfter = [...(await both(standup)).live, ...(await both(poll)).live];
      expect(liveAfter).not.toEqual(liveBefore);
      for (const checkin of [standup, poll]) {
        const { read, live, page } = await both(checkin);
        expect(read).toEqual(live);
        expect(page).toEqual(counted(live));
      }
      await storeAll();
      const stored = await versions();
      for (const id of [...closed, ...closedPoll]) expect(stored.get(id)?.[0]).toBe(stored.get(id)?.[1] ?? -1);
      for (const checkin of [standup, poll]) {
        const { read, live } = await both(checkin);
        expect(read).toEqual(live);
      }
    });
  }

  it("leaves bookkeeping and open occurrences alone and never replaces a newer stored row", async () => {
    await storeAll();
    const before = await versions();
    // Bookkeeping the counts do not read: an edited answer, a report's flags, reminders and misses,
    // an absence's note, a report to the open occurrence, an absence with no closed occurrence.
    await db.answer.updateMany({ where: { report: { occurrence_id: closed[0] } }, data: { text: "edited" } });
    await db.report.updateMany({ where: { occurrence_id: closed[0] }, data: { is_anonymous: true, anonymous_requested: true } });
    await db.occurrenceMember.updateMany({
      where: { occurrence_id: { in: closed } },
      data: { reminded_at: [new Date()], missed_at: new Date() },
    });
    await db.absence.updateMany({ where: { team_id: A.id }, data: { note: "beach" } });
    await createTestReport(standup, u3, { occurrence_id: open });
    await absent(u4, "2026-06-01", "2026-06-05");
    const after = await versions();
    for (const [id, [, current]] of after) expect([id, current]).toEqual([id, before.get(id)?.[1]]);

    await db.$executeRaw`UPDATE participation_counts SET version = version + 100, expected = 777 WHERE occurrence_id = ${closed[0]}`;
    expect(await storeParticipationCounts(closed[0])).toBe(false);
    expect(await storeParticipationCounts(open)).toBe(false);
    expect(await storeParticipationCounts(2_000_000_000)).toBe(false);
    await db.$executeRaw`DELETE FROM participation_counts WHERE occurrence_id = ${closed[0]}`;
    expect(await storeParticipationCounts(closed[0])).toBe(true);
    const { read, live } = await both(standup);
    expect(read).toEqual(live);
  });
});
