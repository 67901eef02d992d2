/**
 * Chat delivery end to end inside one process: real PostgreSQL (a database of this file's own),
 * the real graphile-worker runner with the delivery tasks, and the fake Slack Web API on
 * 127.0.0.1. Writes go through the same domain functions as the API (scheduler, submitReport,
 * updateReportAnswers, discardReport); the assertions read what the fake Slack received.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryConfig } from "@/lib/chat/config";
import { createDeliveryDeps } from "@/lib/chat/delivery";
import { drainDestination, MAX_DELIVERY_ATTEMPTS } from "@/lib/chat/destination-drain";
import { retryFailedMessage } from "@/lib/chat/retry";
import { db } from "@/lib/db";
import { WEEKDAYS } from "@/lib/domain/constants";
import { broadcastPollRun } from "@/lib/domain/outbox-polls";
import { discardReport, submitReport, updateReportAnswers } from "@/lib/domain/report-writes";
import { runDueOccurrences } from "@/lib/domain/scheduler";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import type { FakeSlack } from "@/tests/fakes/slack";
import { startFakeSlackForTeam } from "@/tests/fakes/slack-env";
import { createTestCheckin, createTestOccurrence, createTestTeam, dispatchJobOutbox, type TestTeam, unqueueJobs } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";
import { submitEveryAnswer } from "@/tests/standup-fixtures";

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

/** Submits a report of team.users[1] to `standup`, every answer `text`. @returns its broadcast row. */
async function submitBroadcast(standup: Awaited<ReturnType<typeof createTestCheckin>>, text: string) {
  const { reportId } = await submitReport(team.users[1].actor, {
    standupId: standup.id,
    answers: standup.questions.map((q) => ({ questionId: q.id, text })),
  });
  return db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
}

function startDeliveryWorker(): Promise<JobWorker> {
  return startWorker({ connectionString: process.env.DATABASE_URL as string, log: (l) => logs.push(l), crontab: "", delivery: config() });
}

/** Runs `fn` with the worker stopped (writes wait in the job outbox), then starts it again; `onStart` sees the new worker before it runs anything queued. */
async function withWorkerStopped<T>(fn: () => Promise<T>, onStart?: (w: JobWorker) => void): Promise<T> {
  await worker.stop();
  try {
    return await fn();
  } finally {
    worker = await startDeliveryWorker();
    onStart?.(worker);
  }
}

