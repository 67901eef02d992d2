/**
 * The job outbox (issue 14; lib/jobs/outbox.ts, migration 20261125013000_job_outbox), on a
 * database of its own with no job runner: a write's jobs (a broadcast's delivery, a closed
 * occurrence's participation counts) wait in `job_outbox`, the write's commit sends no notification (the point of the outbox: a notifying commit holds PostgreSQL's one
 * notification lock through its WAL flush), and a dispatch hands each job to graphile-worker once,
 * with add_job's arguments and key semantics, in order, however many dispatchers run at once.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { updateReportAnswers } from "@/lib/domain/report-writes";
import { DISPATCH_BATCH, dispatchOutbox } from "@/lib/jobs/outbox";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";
import { submitEveryAnswer } from "@/tests/standup-fixtures";

let url: string;
let team: TestTeam;
let pool: pg.Pool;

beforeAll(async () => {
  url = await useIsolatedDatabase("outbox");
  team = await createTestTeam({ members: 2 });
  pool = new pg.Pool({ connectionString: url, max: 6 });
});

afterAll(async () => {
  await pool?.end();
});

type Job = { task_identifier: string; queue_name: string | null; key: string | null; max_attempts: number; run_at: Date; payload: unknown };
const graphileJobs = async (): Promise<Job[]> =>
  (
    await pool.query<Job>(
      `SELECT t.identifier AS task_identifier, q.queue_name, j.key, j.max_attempts, j.run_at, j.payload
       FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.job_queue_id ORDER BY j.id`,
    )
  ).rows;
const outboxRows = async () =>
  (await pool.query<{ id: string; task_identifier: string; job_key: string | null; run_at: Date }>("SELECT * FROM job_outbox ORDER BY id"))
    .rows;

/** Notifications on graphile-worker's channel, collected by a listening connection. */
async function listen(): Promise<{ received: string[]; end: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const received: string[] = [];
  client.on("notification", (n) => received.push(n.channel));
  await client.query('LISTEN "jobs:insert"');
  return { received, end: () => client.end() };
}

async function clear(): Promise<void> {
  await pool.query("DELETE FROM job_outbox");
  await pool.query("DELETE FROM graphile_worker._private_jobs");
}

