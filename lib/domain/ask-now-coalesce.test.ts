/**
 * "Ask now" right after a reminder (issue 41 item 11): with `skipAskedWithinMs` (the dashboard's
 * Ask now for everyone), members asked or reminded within that time are not asked again, so a
 * member never gets two messages within seconds; others still are. Real test database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startStandup } from "@/lib/domain/occurrences";
import { createTestTeam, type TestTeam } from "@/tests/fixtures";
import { createDailyStandup } from "@/tests/standup-fixtures";

let team: TestTeam;

beforeAll(async () => {
  team = await createTestTeam({ members: 3 });
});

describe("Ask now coalescing", () => {
  it("skips a member reminded a second ago, asks the others, and asks chosen members regardless", async () => {
    const { id } = await createDailyStandup(team, { name: "Coalesce", waitTime: null });
    const [, a, b, c] = team.users;
    const t0 = new Date(Date.now() - 10 * 60_000);
    const first = await startStandup(team.admin.actor, id, {}, db, t0);
    expect(first.asked).toEqual([a.id, b.id, c.id].sort((x, y) => x - y));

    // c was just reminded (a second before "now"); a and b were asked ten minutes ago.
    const now = new Date(t0.getTime() + 10 * 60_000);
    await db.occurrenceMember.update({
      where: { occurrence_id_user_id: { occurrence_id: first.occurrenceId, user_id: c.id } },
      data: { reminded_at: [new Date(now.getTime() - 1000)] },
    });
    const messagesBefore = await db.chatMessage.count({ where: { team_id: team.id } });
    const again = await startStandup(team.admin.actor, id, { skipAskedWithinMs: 60_000 }, db, now);
    expect(again.asked).toEqual([a.id, b.id].sort((x, y) => x - y));
    const askedAtC = await db.occurrenceMember.findUniqueOrThrow({
      where: { occurrence_id_user_id: { occurrence_id: first.occurrenceId, user_id: c.id } },
      select: { asked_at: true },
    });
    expect(askedAtC.asked_at?.getTime()).toBe(t0.getTime());
    expect(await db.chatMessage.count({ where: { team_id: team.id } })).toBeGreaterThan(messagesBefore);

    // Just asked (a second ago): a second Ask now for everyone asks nobody.
    const soon = new Date(now.getTime() + 1000);
    expect((await startStandup(team.admin.actor, id, { skipAskedWithinMs: 60_000 }, db, soon)).asked).toEqual([]);
    // Chosen members (no coalescing) are asked as chosen.
    expect((await startStandup(team.admin.actor, id, { users: [c.chat_id] }, db, soon)).asked).toEqual([c.id]);
  });
});