beforeAll(async () => {
  await useIsolatedDatabase("delivery");
  team = await createTestTeam({ members: 3 });
  teamChatId = (await db.team.findUniqueOrThrow({ where: { id: team.id } })).chat_id;
  fake = await startFakeSlackForTeam(team);
  worker = await startDeliveryWorker();
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

  it("plain text reaches Slack escaped for mrkdwn: an answer with < > & reads as typed, *bold* stays formatting", async () => {
    const standup = await createTestCheckin(team, { name: "Escapes" });
    const answers = standup.questions.map((q) => ({ questionId: q.id, text: `x${q.position} < y & <script> *done*` }));
    const { reportId } = await submitReport(team.users[2].actor, { standupId: standup.id, answers });
    const channel = team.channels[0].chat_id;
    await fake.waitFor(() => fake.messagesIn(channel).some((m) => m.text.includes("x0 ")), 15_000, "report post");
    const posted = fake.messagesIn(channel).find((m) => m.text.includes("x0 "));
    expect(posted?.text).toContain("x0 &lt; y &amp; &lt;script&gt; *done*");
    // The stored text (the built-in feed's, rendered there) stays as typed.
    expect((await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } })).text).toContain("x0 < y & <script> *done*");
  });

  it("a poll's closing time reaches Slack as a date token (each reader's own time), the zone-named time as its fallback", async () => {
    const poll = await createTestCheckin(team, {
      kind: "poll",
      name: "Slack dates",
      timezone: "Europe/Berlin",
      questions: [{ text: "Lunch?", choices: ["Pizza", "Sushi"] }],
    });
    const occ = await createTestOccurrence(poll, "2030-11-29", team.users);
    const closes = new Date("2030-11-30T09:15:00Z");
    await db.occurrence.update({ where: { id: occ.id }, data: { closes_at: closes } });
    await db.$transaction((tx) => broadcastPollRun(tx, { pollId: poll.id, occurrenceId: occ.id }));
    const stored = await db.chatMessage.findFirstOrThrow({ where: { checkin_id: poll.id, kind: "poll" } });
    expect(stored.text).toBe("Poll: Slack dates\nLunch?\n1. Pizza\n2. Sushi\nVoting closes Sat 30 Nov, 10:15 Europe/Berlin");
    const channel = team.channels[0].chat_id;
    await fake.waitFor(() => fake.messagesIn(channel).some((m) => m.text.startsWith("Poll: Slack dates")), 15_000, "poll post");
    const posted = fake.messagesIn(channel).find((m) => m.text.startsWith("Poll: Slack dates"));
    expect(posted?.text.split("\n").at(-1)).toBe(
      `Voting closes <!date^${closes.getTime() / 1000}^{date_short_pretty} at {time}|Sat 30 Nov, 10:15 Europe/Berlin>`,
    );
  });

  it("an edit that lands while the message is being sent, with the same text, still ends delivered; it sends nothing more", async () => {
    // Until 6d0f15b such an edit left the row pending with no change the trigger acts on (same
    // text, already pending), the send in flight did not mark the changed row delivered, and with a
    // job per message the row stayed pending with no job left. Now the edit touches nothing, and a
    // destination's job delivers whatever is pending.
    const standup = await createTestCheckin(team, { name: "Edited in flight" });
    const author = team.users[1];
    const { reportId } = await submitEveryAnswer(author.actor, standup, "in flight v1");
    const row = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
    const posted = await waitForState(row.id, "delivered");
    const updates = () => fake.callsOf("chat.update").filter((c) => c.args.ts === posted.external_ts).length;
    const before = updates();
    fake.setDelay("chat.update", 1_000);
    try {
      const edit = () =>
        updateReportAnswers(author.actor, { reportId, answers: [{ questionId: standup.questions[0].id, text: "in flight v2" }] });
      await edit();
      await fake.waitFor(() => updates() === before + 1, 10_000, "chat.update in flight");
      await edit();
    } finally {
      fake.setDelay("chat.update", 0);
    }
    const delivered = await waitForState(row.id, "delivered");
    expect(delivered.text).toContain("in flight v2");
    expect(updates()).toBe(before + 1);
  });

  it("delivers a backlog in one channel in order, without a poll interval (2 s) between its messages", async () => {
    // Not run today: every report goes into today's ad-hoc occurrence, so one member can post many.
    const standup = await createTestCheckin(team, { name: "Backlog", days: [WEEKDAYS[(new Date().getUTCDay() + 3) % 7]] });
    const channel = team.channels[0].chat_id;
    const author = team.users[1];
    const texts = Array.from({ length: 24 }, (_, i) => `backlog item ${String(i).padStart(2, "0")}`);
    const started = Date.now();
    for (const text of texts) {
      await submitEveryAnswer(author.actor, standup, text);
    }
    const posted = () => fake.messagesIn(channel).filter((m) => m.text.includes("backlog item"));
    await fake.waitFor(() => posted().length === texts.length, 30_000, "the whole backlog");
    // One queue per channel runs its messages one at a time, in order. Waiting a poll interval
    // after each would take about 24 s (graphile-worker looks for the next job before the last
    // one's completion unlocks the queue; lib/jobs/worker.ts nudgeAfterQueuedJobs).
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(posted().map((m) => m.text.match(/backlog item \d+/)?.[0])).toEqual(texts);
  });

  it("waits out a 429 for its Retry-After and then posts once; the channel's next message waits too", async () => {
    const standup = await createTestCheckin(team, { name: "Rate limited" });
    fake.failNext("chat.postMessage", { retryAfter: 1 });
    const started = Date.now();
    const rows = [];
    for (const text of ["limited", "limited too"]) {
      const { reportId } = await submitReport(team.users[2].actor, {
        standupId: standup.id,
        answers: standup.questions.map((q) => ({ questionId: q.id, text })),
      });
      rows.push(await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } }));
    }
    for (const row of rows) await waitForState(row.id, "delivered");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const calls = (ts: string) =>
      fake.callsOf("chat.postMessage").filter((c) => (c.args.metadata as { event_payload?: { ts?: string } })?.event_payload?.ts === ts);
    const [first, second] = rows.map((r) => calls(r.ts));
    expect(first.map((c) => c.status)).toEqual([429, 200]);
    expect(second.map((c) => c.status)).toEqual([200]);
    expect(second[0].at - first[0].at).toBeGreaterThanOrEqual(1000);
    expect(second[0].at).toBeGreaterThanOrEqual(first[1].at);
  });

  it("an edit and a removal before delivery collapse: nothing reaches Slack", async () => {
    const standup = await createTestCheckin(team, { name: "Collapsed" });
    const row = await withWorkerStopped(async () => {
      const author = team.users[1];
      const { reportId } = await submitEveryAnswer(author.actor, standup, "never seen");
      await updateReportAnswers(author.actor, { reportId, answers: [{ questionId: standup.questions[0].id, text: "still never seen" }] });
      await discardReport(author.actor, { reportId });
      const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
      // Three writes, three outbox rows for the channel's one job key: handed over, they are one job.
      const key = `chat_destination:c${message.channel_id}`;
      const outbox = await db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM job_outbox WHERE job_key = ${key}`;
      expect(outbox[0].n).toBe(3);
      await dispatchJobOutbox();
      const jobs = await db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${key}`;
      expect(jobs[0].n).toBe(1);
      return message;
    });
    await waitForState(row.id, "delivered");
    expect(fake.messages.filter((m) => m.text.includes("never seen"))).toEqual([]);
  });

  it("a backlog queued while no worker runs is one job that delivers it in order", async () => {
    const standup = await createTestCheckin(team, { name: "Queued backlog", days: [WEEKDAYS[(new Date().getUTCDay() + 3) % 7]] });
    const texts = Array.from({ length: 20 }, (_, i) => `queued item ${String(i).padStart(2, "0")}`);
    const starts: string[] = [];
    await withWorkerStopped(
      async () => {
        for (const text of texts)
          await submitReport(team.users[1].actor, {
            standupId: standup.id,
            answers: standup.questions.map((q) => ({ questionId: q.id, text })),
          });
      },
      (w) => w.runner.events.on("job:start", ({ job }) => starts.push(job.task_identifier)),
    );
    const channel = team.channels[0].chat_id;
    const posted = () => fake.messagesIn(channel).filter((m) => m.text.includes("queued item"));
    await fake.waitFor(() => posted().length === texts.length, 15_000, "the queued backlog");
    expect(posted().map((m) => m.text.match(/queued item \d+/)?.[0])).toEqual(texts);
    expect(starts.filter((t) => t === "deliver_chat_destination")).toEqual(["deliver_chat_destination"]);
  });

  it("a Retry-After longer than the adapter waits in place holds the whole channel until then", async () => {
    const standup = await createTestCheckin(team, { name: "Held" });
    fake.failNext("chat.postMessage", { retryAfter: 45 });
    const submit = (text: string) => submitBroadcast(standup, text);
    const first = await submit("held first");
    const key = `chat_destination:c${first.channel_id}`;
    const job = async () =>
      (await db.$queryRaw<Array<{ id: bigint; run_at: Date }>>`SELECT id, run_at FROM graphile_worker.jobs WHERE key = ${key}`)[0];
    const deadline = Date.now() + 10_000;
    while (!((await job())?.run_at.getTime() > Date.now() + 30_000) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await job()).run_at.getTime()).toBeGreaterThan(Date.now() + 30_000);
    const second = await submit("held second");
    await new Promise((r) => setTimeout(r, 1_500));
    const states = await db.chatMessage.findMany({ where: { id: { in: [first.id, second.id] } }, orderBy: { id: "asc" } });
    expect(states.map((m) => [m.delivery_state, m.delivery_failures])).toEqual([
      ["pending", 0],
      ["pending", 0],
    ]);
    expect(states[0].delivery_error).toContain("Retry-After 45");
    // A new message did not pull the held job forward (preserve_run_at).
    expect((await job()).run_at.getTime()).toBeGreaterThan(Date.now() + 30_000);
    await db.$executeRaw`SELECT graphile_worker.reschedule_jobs(ARRAY[${(await job()).id}]::bigint[], run_at := now())`;
    for (const m of [first, second]) await waitForState(m.id, "delivered");
    const posted = fake.messagesIn(team.channels[0].chat_id).filter((m) => m.text.includes("held "));
    expect(posted.map((m) => m.text.match(/held \w+/)?.[0])).toEqual(["held first", "held second"]);
  });

  it("a transient error makes one message wait its backoff while the channel's next message goes out", async () => {
    const standup = await createTestCheckin(team, { name: "Flaky" });
    // An error Slack may answer for a passing fault (the SDK itself retries HTTP 5xx and waits out short rate limits).
    fake.failNext("chat.postMessage", { error: "fatal_error" });
    const submit = (text: string) => submitBroadcast(standup, text);
    const first = await submit("flaky first");
    const second = await submit("flaky second");
    await waitForState(second.id, "delivered");
    const waiting = await db.chatMessage.findUniqueOrThrow({ where: { id: first.id } });
    expect(waiting).toMatchObject({
      delivery_state: "pending",
      delivery_failures: 1,
      delivery_error: expect.stringContaining("fatal_error"),
    });
    expect(waiting.delivery_retry_at?.getTime()).toBeGreaterThan(Date.now());
    await waitForState(first.id, "delivered");
    const calls = (ts: string) =>
      fake.callsOf("chat.postMessage").filter((c) => (c.args.metadata as { event_payload?: { ts?: string } })?.event_payload?.ts === ts);
    expect(calls(first.ts)).toHaveLength(2);
    // e^1 ≈ 2.7 s of backoff, counted from the failed attempt.
    expect(calls(first.ts)[1].at - calls(first.ts)[0].at).toBeGreaterThanOrEqual(2_500);
    expect(calls(second.ts)[0].at).toBeLessThan(calls(first.ts)[1].at);
  });

  it("the 10th failed run of a message marks it failed; the drain goes on with the next one", async () => {
    const standup = await createTestCheckin(team, { name: "Tenth" });
    const deps = createDeliveryDeps(config(), (l) => logs.push(l), db);
    await withWorkerStopped(async () => {
      const ids: number[] = [];
      for (const text of ["tenth first", "tenth second"]) {
        const { reportId } = await submitReport(team.users[1].actor, {
          standupId: standup.id,
          answers: standup.questions.map((q) => ({ questionId: q.id, text })),
        });
        ids.push((await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } })).id);
      }
      await db.$executeRaw`UPDATE chat_messages SET delivery_failures = ${MAX_DELIVERY_ATTEMPTS - 1} WHERE id = ${ids[0]}`;
      fake.failNext("chat.postMessage", { error: "fatal_error" });
      const channelId = team.channels[0].id;
      expect(await drainDestination(deps, `x${channelId}`)).toEqual({ delivered: 0, failed: 0, next: null });
      expect(await drainDestination(deps, `c${channelId}`)).toEqual({ delivered: 1, failed: 1, next: null });
      const rows = await db.chatMessage.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
      expect(rows.map((m) => [m.delivery_state, m.delivery_error])).toEqual([
        ["failed", "Slack chat.postMessage: fatal_error"],
        ["delivered", null],
      ]);
    });
  });

  it("a job queued before the upgrade (deliver_chat_message) still delivers its message", async () => {
    const standup = await createTestCheckin(team, { name: "Legacy job" });
    const row = await withWorkerStopped(async () => {
      const { reportId } = await submitEveryAnswer(team.users[2].actor, standup, "legacy job");
      const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
      await unqueueJobs([`chat_destination:c${message.channel_id}`]);
      await db.$executeRaw`SELECT graphile_worker.add_job('deliver_chat_message', json_build_object('messageId', ${message.id}::int),
        queue_name := ${`chat:c${message.channel_id}`}, max_attempts := 10, job_key := ${`chat_message:${message.id}`})`;
      return message;
    });
    await waitForState(row.id, "delivered");
    expect(fake.messages.filter((m) => m.text.includes("legacy job"))).toHaveLength(1);
  });

  it("marks a message failed with Slack's reason when the channel is unknown", async () => {
    const ghost = await db.channel.create({ data: { team_id: team.id, chat_id: "C0GHOST01", name: "ghost" } });
    const standup = await createTestCheckin(team, { name: "Ghost", channel: { id: ghost.id, chat_id: ghost.chat_id, name: ghost.name } });
    const { reportId } = await submitEveryAnswer(team.users[1].actor, standup, "into the void");
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
    const standup = await createTestCheckin(team, { name: "Threaded", days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] });
    await db.checkin.update({ where: { id: standup.id }, data: { broadcast_thread: true } });
    const ids: number[] = [];
    for (const u of team.users.slice(1, 3)) {
      const { reportId } = await submitEveryAnswer(u.actor, standup, `threaded ${u.id}`);
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
