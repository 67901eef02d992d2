/**
 * The SQL twins of the visibility rules (lib/domain/access.ts, used by the one-statement
 * reads of participation and poll votes) select exactly what their Prisma `where` twins select,
 * for every kind × state × confidential × owner/member/outsider combination and two teams.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { pollSql, pollWhere, standupSql, standupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";

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
        await createTestCheckin(A, { kind, state, is_confidential, owner, members: [owner, member] });
      }
    }
  }
  await createTestCheckin(B, { kind: "standup" });
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