describe("job outbox", () => {
  it("a report submission's delivery job waits in the outbox, its commit notifies no one, a dispatch hands it over once", async () => {
    await clear();
    const standup = await createTestCheckin(team, { name: "Outbox" });
    const listener = await listen();
    try {
      const author = team.users[1];
      const submitted = await submitEveryAnswer(author.actor, standup, "queued");
      const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: submitted.reportId } });
      // Give a notification time to arrive: none must.
      await new Promise((r) => setTimeout(r, 300));
      expect(listener.received).toEqual([]);
      const waiting = await outboxRows();
      const destination = `c${message.channel_id}`;
      expect(waiting.map((r) => [r.task_identifier, r.job_key])).toEqual([["deliver_chat_destination", `chat_destination:${destination}`]]);
      expect(await graphileJobs()).toEqual([]);

      expect(await dispatchOutbox(pool)).toBe(1);
      const jobs = await graphileJobs();
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({
        task_identifier: "deliver_chat_destination",
        queue_name: `chat:${destination}`,
        key: `chat_destination:${destination}`,
        max_attempts: 10,
        payload: { destination },
      });
      // The job is due when the write happened, not when it was handed over.
      expect(jobs[0].run_at.getTime()).toBe(waiting[0].run_at.getTime());
      expect(await outboxRows()).toEqual([]);
      expect(await dispatchOutbox(pool)).toBe(0);
      await new Promise((r) => setTimeout(r, 100));
      expect(listener.received).toContain("jobs:insert");
    } finally {
      await listener.end();
    }
  });

  it("closing an occurrence and a late report to it enqueue their participation-counts jobs without a notification", async () => {
    await clear();
    const standup = await createTestCheckin(team, { name: "Late" });
    const occurrence = await createTestOccurrence(standup, "2026-01-05", team.users);
    const listener = await listen();
    try {
      await db.occurrence.update({ where: { id: occurrence.id }, data: { closed_at: new Date() } });
      await createTestReport(standup, team.users[1], { occurrence_id: occurrence.id });
      await new Promise((r) => setTimeout(r, 300));
      expect(listener.received).toEqual([]);
      const key = `participation_counts:${occurrence.id}`;
      expect((await outboxRows()).filter((r) => r.job_key === key)).toHaveLength(2);
      await dispatchOutbox(pool);
      expect((await graphileJobs()).filter((j) => j.key === key)).toHaveLength(1);
    } finally {
      await listener.end();
    }
  });

  /** A job row of task 't' with `payload` (JSON text) under job key `key`, due at `runAt`, in job_key_mode `mode`. */
  const enqueueKeyed = (payload: string, key: string, runAt: string, mode: string) =>
    pool.query("SELECT checkin_enqueue_job('t', $1::json, run_at := $3::timestamptz, job_key := $2, job_key_mode := $4)", [
      payload,
      key,
      runAt,
      mode,
    ]);

  it("rows of one job key collapse into one job as add_job's modes say (replace pushes run_at, preserve_run_at and unsafe_dedupe keep the earlier)", async () => {
    await clear();
    const enqueue = (key: string, runAt: string, mode: string) => enqueueKeyed("{}", key, runAt, mode);
    await enqueue("k:replace", "2030-01-01T00:00:00Z", "replace");
    await enqueue("k:other", "2030-01-05T00:00:00Z", "replace");
    await enqueue("k:replace", "2030-01-02T00:00:00Z", "replace");
    await enqueue("k:preserve", "2030-01-01T00:00:00Z", "preserve_run_at");
    await enqueue("k:preserve", "2030-01-02T00:00:00Z", "preserve_run_at");
    await enqueue("k:dedupe", "2030-01-01T00:00:00Z", "unsafe_dedupe");
    await enqueue("k:replace", "2030-01-03T00:00:00Z", "replace");
    await enqueue("k:dedupe", "2030-01-02T00:00:00Z", "unsafe_dedupe");
    expect(await dispatchOutbox(pool)).toBe(8);
    const jobs = await graphileJobs();
    expect(jobs.map((j) => [j.key, j.run_at.toISOString()])).toEqual([
      ["k:replace", "2030-01-03T00:00:00.000Z"],
      ["k:other", "2030-01-05T00:00:00.000Z"],
      ["k:preserve", "2030-01-01T00:00:00.000Z"],
      ["k:dedupe", "2030-01-01T00:00:00.000Z"],
    ]);
  });

  it("a burst to one destination is one job and one add_jobs call; a repeated preserve_run_at row is left out only when it changes nothing", async () => {
    await clear();
    const standup = await createTestCheckin(team, { name: "Burst" });
    const author = team.users[1];
    for (let i = 0; i < 12; i++) await submitEveryAnswer(author.actor, standup, `burst ${i}`);
    const key = `chat_destination:c${standup.broadcast_channel_id}`;
    const rows = await outboxRows();
    expect(rows.filter((r) => r.job_key === key)).toHaveLength(12);
    const listener = await listen();
    try {
      expect(await dispatchOutbox(pool)).toBe(rows.length);
      await new Promise((r) => setTimeout(r, 200));
      // Twelve rows of one key would have been twelve add_jobs calls (a repeated key splits a call).
      expect(listener.received).toHaveLength(1);
    } finally {
      await listener.end();
    }
    const jobs = (await graphileJobs()).filter((j) => j.key === key);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].run_at.getTime()).toBe(rows[0].run_at.getTime());

    // Rows that differ are all handed over, with add_job's semantics: a different payload updates
    // the job (keeping its due time), a replace row in between pushes the due time.
    await clear();
    const enqueue = (payload: string, runAt: string, mode: string) => enqueueKeyed(payload, "k", runAt, mode);
    await enqueue('{"a":1}', "2030-01-01T00:00:00Z", "preserve_run_at");
    await enqueue('{"a":2}', "2030-01-02T00:00:00Z", "preserve_run_at");
    expect(await dispatchOutbox(pool)).toBe(2);
    expect((await graphileJobs()).map((j) => [j.payload, j.run_at.toISOString()])).toEqual([[{ a: 2 }, "2030-01-01T00:00:00.000Z"]]);
    await enqueue('{"a":2}', "2030-01-03T00:00:00Z", "replace");
    await enqueue('{"a":2}', "2030-01-04T00:00:00Z", "preserve_run_at");
    expect(await dispatchOutbox(pool)).toBe(2);
    expect((await graphileJobs()).map((j) => [j.payload, j.run_at.toISOString()])).toEqual([[{ a: 2 }, "2030-01-03T00:00:00.000Z"]]);
  });

  it("a message that changes starts its delivery retries afresh; bookkeeping leaves them alone", async () => {
    await clear();
    const standup = await createTestCheckin(team, { name: "Backoff" });
    const author = team.users[1];
    const { reportId } = await submitEveryAnswer(author.actor, standup, "before");
    const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: reportId } });
    const later = new Date(Date.now() + 3600_000);
    await db.$executeRaw`UPDATE chat_messages SET delivery_failures = 3, delivery_retry_at = ${later}, delivery_error = 'HTTP 500' WHERE id = ${message.id}`;
    const state = async () =>
      db.chatMessage.findUniqueOrThrow({ where: { id: message.id }, select: { delivery_failures: true, delivery_retry_at: true } });
    expect(await state()).toEqual({ delivery_failures: 3, delivery_retry_at: later });
    await updateReportAnswers(author.actor, { reportId, answers: [{ questionId: standup.questions[0].id, text: "after" }] });
    expect(await state()).toEqual({ delivery_failures: 0, delivery_retry_at: null });
  });

  it("an unknown job_key_mode fails the enqueuing write, so no row can block the outbox", async () => {
    await clear();
    await expect(pool.query("SELECT checkin_enqueue_job('t', '{}'::json, job_key := 'k', job_key_mode := 'sometimes')")).rejects.toThrow(
      /job_outbox_job_key_mode_check/,
    );
    expect(await outboxRows()).toEqual([]);
  });

  it("one dispatcher keeps the order of the writes; four at once hand over every job exactly once", async () => {
    await clear();
    const total = 3 * DISPATCH_BATCH + 17;
    await pool.query(
      "SELECT checkin_enqueue_job('ordered', json_build_object('n', n), queue_name := 'q') FROM generate_series(1, $1::int) n",
      [total],
    );
    const listener = await listen();
    let moved = 0;
    let dispatches = 0;
    try {
      for (let m = await dispatchOutbox(pool); m > 0; m = await dispatchOutbox(pool)) {
        moved += m;
        dispatches++;
      }
      await new Promise((r) => setTimeout(r, 200));
      // One graphile_worker.add_jobs call, so one notification, per batch of rows without keys.
      expect(listener.received).toHaveLength(dispatches);
    } finally {
      await listener.end();
    }
    expect(dispatches).toBe(Math.ceil(total / DISPATCH_BATCH));
    expect(moved).toBe(total);
    const ordered = await graphileJobs();
    expect(ordered.map((j) => (j.payload as { n: number }).n)).toEqual(Array.from({ length: total }, (_, i) => i + 1));

    await clear();
    await pool.query("SELECT checkin_enqueue_job('once', json_build_object('n', n)) FROM generate_series(1, $1::int) n", [total]);
    const counts = await Promise.all(
      Array.from({ length: 4 }, async () => {
        let mine = 0;
        for (let m = await dispatchOutbox(pool, 25); m > 0; m = await dispatchOutbox(pool, 25)) mine += m;
        return mine;
      }),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
    const once = await graphileJobs();
    expect(new Set(once.map((j) => (j.payload as { n: number }).n)).size).toBe(total);
    expect(once).toHaveLength(total);
    expect(await outboxRows()).toEqual([]);
  });
});
