/**
 * Exactly-once delivery across a crash (issue 9): a worker process is killed (SIGKILL) while Slack
 * has accepted a post but before the worker recorded it; after the dead worker's locks are
 * released, a new worker delivers every message and recognises the one already posted (Slack
 * message metadata) instead of posting it again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { recoverStaleLocks } from "@/lib/jobs/delivery";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { type FakeSlack, startFakeSlack } from "@/tests/fakes/slack";
import { slackDeliveryConfig } from "@/tests/fakes/slack-env";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";
import { submitEveryAnswer } from "@/tests/standup-fixtures";

let fake: FakeSlack;
let team: TestTeam;
let child: ChildProcess | undefined;
let worker: JobWorker | undefined;

beforeAll(async () => {
  await useIsolatedDatabase("crash");
  team = await createTestTeam({ members: 3 });
  const general = team.channels[0];
  fake = await startFakeSlack({
    users: team.users.map((u) => ({ id: u.chat_id, name: u.username, real_name: u.realname })),
    channels: [{ id: general.chat_id, name: general.name, members: [] }],
  });
});

afterAll(async () => {
  child?.kill("SIGKILL");
  await worker?.stop();
  await fake?.close();
});

describe("a worker killed mid-delivery", () => {
  it("delivers each message exactly once after a restart", async () => {
    const t = await db.team.findUniqueOrThrow({ where: { id: team.id } });
    const config = slackDeliveryConfig(fake, t.chat_id);
    const standup = await createTestCheckin(team, { name: "Crashy" });
    const messageTs: string[] = [];
    for (const u of team.users.slice(1)) {
      const r = await submitEveryAnswer(u.actor, standup, `from ${u.username}`);
      messageTs.push(r.chatTs as string);
    }
    fake.setDelay("chat.postMessage", 60_000);
    const root = path.resolve(import.meta.dirname, "../..");
    child = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/fakes/worker-process.ts")], {
      cwd: root,
      env: { ...process.env, DELIVERY_CONFIG: JSON.stringify(config) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (d) => {
      output += String(d);
    });
    child.stderr?.on("data", (d) => {
      output += String(d);
    });
    await fake.waitFor(() => fake.callsOf("chat.postMessage").length === 1, 60_000, `the first post (worker output: ${output})`);
    const exited = new Promise((r) => child?.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    expect(fake.messages).toHaveLength(1); // Slack has it; the worker never learned its ts

    fake.setDelay("chat.postMessage", 0);
    const released = await recoverStaleLocks(db, () => {}, 0);
    expect(released).toHaveLength(1);
    worker = await startWorker({ connectionString: process.env.DATABASE_URL as string, log: () => {}, crontab: "", delivery: config });
    const deadline = Date.now() + 30_000;
    while ((await db.chatMessage.count({ where: { ts: { in: messageTs }, delivery_state: "delivered" } })) < messageTs.length) {
      if (Date.now() > deadline) throw new Error("not all messages delivered after the restart");
      await new Promise((r) => setTimeout(r, 100));
    }
    const onSlack = fake.messagesIn(team.channels[0].chat_id).map((m) => m.metadata?.event_payload.ts);
    expect([...onSlack].sort()).toEqual([...messageTs].sort());
    const rows = await db.chatMessage.findMany({ where: { ts: { in: messageTs } } });
    for (const r of rows) expect(r.external_ts).toBe(fake.messages.find((m) => m.metadata?.event_payload.ts === r.ts)?.ts);
  });
});
