/**
 * Chat delivery end to end inside one process: real PostgreSQL (a database of this file's own),
 * the real graphile-worker runner with the delivery tasks, and the fake Slack Web API on
 * 127.0.0.1. Writes go through the same domain functions as the API (scheduler, submitReport,
 * updateReportAnswers, discardReport); the assertions read what the fake Slack received.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryConfig } from "@/lib/chat/config";
import { retryFailedMessage } from "@/lib/chat/retry";
import { db } from "@/lib/db";
import { WEEKDAYS } from "@/lib/domain/constants";
import { discardReport, submitReport, updateReportAnswers } from "@/lib/domain/report-writes";
import { runDueOccurrences } from "@/lib/domain/scheduler";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { type FakeSlack, startFakeSlack } from "@/tests/fakes/slack";
import { createTestCheckin, createTestTeam, dispatchJobOutbox, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

let fake: FakeSlack;
let worker: JobWorker;
let team: TestTeam;
const logs: string[] = [];

function config(): DeliveryConfig {
  return {
    slack: { token: fake.token, apiUrl: fake.apiUrl, team: String(teamChatId) },
    smtp: null,
    publicUrl: "http://localhost:3201",
    linkSecret: "test-link-secret",
    webhookRetryDelays: [1],
    webhooksAllowPrivate: true,
  };
}
let teamChatId = "";

async function waitForState(id: number, state: "delivered" | "failed", timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = await db.chatMessage.findUniqueOrThrow({ where: { id } });
    if (m.delivery_state === state) return m;
    if (Date.now() > deadline) throw new Error(`message ${id} still ${m.delivery_state} (${m.delivery_error ?? "no error"})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  await useIsolatedDatabase("delivery");
  team = await createTestTeam({ members: 3 });
  teamChatId = (await db.team.findUniqueOrThrow({ where: { id: team.id } })).chat_id;
  const [general, eng] = team.channels;
  fake = await startFakeSlack({
    users: team.users.map((u) => ({ id: u.chat_id, name: u.username, real_name: u.realname, email: u.email })),
    channels: [
      { id: general.chat_id, name: general.name, members: team.users.map((u) => u.chat_id) },
      { id: eng.chat_id, name: eng.name, members: [] },
    ],
  });
  worker = await startWorker({
    connectionString: process.env.DATABASE_URL as string,
    log: (l) => logs.push(l),
    crontab: "",
    delivery: config(),
  });
});

afterAll(async () => {
  await worker?.stop();
  await fake?.close();
});

describe("delivery to Slack", () => {
  it("a scheduled run DMs every asked member with an Answer button", async () => {
    // Slot 00:00 UTC: already past at any time of day, so the run asks at once (it asks at slot + wait_time).
    const standup = await createTestCheckin(team, { days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], time: "00:00:00" });
    await db.checkin.update({ where: { id: standup.id }, data: { next_run_at: new Date(Date.now() - 60_000) } });
    const run = await runDueOccurrences(new Date());
    expect(run.created.length).toBeGreaterThanOrEqual(1);
    const dms = () => fake.messages.filter((m) => m.channel.startsWith("D") && m.text.includes(standup.questions[0].text));
    await fake.waitFor(() => dms().length === team.users.length, 20_000, "one DM per member");
    expect(new Set(dms().map((m) => m.channel))).toEqual(new Set(team.users.map((u) => fake.dmChannelOf(u.chat_id))));
    const blocks = JSON.stringify(dms()[0].blocks);
    expect(blocks).toContain("open_report_form");
    const rows = await db.chatMessage.findMany({ where: { checkin_id: standup.id, kind: "question" } });
    for (const r of rows) {
      const m = await waitForState(r.id, "delivered");
      expect(m.delivered_via).toBe("slack");
      expect(m.external_channel).toMatch(/^D/);
    }
  });

  it("a report is posted, its edit calls chat.update and its removal chat.delete", async () => {
    const standup = await createTestCheckin(team, { name: "Daily" });
    const author = team.users[1];
    const answers = standup.questions.map((q) => ({ questionId: q.id, text: `first ${q.position}` }));
    const { reportId } = await submitReport(author.actor, { standupId: standup.id, answers });
    const channel = team.channels[0].chat_id;
    await fake.waitFor(() => fake.messagesIn(channel).some((m) => m.text.includes("first 0")), 15_000, "report post");
    const row = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
    const delivered = await waitForState(row.id, "delivered");
    const posted = fake.messagesIn(channel).find((m) => m.text.includes("first 0"));
    expect(delivered.external_ts).toBe(posted?.ts);
    expect(posted?.metadata?.event_payload).toEqual({ ts: row.ts });

    await updateReportAnswers(author.actor, { reportId, answers: [{ questionId: standup.questions[0].id, text: "edited answer" }] });
    await fake.waitFor(() => posted?.text.includes("edited answer") === true, 15_000, "chat.update");
    expect(fake.callsOf("chat.update").some((c) => c.args.ts === posted?.ts)).toBe(true);
    expect(posted?.text.split("\n")[0]).toMatch(/posted an update for Daily \(edited\)$/);
    expect(fake.messagesIn(channel).find((m) => m.text.includes("first 0") && m !== posted)).toBeUndefined();
    await waitForState(row.id, "delivered");

    await discardReport(author.actor, { reportId });
    await fake.waitFor(() => posted?.deleted === true, 15_000, "chat.delete");
    await waitForState(row.id, "delivered");
    expect(fake.messages.filter((m) => m.metadata?.event_payload.ts === row.ts)).toHaveLength(1);
  });

  it("delivers a backlog in one channel in order, without a poll interval (2 s) between its messages", async () => {
    // Not run today: every report goes into today's ad-hoc occurrence, so one member can post many.
    const standup = await createTestCheckin(team, { name: "Backlog", days: [WEEKDAYS[(new Date().getUTCDay() + 3) % 7]] });
    const channel = team.channels[0].chat_id;
    const author = team.users[1];
    const texts = Array.from({ length: 24 }, (_, i) => `backlog item ${String(i).padStart(2, "0")}`);
    const started = Date.now();
    for (const text of texts) {
      await submitReport(author.actor, { standupId: standup.id, answers: standup.questions.map((q) => ({ questionId: q.id, text })) });
    }
    const posted = () => fake.messagesIn(channel).filter((m) => m.text.includes("backlog item"));
    await fake.waitFor(() => posted().length === texts.length, 30_000, "the whole backlog");
    // One queue per channel runs its messages one at a time, in order. Waiting a poll interval
    // after each would take about 24 s (graphile-worker looks for the next job before the last
    // one's completion unlocks the queue; lib/jobs/worker.ts nudgeAfterQueuedJobs).
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(posted().map((m) => m.text.match(/backlog item \d+/)?.[0])).toEqual(texts);
  });

  it("waits out a 429 for its Retry-After and then posts once", async () => {
    const standup = await createTestCheckin(team, { name: "Rate limited" });
    fake.failNext("chat.postMessage", { retryAfter: 1 });
    const started = Date.now();
    const { reportId } = await submitReport(team.users[2].actor, {
      standupId: standup.id,
      answers: standup.questions.map((q) => ({ questionId: q.id, text: "limited" })),
    });
    const row = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
    await waitForState(row.id, "delivered");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const calls = fake
      .callsOf("chat.postMessage")
      .filter((c) => (c.args.metadata as { event_payload?: { ts?: string } })?.event_payload?.ts === row.ts);
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
  });

  it("an edit and a removal before delivery collapse: nothing reaches Slack", async () => {
    await worker.stop();
    let restarted = false;
    try {
      const standup = await createTestCheckin(team, { name: "Collapsed" });
      const author = team.users[1];
      const { reportId } = await submitReport(author.actor, {
        standupId: standup.id,
        answers: standup.questions.map((q) => ({ questionId: q.id, text: "never seen" })),
      });
      await updateReportAnswers(author.actor, { reportId, answers: [{ questionId: standup.questions[0].id, text: "still never seen" }] });
      await discardReport(author.actor, { reportId });
      const row = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
      // Three writes, three outbox rows for one job key: handed over, they are one job.
      const outbox = await db.$queryRaw<Array<{ n: number }>>`
        SELECT count(*)::int AS n FROM job_outbox WHERE job_key = ${`chat_message:${row.id}`}`;
      expect(outbox[0].n).toBe(3);
      await dispatchJobOutbox();
      const jobs = await db.$queryRaw<Array<{ n: number }>>`
        SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${`chat_message:${row.id}`}`;
      expect(jobs[0].n).toBe(1);
      worker = await startWorker({
        connectionString: process.env.DATABASE_URL as string,
        log: (l) => logs.push(l),
        crontab: "",
        delivery: config(),
      });
      restarted = true;
      await waitForState(row.id, "delivered");
      expect(fake.messages.filter((m) => m.text.includes("never seen"))).toEqual([]);
    } finally {
      if (!restarted)
        worker = await startWorker({
          connectionString: process.env.DATABASE_URL as string,
          log: (l) => logs.push(l),
          crontab: "",
          delivery: config(),
        });
    }
  });

  it("marks a message failed with Slack's reason when the channel is unknown", async () => {
    const ghost = await db.channel.create({ data: { team_id: team.id, chat_id: "C0GHOST01", name: "ghost" } });
    const standup = await createTestCheckin(team, { name: "Ghost", channel: { id: ghost.id, chat_id: ghost.chat_id, name: ghost.name } });
    const { reportId } = await submitReport(team.users[1].actor, {
      standupId: standup.id,
      answers: standup.questions.map((q) => ({ questionId: q.id, text: "into the void" })),
    });
    const row = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
    const failed = await waitForState(row.id, "failed");
    expect(failed.delivery_error).toContain("channel_not_found");

    // the admin fixes Slack (the bot joins the channel) and retries from the channel feed
    await expect(retryFailedMessage(team.users[1].actor, row.id)).rejects.toThrow(/not found/);
    fake.channels.push({ id: "C0GHOST01", name: "ghost", members: [] });
    await retryFailedMessage(team.admin.actor, row.id);
    const retried = await waitForState(row.id, "delivered");
    expect(retried.delivery_error).toBeNull();
    expect(fake.messagesIn("C0GHOST01").map((m) => m.text)).toEqual([expect.stringContaining("into the void")]);
  });

  it("posts the reports of a threaded standup under one parent per occurrence", async () => {
    const standup = await createTestCheckin(team, { name: "Threaded" });
    await db.checkin.update({ where: { id: standup.id }, data: { broadcast_thread: true } });
    const ids: number[] = [];
    for (const u of team.users.slice(1, 3)) {
      const { reportId } = await submitReport(u.actor, {
        standupId: standup.id,
        answers: standup.questions.map((q) => ({ questionId: q.id, text: `threaded ${u.id}` })),
      });
      ids.push((await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } })).id);
    }
    for (const id of ids) await waitForState(id, "delivered");
    const replies = fake.messages.filter((m) => m.text.includes("threaded "));
    expect(replies).toHaveLength(2);
    const parent = fake.messages.find((m) => m.text.startsWith("Threaded — "));
    expect(parent).toBeDefined();
    expect(replies.every((r) => r.thread_ts === parent?.ts)).toBe(true);
  });
});
