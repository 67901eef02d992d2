/**
 * npm run bench:delivery — delivery throughput and latency (issue 9), printed, not asserted.
 * In a throwaway embedded PostgreSQL with the fake Slack Web API on 127.0.0.1:
 *  1. throughput: BENCH_MESSAGES (default 10,000) report messages are queued over BENCH_CHANNELS
 *     channels (default 20; one delivery job per channel delivers its backlog in order), then one
 *     worker (concurrency BENCH_CONCURRENCY, default 8) delivers them; prints messages/s;
 *  2. latency: BENCH_REPORTS (default 200) reports are submitted one after another through
 *     `submitReport` (the domain call behind POST /v2/reports) with a worker running; prints the
 *     p50/p90/p99 time from the submission's commit to the fake Slack receiving chat.postMessage.
 * The fake answers at once (no rate limits), so the figures are the service's own overhead.
 */
import fs from "node:fs";
import { db, disconnectDb } from "@/lib/db";
import { submitReport } from "@/lib/domain/report-writes";
import { startWorker } from "@/lib/jobs/worker";
import { applyMigrations } from "@/lib/runtime/migrate";
import { benchNumber } from "@/scripts/lib/bench-settings";
import { startThrowawayPostgres } from "@/scripts/throwaway";
import { startFakeSlack } from "@/tests/fakes/slack";

const MESSAGES = benchNumber("BENCH_MESSAGES", 10_000);
const CHANNELS = benchNumber("BENCH_CHANNELS", 20);
const CONCURRENCY = benchNumber("BENCH_CONCURRENCY", 8);
const REPORTS = benchNumber("BENCH_REPORTS", 200);

const { dir, database } = await startThrowawayPostgres("bench-delivery");
const fake = await startFakeSlack({ channels: [] });
const stop = async () => {
  await disconnectDb().catch(() => {});
  await fake.close().catch(() => {});
  await database.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
};
process.on("SIGINT", () => void stop().finally(() => process.exit(130)));

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

try {
  process.env.DATABASE_URL = database.url;
  await applyMigrations(database.url);
  const team = await db.team.create({ data: { chat_id: "TBENCH", name: "Bench" } });
  const user = await db.user.create({
    data: {
      team_id: team.id,
      chat_id: "UBENCH1",
      username: "bench",
      realname: "Bench Person",
      firstname: "Bench",
      email: "bench@example.test",
    },
  });
  const channels: Array<{ id: number; chat_id: string }> = [];
  for (let i = 0; i < CHANNELS; i++) {
    const c = await db.channel.create({ data: { team_id: team.id, chat_id: `CBENCH${i}`, name: `bench-${i}` } });
    fake.channels.push({ id: c.chat_id, name: c.name, members: [] });
    channels.push(c);
  }
  const config = {
    slack: { token: fake.token, apiUrl: fake.apiUrl, team: "TBENCH" },
    smtp: null,
    publicUrl: "http://localhost",
    linkSecret: "bench",
    webhookRetryDelays: [5],
    webhooksAllowPrivate: true,
  };

  // 1. throughput
  const queuedAt = performance.now();
  for (let start = 0; start < MESSAGES; start += 1000) {
    await db.chatMessage.createMany({
      data: Array.from({ length: Math.min(1000, MESSAGES - start) }, (_, k) => {
        const i = start + k;
        return {
          team_id: team.id,
          ts: `1800000000.${String(i).padStart(6, "0")}`,
          kind: "report" as const,
          channel_id: channels[i % CHANNELS].id,
          text: `Bench message ${i}`,
        };
      }),
    });
  }
  const jobs = await db.$queryRaw<
    Array<{ n: number }>
  >`SELECT count(*)::int AS n FROM job_outbox WHERE task_identifier = 'deliver_chat_destination'`;
  console.log(
    `Queued ${MESSAGES} messages over ${CHANNELS} channels (${jobs[0].n} delivery jobs in the job outbox) in ${((performance.now() - queuedAt) / 1000).toFixed(1)} s`,
  );
  const worker = await startWorker({
    connectionString: database.url,
    log: () => {},
    crontab: "",
    delivery: config,
    concurrency: CONCURRENCY,
  });
  const started = performance.now();
  let delivered = 0;
  let lastPrint = 0;
  while (delivered < MESSAGES) {
    await new Promise((r) => setTimeout(r, 250));
    delivered = await db.chatMessage.count({ where: { team_id: team.id, delivery_state: "delivered" } });
    const failed = await db.chatMessage.count({ where: { team_id: team.id, delivery_state: "failed" } });
    if (failed) throw new Error(`${failed} message(s) failed`);
    if (performance.now() - lastPrint > 5000) {
      lastPrint = performance.now();
      console.log(`  ${delivered}/${MESSAGES} delivered after ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const posts = fake.callsOf("chat.postMessage").length;
  console.log(
    `Throughput: ${MESSAGES} messages delivered in ${seconds.toFixed(1)} s = ${(MESSAGES / seconds).toFixed(0)} messages/s ` +
      `(worker concurrency ${CONCURRENCY}, ${posts} chat.postMessage calls, ${posts - MESSAGES} duplicates)`,
  );

  // 2. latency
  const standup = await db.checkin.create({
    data: {
      team_id: team.id,
      kind: "standup",
      name: "Bench standup",
      owner_id: user.id,
      days: ["Mon"],
      broadcast_channel_id: channels[0].id,
      questions: { create: [{ position: 0, text: "How is it going?" }] },
      members: { create: [{ user_id: user.id }] },
    },
    include: { questions: true },
  });
  const latencies: number[] = [];
  for (let i = 0; i < REPORTS; i++) {
    const report = await db.report.findFirst({ where: { checkin_id: standup.id, status: "submitted" }, select: { id: true } });
    if (report) await db.report.update({ where: { id: report.id }, data: { status: "discarded" } }); // one report per day: make room
    const { chatTs } = await submitReport(
      { teamId: team.id, userId: user.id, userChatId: user.chat_id, isAdmin: false },
      { standupId: standup.id, answers: [{ questionId: standup.questions[0].id, text: `run ${i}` }] },
    );
    const doneAt = Date.now();
    await fake.waitFor(
      () =>
        fake.calls.some(
          (c) => c.method === "chat.postMessage" && (c.args.metadata as { event_payload?: { ts?: string } })?.event_payload?.ts === chatTs,
        ),
      30_000,
    );
    const call = fake.calls.find(
      (c) => c.method === "chat.postMessage" && (c.args.metadata as { event_payload?: { ts?: string } })?.event_payload?.ts === chatTs,
    );
    latencies.push((call?.at ?? doneAt) - doneAt);
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `Latency (report committed -> chat.postMessage on the fake), ${REPORTS} reports: ` +
      `p50 ${pct(latencies, 50)} ms, p90 ${pct(latencies, 90)} ms, p99 ${pct(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms`,
  );
  await worker.stop();
} finally {
  await stop();
}
