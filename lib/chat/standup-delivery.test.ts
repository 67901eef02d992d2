/**
 * The standup page's delivery section (issue 9 "Delivery state is visible"), against the real test
 * database without a worker: `listStandupDeliveries` lists a manual run's questions and a report
 * broadcast per occurrence with state, adapter and error; `retryFailedMessage` (the Channels
 * page's retry) lets the standup's creator retry its failed messages, not another member.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { retryFailedMessage } from "@/lib/chat/retry";
import { listStandupDeliveries } from "@/lib/chat/standup-delivery";
import { db } from "@/lib/db";
import { startStandup } from "@/lib/domain/occurrences";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";
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
