/**
 * The v2 participation rendering (lib/api/v2/participation.ts: `listParticipation` entries through
 * `serializeStandupParticipation` / `serializePollParticipation`): the vacation exclusion, adhoc
 * occurrences, expected = 0, multi-vote voters, keyset pages that walk the whole list, whatever the
 * session's time zone; and the rate printed by PostgreSQL (`participationRateSql`, used by the
 * stored counts) is `String(participationRate(r, e))` for every 0 <= r <= e <= 400 (and e = 800,
 * where exact half-up rounding would differ from JS). (The same JSON built in SQL was removed in
 * issue 51: it gained less than 10%.) The routes' contract is tested in tests/api/v2-participation.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { serializePollParticipation, serializeStandupParticipation } from "@/lib/api/v2/participation";
import { db, queryRows, type Tx } from "@/lib/db";
import type { CheckinKind } from "@/lib/domain/access";
import { NotFoundError } from "@/lib/domain/errors";
import { listParticipation, type ParticipationFilters, participationRate, participationRateSql } from "@/lib/domain/participation";
import { Prisma } from "@/lib/generated/prisma/client";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { inKolkataSession } from "@/tests/tricky-strings";

let A: TestTeam;
let B: TestTeam;
let standup: Awaited<ReturnType<typeof createTestCheckin>>;
let poll: Awaited<ReturnType<typeof createTestCheckin>>;

/** An absence of `user` from `start` to `end` (inclusive dates "YYYY-MM-DD"). */
async function absent(user: { id: number }, kind: "vacation" | "out_of_office", start: string, end: string) {
  await db.absence.create({
    data: { team_id: A.id, user_id: user.id, kind, start_date: new Date(start), end_date: new Date(end) },
  });
}

beforeAll(async () => {
  A = await createTestTeam({ members: 7 });
  B = await createTestTeam({ members: 1 });
  const all = A.users; // admin, u1..u7
  const [admin, u1, u2, u3, u4, u5, u6, u7] = all;
  standup = await createTestCheckin(A, { owner: admin, members: all });
  const report = (user: { id: number }, occurrence: { id: number }, status?: "pending" | "discarded") =>
    createTestReport(standup, user, { occurrence_id: occurrence.id, ...(status ? { status } : {}) });

  // 03-02: u3 on vacation and silent (excluded); u1, u2 reported: 2 / 7.
  const d1 = await createTestOccurrence(standup, "2026-03-02", all);
  await report(u1, d1);
  await report(u2, d1);
  await absent(u3, "vacation", "2026-03-01", "2026-03-03");
  // 03-03: u3 on vacation but reported (counts); u4 out of office and silent; u1 pending, u2 discarded.
  const d2 = await createTestOccurrence(standup, "2026-03-03", all);
  await report(u3, d2);
  await report(u1, d2, "pending");
  await report(u2, d2, "discarded");
  await absent(u4, "out_of_office", "2026-03-03", "2026-03-03");
  // 03-04: snapshot u1 only; u1 reported twice, admin reported from outside the snapshot.
  const d3 = await createTestOccurrence(standup, "2026-03-04", [u1]);
  await report(u1, d3);
  await report(u1, d3);
  await report(admin, d3);
  // 03-05: nobody expected. 03-06: an adhoc run with a submitted report (listed); 03-07: an adhoc
  // run with only a pending report (not listed).
  await createTestOccurrence(standup, "2026-03-05", []);
  const adhoc = await createTestOccurrence(standup, "2026-03-06", [u2]);
  await report(u2, adhoc);
  const adhocPending = await createTestOccurrence(standup, "2026-03-07", [u5]);
  await report(u5, adhocPending, "pending");
  await db.occurrence.updateMany({ where: { id: { in: [adhoc.id, adhocPending.id] } }, data: { trigger: "adhoc" } });
  // 03-09 .. 03-13: everyone asked; u5, u6, u7 away the whole week, u6 reported anyway.
  await absent(u5, "vacation", "2026-03-08", "2026-03-14");
  await absent(u6, "vacation", "2026-03-09", "2026-03-13");
  await absent(u7, "out_of_office", "2026-03-09", "2026-03-13");
  for (const [day, responders] of [
    ["2026-03-09", [u6, u1, u2]],
    ["2026-03-10", [u1]],
    ["2026-03-11", [u6, u1, u2, u3, u4]],
    ["2026-03-12", []],
    ["2026-03-13", all],
  ] as const) {
    const o = await createTestOccurrence(standup, day, all);
    for (const u of responders) await report(u, o);
  }

  poll = await createTestCheckin(A, {
    kind: "poll",
    owner: u1,
    members: all,
    questions: [{ text: "Pick", choices: ["a", "b"] }, { text: "Why?" }],
  });
  const [q0, q1] = poll.questions.map((q) => q.id);
  const vote = (o: { id: number }, user: { id: number }, question: number, choice: string | null) => ({
    team_id: A.id,
    occurrence_id: o.id,
    question_id: question,
    user_id: user.id,
    choice,
    text: choice === null ? "because" : null,
  });
  const p1 = await createTestOccurrence(poll, "2026-04-01", [admin, u1, u2]);
  const p2 = await createTestOccurrence(poll, "2026-04-08", all);
  const p3 = await createTestOccurrence(poll, "2026-04-15", [u1, u2, u3]);
  await createTestOccurrence(poll, "2026-04-22", []);
  await db.vote.createMany({
    data: [
      // p1: u1 votes twice and answers the open question; u2 once; u4 (not a recipient) votes: 3 / 4.
      vote(p1, u1, q0, "a"),
      vote(p1, u1, q0, "b"),
      vote(p1, u1, q1, null),
      vote(p1, u2, q0, "a"),
      vote(p1, u4, q0, "b"),
      // p2: 1 / 8 (no vacation exclusion for polls: u5 is away and still expected).
      vote(p2, u5, q0, "a"),
      // p3: 2 / 3.
      vote(p3, u2, q0, "a"),
      vote(p3, u3, q1, null),
    ],
  });
});

