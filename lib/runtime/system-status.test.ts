/**
 * Settings → System's data (lib/runtime/system-status.ts) against the real database: version,
 * database size, migrations, workers, the job queue, the team's failed deliveries of the last 24 h
 * (not another team's, not older ones), the backup folder, the restore command; admins only. And
 * retrying a failed webhook delivery (lib/chat/retry.ts `retryFailedWebhookDelivery`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retryFailedMessage, retryFailedWebhookDelivery } from "@/lib/chat/retry";
import { db } from "@/lib/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import pkg from "@/package.json";
import { jobQueued, type StandardTeams, standardTeams, unqueueJobs } from "@/tests/fixtures";
import { restoreCommandLine, systemStatus } from "./system-status";

let t: StandardTeams;
let dir: string;
const now = new Date();
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000);

async function failedMessage(teamId: number, text: string, at: Date) {
  const m = await db.chatMessage.create({
    data: { team_id: teamId, ts: `${Date.now()}.${Math.floor(Math.random() * 1e6)}`, kind: "reminder", text, delivery_state: "failed" },
  });
  await db.$executeRaw`UPDATE chat_messages SET updated_at = ${at}, delivery_error = 'channel_not_found' WHERE id = ${m.id}`;
  return m.id;
}

async function failedWebhook(teamId: number, url: string, at: Date, disabled = false) {
  const endpoint = await db.webhookEndpoint.create({
    data: { team_id: teamId, url, events: ["report.submitted"], secret: "whsec_dGVzdA==", disabled_at: disabled ? new Date() : null },
  });
  const d = await db.webhookDelivery.create({
    data: {
      team_id: teamId,
      endpoint_id: endpoint.id,
      message_id: `msg_${Math.random().toString(36).slice(2)}`,
      event_type: "report.submitted",
      payload: { type: "report.submitted" },
      state: "failed",
      attempts: 7,
      last_status_code: 500,
      last_error: "HTTP 500",
    },
  });
  await db.$executeRaw`UPDATE webhook_deliveries SET updated_at = ${at} WHERE id = ${d.id}`;
  return d.id;
}

let recentMessage = 0;
let oldMessage = 0;
let recentWebhook = 0;
let disabledWebhook = 0;
let otherTeamWebhook = 0;

beforeAll(async () => {
  t = await standardTeams();
  recentMessage = await failedMessage(t.A.id, "sys-recent", hoursAgo(1));
  oldMessage = await failedMessage(t.A.id, "sys-old", hoursAgo(30));
  await failedMessage(t.B.id, "sys-other-team", hoursAgo(1));
  recentWebhook = await failedWebhook(t.A.id, "https://hooks.example.com/sys-a", hoursAgo(2));
  disabledWebhook = await failedWebhook(t.A.id, "https://hooks.example.com/sys-disabled", hoursAgo(3), true);
  otherTeamWebhook = await failedWebhook(t.B.id, "https://hooks.example.com/sys-b", hoursAgo(1));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "system-status-"));
  const base = path.join(dir, "base", "20261128T101500Z");
  fs.mkdirSync(path.join(base, "data"), { recursive: true });
  fs.writeFileSync(
    path.join(base, "backup.json"),
    JSON.stringify({
      name: "20261128T101500Z",
      started_at: "2026-11-28T10:15:00.000Z",
      finished_at: "2026-11-28T10:15:01.200Z",
      start_lsn: "0/2000028",
      stop_lsn: "0/2000100",
      start_wal: "000000010000000000000002",
      bytes: 48_100_000,
      seconds: 1.2,
    }),
  );
  fs.mkdirSync(path.join(dir, "wal"));
  fs.writeFileSync(path.join(dir, "wal", "000000010000000000000002.gz"), Buffer.alloc(3000));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("systemStatus", () => {
  it("reports version, database, migrations, workers, jobs, the team's recent failed deliveries and the backups", async () => {
    const applied = (
      await db.$queryRaw<Array<{ name: string }>>`SELECT migration_name AS name FROM "_prisma_migrations" ORDER BY migration_name`
    ).map((r) => r.name);
    const s = await systemStatus(t.admin.actor, { now, backupDir: dir, migrations: [...applied, "20991231000000_future"] });
    expect(s.version).toBe(pkg.version);
    expect(s.commit === null || /^[0-9a-f]{7,40}$/.test(s.commit)).toBe(true);
    expect(s.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(s.database.bytes).toBeGreaterThan(1_000_000);
    expect(s.migrations).toEqual({ applied: applied.length, latest: applied.at(-1), pending: ["20991231000000_future"], unknown: [] });
    expect(s.workers.total).toBeGreaterThanOrEqual(0);
    expect(Array.isArray(s.jobs)).toBe(true);
    expect(s.jobOutbox).toBeGreaterThanOrEqual(0);

    expect(s.failedChat.count).toBe(1);
    expect(s.failedChat.rows.map((r) => r.id)).toEqual([recentMessage]);
    expect(s.failedChat.rows[0]).toMatchObject({ error: "channel_not_found" });
    expect(s.failedWebhooks.count).toBe(2);
    expect(s.failedWebhooks.rows.map((r) => [r.id, r.endpointUrl, r.endpointDisabled])).toEqual([
      [recentWebhook, "https://hooks.example.com/sys-a", false],
      [disabledWebhook, "https://hooks.example.com/sys-disabled", true],
    ]);
    expect(s.failedWebhooks.rows.map((r) => r.id)).not.toContain(otherTeamWebhook);
    expect(s.failedChat.rows.map((r) => r.id)).not.toContain(oldMessage);

    expect(s.backups).toMatchObject({
      dir,
      count: 1,
      last: { name: "20261128T101500Z", finishedAt: "2026-11-28T10:15:01.200Z", bytes: 48_100_000, seconds: 1.2 },
      walBytes: 3000,
      totalBytes: 48_103_000,
    });
    expect(s.restoreCommand).toBe(restoreCommandLine(dir, now));
    expect(s.restoreCommand).toMatch(/^npm run restore -- --at "\d{4}-\d\d-\d\d \d\d:\d\dZ" --from "/);
  });

  it("counts graphile-worker jobs by task and state", async () => {
    await db.$executeRaw`SELECT graphile_worker.add_job('sys_status_probe', '{}'::json, job_key := 'sys-status-probe-1', run_at := now() + interval '1 hour')`;
    await db.$executeRaw`SELECT graphile_worker.add_job('sys_status_probe', '{}'::json, job_key := 'sys-status-probe-2', run_at := now() + interval '1 hour', max_attempts := 1)`;
    await db.$executeRaw`UPDATE graphile_worker._private_jobs SET attempts = 1 WHERE key = 'sys-status-probe-2'`;
    try {
      const s = await systemStatus(t.admin.actor, { backupDir: dir });
      expect(s.jobs.find((j) => j.task === "sys_status_probe")).toEqual({ task: "sys_status_probe", queued: 1, running: 0, failed: 1 });
    } finally {
      await unqueueJobs(["sys-status-probe-1", "sys-status-probe-2"]);
    }
  });

  it("is for team admins only", async () => {
    await expect(systemStatus(t.m0.actor, { backupDir: dir })).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe("retrying failed deliveries", () => {
  it("puts a failed webhook delivery back to pending with a new delivery job", async () => {
    await unqueueJobs([`webhook_delivery:${recentWebhook}`]);
    await retryFailedWebhookDelivery(t.admin.actor, recentWebhook);
    const d = await db.webhookDelivery.findUniqueOrThrow({ where: { id: recentWebhook } });
    expect(d).toMatchObject({ state: "pending", attempts: 0, last_error: null, last_status_code: null, next_attempt_at: null });
    expect(await jobQueued(`webhook_delivery:${recentWebhook}`)).toBe(true);
    // No longer failed: a second retry finds nothing to retry.
    await expect(retryFailedWebhookDelivery(t.admin.actor, recentWebhook)).rejects.toBeInstanceOf(NotFoundError);
    await unqueueJobs([`webhook_delivery:${recentWebhook}`]);
  });

  it("refuses members, other teams' deliveries and disabled endpoints", async () => {
    await expect(retryFailedWebhookDelivery(t.m0.actor, disabledWebhook)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(retryFailedWebhookDelivery(t.admin.actor, otherTeamWebhook)).rejects.toBeInstanceOf(NotFoundError);
    await expect(retryFailedWebhookDelivery(t.admin.actor, disabledWebhook)).rejects.toBeInstanceOf(ConflictError);
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: disabledWebhook } })).state).toBe("failed");
    expect(await jobQueued(`webhook_delivery:${disabledWebhook}`)).toBe(false);
  });

  it("the chat retry takes a failed message off the failed list", async () => {
    await retryFailedMessage(t.admin.actor, recentMessage);
    const s = await systemStatus(t.admin.actor, { backupDir: dir });
    expect(s.failedChat.rows.map((r) => r.id)).not.toContain(recentMessage);
  });
});
