/**
 * Integration tests of the job runner against the test database: graphile-worker's migrations,
 * a job running through the runner, and the cleanup task. No crontab here, so no schedule_tick can
 * fire while other test files run.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { CRONTAB, cleanupIdempotency } from "@/lib/jobs/tasks";
import { startWorker } from "@/lib/jobs/worker";
import { useIsolatedDatabase } from "@/tests/isolated-db";

// Its own database: this file runs a job worker (see tests/isolated-db.ts).
beforeAll(async () => {
  await useIsolatedDatabase("jobs");
});

async function createUser() {
  const tag = randomBytes(5).toString("hex").toUpperCase();
  const team = await db.team.create({ data: { chat_id: `T${tag}`, name: `Jobs ${tag}` } });
  const user = await db.user.create({
    data: {
      chat_id: `U${tag}`,
      team_id: team.id,
      username: "job",
      realname: "Job Runner",
      firstname: "Job",
      email: `job.${tag}@example.com`,
    },
  });
  return { team, user };
}

async function createRecords(teamId: number, userId: number) {
  const base = { team_id: teamId, user_id: userId, fingerprint: "f" };
  const expired = await db.idempotencyRecord.create({
    data: { ...base, key: randomBytes(8).toString("hex"), expires_at: new Date(Date.now() - 60_000) },
  });
  const live = await db.idempotencyRecord.create({
    data: { ...base, key: randomBytes(8).toString("hex"), expires_at: new Date(Date.now() + 3_600_000) },
  });
  return { expired, live };
}

describe("jobs", () => {
  it("declares the schedule of issue 2 (every minute, hourly at :17), the categorization sweep of issue 15, the Slack sync of issue 11, the nightly backup of issue 44 and the nightly retention of issue 45 and the calendar refresh of issue 48", () => {
    expect(CRONTAB.split("\n")).toEqual([
      "* * * * * schedule_tick",
      "17 * * * * cleanup_idempotency",
      "* * * * * categorize_sweep",
      "41 * * * * slack_sync",
      "7 3 * * * backup_nightly",
      "23 3 * * * apply_retention",
      "11,41 * * * * refresh_calendars",
    ]);
  });

  it("cleanup_idempotency deletes only expired records", async () => {
    const { team, user } = await createUser();
    const { expired, live } = await createRecords(team.id, user.id);
    const lines: string[] = [];
    await cleanupIdempotency((l) => lines.push(l))({}, {} as never);
    expect(await db.idempotencyRecord.findUnique({ where: { id: expired.id } })).toBeNull();
    expect(await db.idempotencyRecord.findUnique({ where: { id: live.id } })).not.toBeNull();
    expect(lines.join("\n")).toMatch(/removed \d+ expired idempotency record/);
  });

  it("startWorker migrates graphile-worker, runs queued jobs and stops cleanly", async () => {
    const { team, user } = await createUser();
    const { expired, live } = await createRecords(team.id, user.id);
    const lines: string[] = [];
    const worker = await startWorker({
      connectionString: process.env.DATABASE_URL as string,
      log: (l) => lines.push(l),
      crontab: "",
      delivery: null,
    });
    try {
      await worker.runner.addJob("cleanup_idempotency", {});
      const deadline = Date.now() + 20_000;
      while ((await db.idempotencyRecord.findUnique({ where: { id: expired.id } })) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await db.idempotencyRecord.findUnique({ where: { id: expired.id } })).toBeNull();
      expect(await db.idempotencyRecord.findUnique({ where: { id: live.id } })).not.toBeNull();
    } finally {
      await worker.stop();
    }
    await worker.stop(); // idempotent
    expect(lines.filter((l) => /error/i.test(l))).toEqual([]);
  });
});
