/**
 * Outgoing webhooks end to end: endpoints created through the domain, events emitted by real
 * report writes, delivered by the real worker to a local receiver that verifies each signature
 * with the `standardwebhooks` library. Retry delays are shortened to 1 s by the worker config.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { submitReport } from "@/lib/domain/report-writes";
import { createWebhook } from "@/lib/domain/webhooks";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

process.env.WEBHOOKS_ALLOW_PRIVATE = "true";

let worker: JobWorker;
let team: TestTeam;
let receiver: WebhookReceiver;

beforeAll(async () => {
  await useIsolatedDatabase("webhooks");
  team = await createTestTeam({ members: 2 });
  receiver = await startWebhookReceiver();
  worker = await startWorker({
    connectionString: process.env.DATABASE_URL as string,
    log: () => {},
    crontab: "",
    delivery: {
      slack: null,
      smtp: null,
      publicUrl: "http://localhost",
      linkSecret: "x",
      webhookRetryDelays: [1, 1],
      webhooksAllowPrivate: true,
    },
  });
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

/** The delivery row once it left `pending` (the worker records the outcome after the answer). */
async function settled(messageId: string | undefined) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const row = await db.webhookDelivery.findFirstOrThrow({ where: { message_id: messageId } });
    if (row.state !== "pending" || Date.now() > deadline) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function submit(text: string) {
  const standup = await createTestCheckin(team, { name: `Hooked ${text}` });
  return submitReport(team.users[1].actor, { standupId: standup.id, answers: standup.questions.map((q) => ({ questionId: q.id, text })) });
}

describe("outgoing webhooks", () => {
  it("delivers report.submitted with a valid Standard Webhooks signature and the v2 report", async () => {
    const { webhook, secret } = await createWebhook(team.admin.actor, { url: receiver.url, events: ["report.submitted"] });
    receiver.setSecret(secret);
    const { reportId } = await submit("signed");
    await receiver.waitFor((r) => r.some((x) => x.payload?.data.id === reportId));
    const got = receiver.received.find((x) => x.payload?.data.id === reportId);
    expect(got).toMatchObject({ verified: true, status: 200 });
    expect(got?.payload?.type).toBe("report.submitted");
    expect(got?.id).toMatch(/^msg_/);
    expect(Math.abs(Number(got?.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(got?.payload?.data).toMatchObject({ id: reportId, standup_id: expect.any(Number) });
    const row = await settled(got?.id);
    expect(row).toMatchObject({ endpoint_id: webhook.id, state: "delivered", attempts: 1, last_status_code: 200 });
  });

  it("retries a receiver that fails twice: one accepted delivery, three attempts with one webhook-id", async () => {
    receiver.respondWith([500, 503]);
    const { reportId } = await submit("flaky");
    await receiver.waitFor((r) => r.some((x) => x.payload?.data.id === reportId && x.status === 200), 20_000);
    const attempts = receiver.received.filter((x) => x.payload?.data.id === reportId);
    expect(attempts.map((a) => a.status)).toEqual([500, 503, 200]);
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    expect(receiver.accepted().filter((x) => x.payload?.data.id === reportId)).toHaveLength(1);
    expect(await settled(attempts[0].id)).toMatchObject({ state: "delivered", attempts: 3 });
  });

  it("marks a delivery failed after the last retry and disables an endpoint that keeps failing", async () => {
    const other = await startWebhookReceiver();
    try {
      const { webhook, secret } = await createWebhook(team.admin.actor, { url: other.url, events: ["report.submitted"] });
      other.setSecret(secret);
      await db.webhookEndpoint.update({ where: { id: webhook.id }, data: { consecutive_failures: 4 } });
      other.respondWith([500, 500, 500]);
      await submit("doomed");
      const deadline = Date.now() + 20_000;
      let endpoint = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: webhook.id } });
      while (!endpoint.disabled_at && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        endpoint = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: webhook.id } });
      }
      expect(endpoint.disabled_reason).toMatch(/5 deliveries in a row failed.*HTTP 500/);
      const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: webhook.id } });
      expect(delivery).toMatchObject({ state: "failed", attempts: 3, last_status_code: 500, last_error: "HTTP 500" });
      expect(other.received).toHaveLength(3);
    } finally {
      await other.close();
    }
  });
});
