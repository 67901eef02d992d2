/**
 * The SQL twins of the visibility rules (lib/domain/access.ts, used by the one-statement
 * reads of participation and poll votes) select exactly what their Prisma `where` twins select,
 * for every kind × state × confidential × owner/member/outsider combination and two teams; the
 * report rules (used by the one-statement report pages) likewise over submitted, pending and
 * anonymous reports of those standups.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import {
  authorFilterSql,
  authorFilterWhere,
  pollSql,
  pollWhere,
  reportListSql,
  reportListWhere,
  reportReadSql,
  reportReadWhere,
  standupSql,
  standupWhere,
} from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { Prisma } from "@/lib/generated/prisma/client";
import { createTestCheckin, createTestReport, createTestTeam, type TestTeam } from "@/tests/fixtures";

let A: TestTeam;
let B: TestTeam;
const actors: Array<{ label: string; actor: Actor }> = [];

beforeAll(async () => {
  A = await createTestTeam({ members: 3 });
  B = await createTestTeam({ members: 1 });
  const [admin, owner, member, outsider] = A.users;
  for (const kind of ["standup", "poll"] as const) {
    for (const state of ["active", "paused", "draft", "archived"] as const) {
      for (const is_confidential of [false, true]) {
        const checkin = await createTestCheckin(A, { kind, state, is_confidential, owner, members: [owner, member] });
        if (kind !== "standup") continue;
        await createTestReport(checkin, owner);
        await createTestReport(checkin, member, { is_anonymous: true });
        await createTestReport(checkin, member, { status: "pending" });
        if (!is_confidential && state === "active") await createTestReport(checkin, outsider);
      }
    }
  }
  const anonymous = await createTestCheckin(A, { kind: "standup", is_anonymous: true, owner, members: [owner, member] });
  await createTestReport(anonymous, member, { is_anonymous: false });
  await createTestReport(await createTestCheckin(B, { kind: "standup" }), B.users[0]);
  await createTestCheckin(B, { kind: "poll" });
  for (const [label, u, team] of [
    ["admin", admin, A],
    ["owner", owner, A],
    ["member", member, A],
    ["outsider", outsider, A],
    ["other team", B.users[0], B],
  ] as const) {
    actors.push({ label, actor: { teamId: team.id, userId: u.id, userChatId: u.chat_id, isAdmin: u === admin } });
  }
});

const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
const inTeams = () => ({ team_id: { in: [A.id, B.id] } });
const byId = { select: { id: true }, orderBy: { id: "asc" } } as const;

/** Ids (teams A and B) that `condition` selects over `checkins c`, or `reports r` joined to its standup `c`. */
async function sqlIds(table: "checkins" | "reports", condition: Prisma.Sql): Promise<number[]> {
  const from =
    table === "checkins"
      ? Prisma.sql`SELECT c.id FROM checkins c WHERE c.team_id`
      : Prisma.sql`SELECT r.id FROM reports r JOIN checkins c ON c.id = r.checkin_id WHERE r.team_id`;
  return ids(await db.$queryRaw<Array<{ id: number }>>`${from} IN (${A.id}, ${B.id}) AND ${condition} ORDER BY 1`);
}

const checkinIds = async (where: Prisma.CheckinWhereInput) =>
  ids(await db.checkin.findMany({ where: { AND: [inTeams(), where] }, ...byId }));
const reportIds = async (where: Prisma.ReportWhereInput) => ids(await db.report.findMany({ where: { AND: [inTeams(), where] }, ...byId }));

describe("visibility rules: SQL twins select what the Prisma rules select", () => {
  it.each([
    ["standup (v2 scope)", (a: Actor) => standupWhere(a), (a: Actor, c: string) => standupSql(a, c)],
    ["poll (creator)", (a: Actor) => pollWhere(a), (a: Actor, c: string) => pollSql(a, c)],
    [
      "poll (participants)",
      (a: Actor) => pollWhere(a, { participants: true }),
      (a: Actor, c: string) => pollSql(a, c, { participants: true }),
    ],
  ] as const)("%s", async (_name, where, sql) => {
    expect(
      await actorsWhereTwinsAgree(
        checkinIds,
        where,
        (c) => sqlIds("checkins", c),
        (a) => sql(a, "c"),
      ),
    ).toBeGreaterThan(0);
  });
});

/**
 * For every actor, expects the ids the SQL twin selects to equal those the Prisma rule selects.
 * @returns how many actors saw at least one row (so a rule that selects nothing cannot pass).
 */
async function actorsWhereTwinsAgree<W>(
  prisma: (where: W) => Promise<number[]>,
  where: (a: Actor) => W,
  sql: (condition: Prisma.Sql) => Promise<number[]>,
  condition: (a: Actor) => Prisma.Sql,
): Promise<number> {
  let nonEmpty = 0;
  for (const { label, actor } of actors) {
    const expected = await prisma(where(actor));
    if (expected.length) nonEmpty++;
    expect(await sql(condition(actor)), label).toEqual(expected);
  }
  return nonEmpty;
}

describe("report rules: SQL twins select what the Prisma rules select", () => {
  it.each([
    ["report list (API)", (a: Actor) => reportListWhere(a), (a: Actor) => reportListSql(a, {}, "r", "c")],
    [
      "report list (dashboard readers)",
      (a: Actor) => reportListWhere(a, { teamWide: "readers" }),
      (a: Actor) => reportListSql(a, { teamWide: "readers" }, "r", "c"),
    ],
    [
      "report list filtered by author",
      (a: Actor) => ({ AND: [reportListWhere(a), authorFilterWhere(a)] }),
      (a: Actor) => Prisma.sql`${reportListSql(a, {}, "r", "c")} AND ${authorFilterSql(a, "r", "c")}`,
    ],
    ["one readable report (API)", (a: Actor) => reportReadWhere(a), (a: Actor) => reportReadSql(a, "r", "c")],
  ] as const)("%s", async (_name, where, sql) => {
    expect(await actorsWhereTwinsAgree(reportIds, where, (c) => sqlIds("reports", c), sql)).toBeGreaterThan(1);
  });
});
