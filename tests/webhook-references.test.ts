/**
 * Webhook events as references (issue 51): the writes record `{type, resource kind, resource id}`
 * and the event time; the delivery renders `data` with the v2 serializers at its first attempt and
 * stores the payload (lib/api/v2/webhook-data.ts), so a retry resends the same bytes. Attempts run
 * one by one through `sendWebhookDelivery` (no worker) to a local receiver that verifies every
 * Standard Webhooks signature, so a test can change the report between the write and the first
 * attempt, or between two attempts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { serializePollV2 } from "@/lib/api/v2/polls";
import { serializeReportV2 } from "@/lib/api/v2/reports";
import { INCLUDE_VALUES } from "@/lib/api/v2/standups";
import { sendWebhookDelivery } from "@/lib/chat/webhooks";
import { db } from "@/lib/db";
import { createPoll, getPoll } from "@/lib/domain/polls";
import { discardReport, loadReportView, submitReport, updateReportAnswers } from "@/lib/domain/report-writes";
import { createWebhook } from "@/lib/domain/webhooks";
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";
import { createTestCheckin, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

process.env.WEBHOOKS_ALLOW_PRIVATE = "true";

let team: TestTeam;
let receiver: WebhookReceiver;

const attempt = (deliveryId: number) => sendWebhookDelivery(db, deliveryId, { retryDelays: [1, 1], allowPrivate: true });

/** The first answer of the report a received webhook carries. */
const firstAnswer = (x: ReceivedWebhook | undefined) => (x?.payload?.data.answers as Array<{ answer: string }> | undefined)?.[0]?.answer;

/** The one delivery of `type` about report/poll `id` (a reference until its first attempt). */
async function deliveryOf(type: string, id: number) {
  const resource_kind = type.startsWith("poll.") ? "poll" : "report";
  const rows = await db.webhookDelivery.findMany({ where: { team_id: team.id, event_type: type, resource_kind, resource_id: id } });
  expect(rows).toHaveLength(1);
  return rows[0];
}

beforeAll(async () => {
  await useIsolatedDatabase("webhookref");
  team = await createTestTeam({ members: 3 });
  receiver = await startWebhookReceiver();
  const events = ["report.submitted", "report.updated", "report.deleted", "poll.created"] as const;
  const { secret } = await createWebhook(team.admin.actor, { url: receiver.url, events: [...events] });
  receiver.setSecret(secret);
  return () => receiver.close();
});

async function submit(user: TestUser, standup: { id: number; questions: Array<{ id: number }> }, text: string) {
  return submitReport(user.actor, { standupId: standup.id, answers: standup.questions.map((q) => ({ questionId: q.id, text })) });
}

