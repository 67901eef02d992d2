/**
 * Questions by e-mail (issue 9): with SMTP configured and no Slack, a scheduled run mails each
 * asked member (through a local SMTP sink) a signed link; the link opens the answer form without
 * signing in and submits the report through the domain. Without SMTP the question stays in the
 * built-in feed and is written to the server log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryConfig } from "@/lib/chat/config";
import { db } from "@/lib/db";
import { openAnswerLink, submitWithAnswerLink } from "@/lib/domain/answer-links";
import { createAnswerToken } from "@/lib/domain/answer-token";
import { runDueOccurrences } from "@/lib/domain/scheduler";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { type SmtpSink, startSmtpSink } from "@/tests/fakes/smtp";
import { createTestCheckin, createTestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

let sink: SmtpSink;
let worker: JobWorker;
const logs: string[] = [];
const secret = process.env.AUTH_SECRET as string;

const config = (smtp: boolean): DeliveryConfig => ({
  slack: null,
  smtp: smtp ? { url: sink.url, from: "Check-in <checkin@example.test>" } : null,
  publicUrl: "http://checkin.example.test",
  linkSecret: secret,
  webhookRetryDelays: [1],
  webhooksAllowPrivate: true,
});

async function runStandup(members = 2) {
  const team = await createTestTeam({ members });
  // Slot 00:00 UTC: already past at any time of day, so the run asks at once (it asks at slot + wait_time).
  const standup = await createTestCheckin(team, {
    days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    time: "00:00:00",
    name: `Mail ${team.id}`,
  });
  await db.checkin.update({ where: { id: standup.id }, data: { next_run_at: new Date(Date.now() - 60_000) } });
  await runDueOccurrences(new Date());
  return { team, standup };
}

beforeAll(async () => {
  await useIsolatedDatabase("email");
  sink = await startSmtpSink();
});

afterAll(async () => {
  await worker?.stop();
  await sink?.close();
});

describe("questions by e-mail", () => {
  it("mails every asked member a signed link that answers without signing in (a 451 is retried)", async () => {
    worker = await startWorker({
      connectionString: process.env.DATABASE_URL as string,
      log: (l) => logs.push(l),
      crontab: "",
      delivery: config(true),
    });
    sink.failNext(1);
    const { team, standup } = await runStandup(2);
    const mine = () => sink.messages.filter((m) => team.users.some((u) => m.to.includes(u.email)));
    await sink.waitFor(() => mine().length === team.users.length, 30_000);
    const mail = mine().find((m) => m.to.includes(team.users[1].email));
    expect(mail?.subject).toBe(`Mail ${team.id}: your answers, please`);
    expect(mail?.from).toBe("checkin@example.test");
    const link = /http:\/\/checkin\.example\.test\/answer\/(\S+)/.exec(mail?.text ?? "");
    expect(link).not.toBeNull();
    const token = link?.[1] as string;

    const view = await openAnswerLink(token);
    expect(view).toMatchObject({ standupId: standup.id, submitted: false, actor: { userId: team.users[1].id } });
    await submitWithAnswerLink(
      token,
      standup.questions.map((q) => ({ questionId: q.id, text: `by mail ${q.position}` })),
    );
    const report = await db.report.findFirstOrThrow({ where: { checkin_id: standup.id, user_id: team.users[1].id, status: "submitted" } });
    expect(report.submitted_at).not.toBeNull();
    expect((await openAnswerLink(token))?.submitted).toBe(true);

    const rows = await db.chatMessage.findMany({ where: { checkin_id: standup.id, kind: "question" } });
    expect(rows.every((r) => r.delivered_via === "email" && r.delivery_state === "delivered")).toBe(true);
  });

  it("refuses forged, expired and closed-occurrence links", async () => {
    const { team, standup } = await runStandup(1);
    const occurrence = await db.occurrence.findFirstOrThrow({ where: { checkin_id: standup.id } });
    const user = team.users[1];
    const good = createAnswerToken(secret, { occurrenceId: occurrence.id, userId: user.id, expiresAt: new Date(Date.now() + 60_000) });
    expect(await openAnswerLink(good)).not.toBeNull();
    expect(await openAnswerLink(`${good.slice(0, -2)}xx`)).toBeNull();
    expect(
      await openAnswerLink(
        createAnswerToken("another secret", { occurrenceId: occurrence.id, userId: user.id, expiresAt: new Date(Date.now() + 60_000) }),
      ),
    ).toBeNull();
    expect(
      await openAnswerLink(
        createAnswerToken(secret, { occurrenceId: occurrence.id, userId: user.id, expiresAt: new Date(Date.now() - 1000) }),
      ),
    ).toBeNull();
    const stranger = await createTestTeam({ members: 0 });
    expect(
      await openAnswerLink(
        createAnswerToken(secret, { occurrenceId: occurrence.id, userId: stranger.admin.id, expiresAt: new Date(Date.now() + 60_000) }),
      ),
    ).toBeNull();
    await db.occurrence.update({ where: { id: occurrence.id }, data: { closed_at: new Date() } });
    expect(await openAnswerLink(good)).toBeNull();
    await expect(submitWithAnswerLink(good, [])).rejects.toThrow(/not found/);
  });

  it("without SMTP, keeps questions in the built-in feed and writes them to the log", async () => {
    await worker.stop();
    worker = await startWorker({
      connectionString: process.env.DATABASE_URL as string,
      log: (l) => logs.push(l),
      crontab: "",
      delivery: config(false),
    });
    const before = sink.messages.length;
    const { team, standup } = await runStandup(1);
    const rows = await db.chatMessage.findMany({ where: { checkin_id: standup.id, kind: "question" } });
    const deadline = Date.now() + 15_000;
    while (
      Date.now() < deadline &&
      (await db.chatMessage.count({ where: { checkin_id: standup.id, delivery_state: "delivered" } })) < rows.length
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const delivered = await db.chatMessage.findMany({ where: { checkin_id: standup.id, kind: "question" } });
    expect(delivered.map((r) => [r.delivery_state, r.delivered_via])).toEqual(rows.map(() => ["delivered", "builtin"]));
    expect(sink.messages.length).toBe(before);
    expect(logs.some((l) => l.includes("no SMTP_URL") && l.includes(team.users[1].email))).toBe(true);
  });
});
