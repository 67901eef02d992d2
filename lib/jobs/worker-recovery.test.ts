/**
 * A worker that loses a job's end or dies is recovered at once (issue 40):
 * - graphile-worker records a job's end with a statement it does not await; when that statement's
 *   connection is terminated, the worker process keeps running (crash policy) and releases the job
 *   it could not record, so the destination's next messages are delivered within seconds;
 * - after a SIGKILL, a worker that starts releases the dead worker's locks right away (its PID is
 *   gone: lib/jobs/heartbeat.ts), instead of the 2-minute stale-lock release.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryConfig } from "@/lib/chat/config";
import { db } from "@/lib/db";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { type FakeSlack, startFakeSlack } from "@/tests/fakes/slack";
import { slackDeliveryConfig } from "@/tests/fakes/slack-env";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";
import { submitEveryAnswer } from "@/tests/standup-fixtures";

const root = path.resolve(import.meta.dirname, "../..");
let url: string;
let fake: FakeSlack;
let team: TestTeam;
let config: DeliveryConfig;
let child: ChildProcess | undefined;
let worker: JobWorker | undefined;

beforeAll(async () => {
  url = await useIsolatedDatabase("recovery");
  team = await createTestTeam({ members: 4 });
  fake = await startFakeSlack({
    users: team.users.map((u) => ({ id: u.chat_id, name: u.username, real_name: u.realname })),
    channels: [{ id: team.channels[0].chat_id, name: team.channels[0].name, members: [] }],
  });
  const t = await db.team.findUniqueOrThrow({ where: { id: team.id } });
  config = slackDeliveryConfig(fake, t.chat_id);
});

afterEach(async () => {
  child?.kill("SIGKILL");
  child = undefined;
  await worker?.stop();
  worker = undefined;
  fake.setDelay("chat.postMessage", 0);
});

afterAll(async () => {
  await fake?.close();
});

/** Starts tests/fakes/worker-process.ts (the worker process of `npm start`) and waits until it runs. */
async function startWorkerProcess(): Promise<{ child: ChildProcess; output: () => string }> {
  const c = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/fakes/worker-process.ts")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, DELIVERY_CONFIG: JSON.stringify(config) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = c;
  let output = "";
  c.stdout?.on("data", (d) => {
    output += String(d);
  });
  c.stderr?.on("data", (d) => {
    output += String(d);
  });
  const deadline = Date.now() + 30_000;
  while (!output.includes("worker ready")) {
    if (Date.now() > deadline || c.exitCode !== null) throw new Error(`the worker process did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child: c, output: () => output };
}

let reportNo = 0;
/** Submits reports of `n` members to a new standup broadcasting to the team's first channel; @returns their message ts. */
async function submitReports(n: number): Promise<string[]> {
  const standup = await createTestCheckin(team, { name: `Recovery ${++reportNo}` });
  const ts: string[] = [];
  for (const u of team.users.slice(1, 1 + n)) {
    const r = await submitEveryAnswer(u.actor, standup, `from ${u.username}`);
    ts.push(r.chatTs as string);
  }
  return ts;
}

async function waitDelivered(ts: string[], withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while ((await db.chatMessage.count({ where: { ts: { in: ts }, delivery_state: "delivered" } })) < ts.length) {
    if (Date.now() > deadline) throw new Error(`not all of ${ts.length} messages delivered within ${withinMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("worker recovery", () => {
  it("keeps running when a job's end cannot be recorded, and releases that job at once", async () => {
    const w = await startWorkerProcess();
    // The statement recording a job's end fails as on a terminated connection (SQLSTATE 57P01).
    await db.$executeRawUnsafe(`
      CREATE FUNCTION test_fail_job_end() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'terminating connection due to administrator command' USING ERRCODE = '57P01'; END $$`);
    await db.$executeRawUnsafe(
      "CREATE TRIGGER fail_job_end BEFORE DELETE ON graphile_worker._private_jobs FOR EACH ROW EXECUTE FUNCTION test_fail_job_end()",
    );
    const first = await submitReports(1);
    try {
      const deadline = Date.now() + 20_000;
      while (!w.output().includes("unhandled promise rejection") && Date.now() < deadline && w.child.exitCode === null)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      await db.$executeRawUnsafe("DROP TRIGGER fail_job_end ON graphile_worker._private_jobs");
      await db.$executeRawUnsafe("DROP FUNCTION test_fail_job_end()");
    }
    expect(w.output()).toContain("unhandled promise rejection");
    await waitDelivered(first, 1000);
    // The job whose end was lost is released within seconds and its destination delivers on.
    const next = await submitReports(2);
    await waitDelivered(next, 10_000);
    // The lost job may be the delivery itself (then `next` waited for its release) or another job of
    // the submission (then `next` went ahead): either way it is released within seconds.
    const releaseDeadline = Date.now() + 10_000;
    while (!/released 1 job\(s\) whose end could not be recorded/.test(w.output()) && Date.now() < releaseDeadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(w.output()).toMatch(/released 1 job\(s\) whose end could not be recorded/);
    // No job stays locked: one the worker is running right now (a minute tick, the delivery that
    // just finished) may hold its lock for a moment, a lost one would hold it for hours.
    const lockDeadline = Date.now() + 5_000;
    let locked = 1;
    while (locked > 0 && Date.now() < lockDeadline) {
      const rows = await db.$queryRaw<Array<{ n: number }>>`
        SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL`;
      locked = rows[0].n;
      if (locked > 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(locked).toBe(0);
    expect(w.child.exitCode, w.output()).toBeNull();
  }, 60_000);

  it("releases the locks of a worker killed mid-delivery as soon as a worker starts", async () => {
    await startWorkerProcess();
    fake.setDelay("chat.postMessage", 60_000);
    const ts = await submitReports(3);
    await fake.waitFor(() => fake.callsOf("chat.postMessage").length >= 1, 20_000, "a post");
    const dead = child as ChildProcess;
    const exited = new Promise((r) => dead.once("exit", r));
    dead.kill("SIGKILL");
    await exited;
    child = undefined;
    fake.setDelay("chat.postMessage", 0);
    const lines: string[] = [];
    worker = await startWorker({ connectionString: url, log: (l) => lines.push(l), crontab: "", delivery: config });
    expect(lines.join("\n")).toMatch(/released the job locks of 1 dead worker\(s\): pool-\w+ \(pid \d+ on .*: process gone\)/);
    await waitDelivered(ts, 15_000); // not the 2 minutes of recoverStaleLocks
  }, 60_000);
});