describe("webhook events as references (issue 51)", () => {
  it("writes a reference in the transaction and renders data as the report is at the first attempt", async () => {
    const [, m0] = team.users;
    const standup = await createTestCheckin(team, { name: "First send", members: [m0] });
    const { reportId, submittedAt } = await submit(m0, standup, "as written");
    const written = await deliveryOf("report.submitted", reportId);
    expect(written).toMatchObject({ resource_kind: "report", resource_id: reportId, payload: null, state: "pending" });
    // Changed after the write, before the first attempt: the first attempt sends the changed report.
    await updateReportAnswers(m0.actor, { reportId, answers: [{ questionId: standup.questions[0].id, text: "changed before the send" }] });
    expect(await attempt(written.id)).toMatchObject({ result: "delivered" });
    const got = receiver.received.filter((x) => x.id === written.message_id);
    expect(got).toHaveLength(1);
    expect(got[0].verified).toBe(true);
    expect(got[0].payload?.type).toBe("report.submitted");
    // The event time is the write's, not the attempt's.
    expect(got[0].payload?.timestamp).toBe(written.created_at.toISOString());
    expect(Math.abs(written.created_at.getTime() - submittedAt.getTime())).toBeLessThan(1000);
    expect(got[0].payload?.data).toStrictEqual(serializeReportV2(await loadReportView(reportId)));
    expect(firstAnswer(got[0])).toBe("changed before the send");
  });

  it("a retry resends the first attempt's bytes, signed, although the report changed in between", async () => {
    const [, , m1] = team.users;
    const standup = await createTestCheckin(team, { name: "Retry bytes", members: [m1] });
    const { reportId } = await submit(m1, standup, "first attempt text");
    const d = await deliveryOf("report.submitted", reportId);
    receiver.respondWith([500]);
    expect(await attempt(d.id)).toMatchObject({ result: "retry" });
    const stored = (await db.webhookDelivery.findUniqueOrThrow({ where: { id: d.id } })).payload;
    await updateReportAnswers(m1.actor, { reportId, answers: [{ questionId: standup.questions[0].id, text: "changed between attempts" }] });
    await db.checkin.update({ where: { id: standup.id }, data: { name: "Retry bytes, renamed" } });
    expect(await attempt(d.id)).toMatchObject({ result: "delivered" });
    const [first, second] = receiver.received.filter((x) => x.id === d.message_id);
    expect([first.status, second.status]).toEqual([500, 200]);
    expect(first.verified && second.verified).toBe(true);
    expect(second.body).toBe(first.body);
    expect(second.payload?.data).toMatchObject({ standup_name: "Retry bytes" });
    expect(firstAnswer(second)).toBe("first attempt text");
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: d.id } })).payload).toStrictEqual(stored);
  });

  it("report.deleted delivers the report as it was before the discard", async () => {
    const [, , , m2] = team.users;
    const standup = await createTestCheckin(team, { name: "Discarded", members: [m2] });
    const { reportId, view } = await submit(m2, standup, "soon gone");
    const before = serializeReportV2(view);
    await discardReport(m2.actor, { reportId });
    expect(await db.report.findUniqueOrThrow({ where: { id: reportId } })).toMatchObject({ status: "discarded" });
    const d = await deliveryOf("report.deleted", reportId);
    expect(d.payload).toBeNull();
    expect(await attempt(d.id)).toMatchObject({ result: "delivered" });
    const got = receiver.received.find((x) => x.id === d.message_id);
    expect(got?.verified).toBe(true);
    expect(got?.payload?.type).toBe("report.deleted");
    expect(got?.payload?.data).toStrictEqual(before);
  });

  it("emits nothing for an anonymous report held below k; at k, references that render the anonymous reports", async () => {
    const [, m0, m1, m2] = team.users;
    const standup = await createTestCheckin(team, { name: "Held", members: [m0, m1, m2], is_anonymous: true });
    const r0 = await submit(m0, standup, "held zero");
    await updateReportAnswers(m0.actor, {
      reportId: r0.reportId,
      answers: [{ questionId: standup.questions[0].id, text: "held, edited" }],
    });
    const r1 = await submit(m1, standup, "held one");
    const held = [r0.reportId, r1.reportId];
    expect(await db.webhookDelivery.count({ where: { team_id: team.id, resource_kind: "report", resource_id: { in: held } } })).toBe(0);
    const r2 = await submit(m2, standup, "reaches k");
    const ids = [...held, r2.reportId];
    const rows = await db.webhookDelivery.findMany({
      where: { team_id: team.id, resource_kind: "report", resource_id: { in: ids } },
      orderBy: { id: "asc" },
    });
    expect(rows.map((r) => r.event_type)).toEqual(["report.submitted", "report.submitted", "report.submitted"]);
    expect(rows.map((r) => r.resource_id).sort()).toEqual([...ids].sort());
    expect(rows.every((r) => r.resource_kind === "report" && r.payload === null)).toBe(true);
    for (const r of rows) expect(await attempt(r.id)).toMatchObject({ result: "delivered" });
    const sent = receiver.received.filter((x) => rows.some((r) => r.message_id === x.id));
    expect(sent.map((x) => x.payload?.data).every((data) => data?.user_id === null && data?.is_anonymous === true)).toBe(true);
    const r0Sent = sent.find((x) => x.payload?.data.id === r0.reportId);
    expect(firstAnswer(r0Sent)).toBe("held, edited");
  });

  it("poll.created renders the v2 poll, questions and member fields included", async () => {
    const { id } = await createPoll(team.admin.actor, {
      name: "Lunch",
      question: "Where?",
      choices: ["Pizza", "Sushi"],
      broadcastChannel: team.channels[0].name,
    });
    const d = await deliveryOf("poll.created", id);
    expect(d).toMatchObject({ resource_kind: "poll", payload: null });
    expect(await attempt(d.id)).toMatchObject({ result: "delivered" });
    const got = receiver.received.find((x) => x.id === d.message_id);
    expect(got?.verified).toBe(true);
    const poll = await getPoll(team.admin.actor, id, { withQuestions: true });
    expect(got?.payload?.data).toStrictEqual(serializePollV2(poll, new Set(INCLUDE_VALUES)));
  });

  it("fails, without counting against the endpoint, a delivery whose report was deleted before its first attempt", async () => {
    const [, m0] = team.users;
    const standup = await createTestCheckin(team, { name: "Gone", members: [m0] });
    const { reportId } = await submit(m0, standup, "erased soon");
    const d = await deliveryOf("report.submitted", reportId);
    await db.report.delete({ where: { id: reportId } });
    expect(await attempt(d.id)).toEqual({ result: "failed", error: `the report ${reportId} no longer exists` });
    expect(receiver.received.filter((x) => x.id === d.message_id)).toHaveLength(0);
    const endpoint = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: d.endpoint_id } });
    expect(endpoint.consecutive_failures).toBe(0);
  });
});