/** A page as the routes render it: each entry's keyset position and its v2 JSON text. */
async function rendered(kind: CheckinKind, filters: ParticipationFilters, client?: Tx) {
  const owner = kind === "poll" ? A.users[1] : A.users[0];
  const id = kind === "poll" ? poll.id : standup.id;
  const serialize = kind === "poll" ? serializePollParticipation : serializeStandupParticipation;
  const entries = await listParticipation(owner.actor, kind, id, filters, client);
  return entries.map((e) => ({ date: e.date, id: e.occurrenceId, json: JSON.stringify(serialize(e)) }));
}

describe("v2 participation rendering", () => {
  for (const kind of ["standup", "poll"] as const) {
    it(`${kind}: a keyset walk with limit 2 gives the same pages as listParticipation`, async () => {
      let after: ParticipationFilters["after"];
      const seen: string[] = [];
      for (let page = 0; page < 20; page++) {
        const wires = await rendered(kind, { after, limit: 2 });
        seen.push(...wires.slice(0, 2).map((w) => w.json));
        if (wires.length <= 2) break;
        after = { date: wires[1].date, id: wires[1].id };
      }
      const all = await rendered(kind, { limit: 100 });
      expect(all.length).toBeGreaterThan(3);
      expect(seen).toEqual(all.map((e) => e.json));
    });

    it(`${kind}: the same text and dates in a session whose TimeZone is Asia/Kolkata`, async () => {
      const utc = await rendered(kind, { limit: 100 });
      const kolkata = await inKolkataSession((tx) => rendered(kind, { since: new Date("2026-03-03T00:00:00Z"), limit: 100 }, tx));
      expect(kolkata.length).toBeGreaterThan(2);
      expect(kolkata).toEqual(utc.filter((w) => w.date >= "2026-03-03"));
    });
  }

  it("covers the cases it claims: exclusions, adhoc runs, expected = 0, multi-vote voters", async () => {
    const standupEntries = (await rendered("standup", { limit: 100 })).map((w) => JSON.parse(w.json));
    expect(standupEntries.map((e) => [e.date, e.expected, e.responded, e.participation_rate, e.excluded.vacation])).toEqual([
      ["2026-03-13", 8, 8, 1, 0],
      ["2026-03-12", 5, 0, 0, 3],
      ["2026-03-11", 6, 5, 0.8333, 2],
      ["2026-03-10", 5, 1, 0.2, 3],
      ["2026-03-09", 6, 3, 0.5, 2],
      ["2026-03-06", 1, 1, 1, 0],
      ["2026-03-05", 0, 0, 0, 0],
      ["2026-03-04", 2, 2, 1, 0],
      ["2026-03-03", 7, 1, 0.1429, 1],
      ["2026-03-02", 7, 2, 0.2857, 1],
    ]);
    const pollEntries = (await rendered("poll", { limit: 100 })).map((w) => JSON.parse(w.json));
    expect(pollEntries.map((e) => [e.date, e.expected, e.responded, e.participation_rate])).toEqual([
      ["2026-04-22", 0, 0, 0],
      ["2026-04-15", 3, 2, 0.6667],
      ["2026-04-08", 8, 1, 0.125],
      ["2026-04-01", 4, 3, 0.75],
    ]);
  });

  it("throws NotFoundError when the checkin is not visible (another team, a poll not created by the caller, the wrong kind)", async () => {
    const cases: Array<[TestTeam["admin"], CheckinKind, number]> = [
      [B.admin, "standup", standup.id],
      [A.users[2], "poll", poll.id],
      [A.users[1], "standup", poll.id],
      [A.users[0], "poll", standup.id],
    ];
    for (const [user, kind, id] of cases) {
      await expect(listParticipation(user.actor, kind, id, { limit: 10 })).rejects.toBeInstanceOf(NotFoundError);
    }
  });
});

describe("participationRateSql", () => {
  it("prints String(participationRate(r, e)) for every 0 <= r <= e <= 400 and e = 800, in one query", async () => {
    const rate = participationRateSql(Prisma.sql`r`, Prisma.sql`e`);
    const rows = await queryRows<{ e: number; r: number; text: string }>(
      Prisma.sql`SELECT e, r, to_json(${rate})::text AS text
        FROM (SELECT generate_series(0, 400) AS e UNION ALL SELECT 800) es, generate_series(0, es.e) r`,
    );
    const expectedCount = (401 * 402) / 2 + 801;
    expect(rows).toHaveLength(expectedCount);
    const wrong = rows.filter((row) => row.text !== String(participationRate(row.r, row.e)));
    expect(wrong.slice(0, 5)).toEqual([]);
    // The case where exact half-up rounding differs from JS's double arithmetic.
    expect(rows.find((row) => row.e === 800 && row.r === 57)?.text).toBe("0.0712");
  });
});
