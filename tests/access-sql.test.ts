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

async function sqlIds(condition: Prisma.Sql): Promise<number[]> {
  const rows = await db.$queryRaw<
    Array<{ id: number }>
  >`SELECT c.id FROM checkins c WHERE c.team_id IN (${A.id}, ${B.id}) AND ${condition} ORDER BY c.id`;
  return rows.map((r) => r.id);
}

async function prismaIds(where: Prisma.CheckinWhereInput): Promise<number[]> {
  const rows = await db.checkin.findMany({
    where: { AND: [{ team_id: { in: [A.id, B.id] } }, where] },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.id);
}

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
    let nonEmpty = 0;
    for (const { label, actor } of actors) {
      const expected = await prismaIds(where(actor));
      if (expected.length) nonEmpty++;
      expect(await sqlIds(sql(actor, "c")), label).toEqual(expected);
    }
    expect(nonEmpty).toBeGreaterThan(0);
  });
});

async function reportSqlIds(condition: Prisma.Sql): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ id: number }>>`
    SELECT r.id FROM reports r JOIN checkins c ON c.id = r.checkin_id
    WHERE r.team_id IN (${A.id}, ${B.id}) AND ${condition} ORDER BY r.id`;
  return rows.map((r) => r.id);
}

async function reportPrismaIds(where: Prisma.ReportWhereInput): Promise<number[]> {
  const rows = await db.report.findMany({
    where: { AND: [{ team_id: { in: [A.id, B.id] } }, where] },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.id);
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
  ] as const)("%s", async (_name, where, sql) => {
    let nonEmpty = 0;
    for (const { label, actor } of actors) {
      const expected = await reportPrismaIds(where(actor));
      if (expected.length) nonEmpty++;
      expect(await reportSqlIds(sql(actor)), label).toEqual(expected);
    }
    expect(nonEmpty).toBeGreaterThan(1);
  });
});
