/**
 * The standup page's delivery section (issue 9 "Delivery state is visible"), against the real test
 * database without a worker: `listStandupDeliveries` lists a manual run's questions and a report
 * broadcast per occurrence with state, adapter and error; `retryFailedMessage` (the Channels
 * page's retry) lets the standup's creator retry its failed messages, not another member.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { retryFailedMessage } from "@/lib/chat/retry";
import { DELIVERIES_PER_PAGE, listStandupDeliveries, listStandupDeliveryPage } from "@/lib/chat/standup-delivery";
import { db } from "@/lib/db";
import { listOccurrenceStatuses } from "@/lib/domain/occurrence-status";
import { startStandup } from "@/lib/domain/occurrences";
import { createTestCheckin, createTestOccurrence, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { submitEveryAnswer } from "@/tests/standup-fixtures";

let team: TestTeam;

beforeAll(async () => {
  team = await createTestTeam({ members: 3 });
});

describe("delivery state of a standup", () => {
  it("lists questions and broadcasts of the latest occurrence; the creator retries a failed one", async () => {
    const creator = team.users[1];
    const standup = await createTestCheckin(team, { owner: creator, days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] });
    const { occurrenceId, asked } = await startStandup(creator.actor, standup.id);
    expect(asked.length).toBeGreaterThan(0);
    const { reportId } = await submitEveryAnswer(team.users[2].actor, standup, "done");
    const broadcast = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId, kind: "report" } });
    const question = await db.chatMessage.findFirstOrThrow({ where: { occurrence_id: occurrenceId, kind: "question" } });
    // what a delivery job records: one question delivered through Slack, the broadcast failed
    await db.chatMessage.update({
      where: { id: question.id },
      data: { delivery_state: "delivered", delivered_via: "slack", delivered_at: new Date() },
    });
    await db.chatMessage.update({
      where: { id: broadcast.id },
      data: { delivery_state: "failed", delivery_error: "Slack chat.postMessage: channel_not_found" },
    });

    const [latest] = await listStandupDeliveries(team.users[3].actor, { standupId: standup.id });
    expect(latest.occurrenceId).toBe(occurrenceId);
    expect(latest.messages).toHaveLength(asked.length + 1);
    expect(latest.messages[0]).toMatchObject({
      id: broadcast.id,
      kind: "report",
      to: `#${team.channels[0].name}`,
      state: "failed",
      error: "Slack chat.postMessage: channel_not_found",
    });
    const q = latest.messages.find((m) => m.id === question.id);
    expect(q).toMatchObject({ kind: "question", state: "delivered", via: "slack" });
    expect(latest.messages.filter((m) => m.kind === "question").every((m) => m.to !== "—")).toBe(true);

    await expect(retryFailedMessage(team.users[3].actor, broadcast.id)).rejects.toThrow(/not found/);
    await retryFailedMessage(creator.actor, broadcast.id);
    const retried = await db.chatMessage.findUniqueOrThrow({ where: { id: broadcast.id } });
    expect([retried.delivery_state, retried.delivery_attempts, retried.delivery_error]).toEqual(["pending", 0, null]);
    // only failed messages go back
    await expect(retryFailedMessage(team.admin.actor, broadcast.id)).rejects.toThrow(/not found/);
  });

  it("answers not found for a standup the actor cannot read", async () => {
    const other = await createTestTeam({ members: 1 });
    const standup = await createTestCheckin(team);
    await expect(listStandupDeliveries(other.admin.actor, { standupId: standup.id })).rejects.toThrow(/not found/i);
  });
});

describe("the standup page's delivery list does not grow with the history (issue 49)", () => {
  it("pages the messages newest first, DELIVERIES_PER_PAGE at a time, and the runs stay at the latest 3", async () => {
    const standup = await createTestCheckin(team);
    const other = await createTestCheckin(team);
    const members = team.users.slice(0, 3);
    // 12 runs of 6 messages each: 72 messages, more than three pages
    const dates = Array.from({ length: 12 }, (_, i) => `2026-0${1 + Math.floor(i / 6)}-${String(10 + (i % 6)).padStart(2, "0")}`);
    const runs: Array<{ id: number; date: Date }> = [];
    for (const date of dates) runs.push(await createTestOccurrence(standup, date, members));
    const stray = await createTestOccurrence(other, dates[0], members);
    const tag = `h49-${standup.id}`;
    const row = (occurrenceId: number, checkinId: number, i: number) => ({
      team_id: team.id,
      ts: `${tag}-${checkinId}-${occurrenceId}-${i}`,
      kind: i % 2 === 0 ? ("question" as const) : ("reminder" as const),
      text: "q",
      checkin_id: checkinId,
      occurrence_id: occurrenceId,
      recipient_id: members[i % members.length].id,
    });
    for (const run of runs) await db.chatMessage.createMany({ data: Array.from({ length: 6 }, (_, i) => row(run.id, standup.id, i)) });
    await db.chatMessage.createMany({ data: Array.from({ length: 6 }, (_, i) => row(stray.id, other.id, i)) });
    const all = await db.chatMessage.findMany({ where: { checkin_id: standup.id }, orderBy: { id: "desc" }, select: { id: true } });
    expect(all).toHaveLength(72);

    const seen: number[] = [];
    let before: number | undefined;
    let pages = 0;
    do {
      const page = await listStandupDeliveryPage(team.admin.actor, { standupId: standup.id, before });
      const ids = page.occurrences.flatMap((o) => o.messages.map((m) => m.id));
      expect(ids.length).toBeLessThanOrEqual(DELIVERIES_PER_PAGE);
      // the page is the next DELIVERIES_PER_PAGE messages, newest first, grouped by run
      expect([...ids].sort((a, b) => b - a)).toEqual(all.slice(seen.length, seen.length + ids.length).map((m) => m.id));
      expect(page.occurrences.every((o) => runs.some((r) => r.id === o.occurrenceId && r.date.toISOString().startsWith(o.date)))).toBe(
        true,
      );
      seen.push(...ids);
      before = page.nextBefore ?? undefined;
      pages++;
    } while (before !== undefined);
    expect(pages).toBe(Math.ceil(72 / DELIVERIES_PER_PAGE));
    expect(seen).toHaveLength(72);
    const first = await listStandupDeliveryPage(team.admin.actor, { standupId: standup.id });
    expect(first.occurrences.flatMap((o) => o.messages)).toHaveLength(DELIVERIES_PER_PAGE);
    expect(first.occurrences[0].occurrenceId).toBe(runs.at(-1)?.id);

    // the other lists of the page stay bounded too: the latest three runs
    const statuses = await listOccurrenceStatuses(team.admin.actor, { standupId: standup.id, limit: 3 });
    expect(statuses.map((o) => o.occurrenceId)).toEqual(
      runs
        .slice(-3)
        .reverse()
        .map((r) => r.id),
    );
    await expect(listStandupDeliveryPage((await createTestTeam({ members: 1 })).admin.actor, { standupId: standup.id })).rejects.toThrow(
      /not found/i,
    );
  });
});
