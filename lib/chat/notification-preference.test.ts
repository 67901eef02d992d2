/**
 * Per-member delivery preference (issue 9, `users.notification_channel`): with both the fake Slack
 * Web API and the SMTP sink configured, a real worker delivers one run's questions by each asked
 * member's choice — e-mail (the sink, never Slack), Slack DM, web (built-in only: neither) — and
 * falls back when the preferred channel is unavailable (Slack DM for a member Slack does not know →
 * e-mail; e-mail without SMTP → Slack DM). See `directRoute` in lib/chat/delivery.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryConfig } from "@/lib/chat/config";
import { directRoute } from "@/lib/chat/delivery";
import { db } from "@/lib/db";
import { runDueOccurrences } from "@/lib/domain/scheduler";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { type FakeSlack, startFakeSlack } from "@/tests/fakes/slack";
import { type SmtpSink, startSmtpSink } from "@/tests/fakes/smtp";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { useIsolatedDatabase } from "@/tests/isolated-db";

let fake: FakeSlack;
let sink: SmtpSink;
let worker: JobWorker | undefined;
let team: TestTeam;
let teamChatId = "";

const config = (smtp: boolean): DeliveryConfig => ({
  slack: { token: fake.token, apiUrl: fake.apiUrl, team: teamChatId },
  smtp: smtp ? { url: sink.url, from: "Check-in <checkin@example.test>" } : null,
  publicUrl: "http://checkin.example.test",
  linkSecret: "test-link-secret",
  webhookRetryDelays: [1],
  webhooksAllowPrivate: true,
});

async function useWorker(smtp: boolean) {
  await worker?.stop();
  worker = await startWorker({ connectionString: process.env.DATABASE_URL as string, log: () => {}, crontab: "", delivery: config(smtp) });
}

/** Runs a fresh standup of the team now and waits until every question left the outbox. */
async function runStandup(name: string) {
  // Slot 00:00 UTC: already past at any time of day, so the run asks at once (it asks at slot + wait_time).
  const standup = await createTestCheckin(team, { name, days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], time: "00:00:00" });
  await db.checkin.update({ where: { id: standup.id }, data: { next_run_at: new Date(Date.now() - 60_000) } });
  await runDueOccurrences(new Date());
  const deadline = Date.now() + 30_000;
  for (;;) {
    const rows = await db.chatMessage.findMany({
      where: { checkin_id: standup.id, kind: "question" },
      select: { recipient_id: true, delivery_state: true, delivered_via: true, delivery_error: true },
    });
    if (rows.length === team.users.length && rows.every((r) => r.delivery_state !== "pending")) {
      return { standup, via: new Map(rows.map((r) => [r.recipient_id, r.delivered_via ?? r.delivery_error])) };
    }
    if (Date.now() > deadline) throw new Error(`questions still pending: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  await useIsolatedDatabase("preference");
  sink = await startSmtpSink();
  team = await createTestTeam({ members: 4 });
  teamChatId = (await db.team.findUniqueOrThrow({ where: { id: team.id } })).chat_id;
  // users[4] is unknown to the Slack workspace
  fake = await startFakeSlack({
    users: team.users.slice(0, 4).map((u) => ({ id: u.chat_id, name: u.username, real_name: u.realname, email: u.email })),
    channels: team.channels.map((c) => ({ id: c.chat_id, name: c.name, members: [] })),
  });
  const prefs = ["slack_dm", "email", "slack_dm", "web", "slack_dm"] as const;
  for (const [i, u] of team.users.entries()) await db.user.update({ where: { id: u.id }, data: { notification_channel: prefs[i] } });
});

afterAll(async () => {
  await worker?.stop();
  await fake?.close();
  await sink?.close();
});

describe("directRoute", () => {
  it("puts the preferred channel first and keeps the built-in feed as the last resort", () => {
    expect(directRoute("slack_dm", { slack: true, email: true })).toEqual(["slack", "email", "builtin"]);
    expect(directRoute("email", { slack: true, email: true })).toEqual(["email", "slack", "builtin"]);
    expect(directRoute("email", { slack: true, email: false })).toEqual(["slack", "builtin"]);
    expect(directRoute("slack_dm", { slack: false, email: true })).toEqual(["email", "builtin"]);
    expect(directRoute("web", { slack: true, email: true })).toEqual(["builtin"]);
  });
});

describe("questions by each member's preference", () => {
  it("e-mail goes to the SMTP sink and not to Slack; Slack DM; web stays built-in; unknown to Slack falls back to e-mail", async () => {
    await useWorker(true);
    const { standup, via } = await runStandup("Preference");
    const [admin, byMail, bySlack, byWeb, unknown] = team.users;
    expect([admin, byMail, bySlack, byWeb, unknown].map((u) => via.get(u.id))).toEqual(["slack", "email", "slack", "builtin", "email"]);

    const question = standup.questions[0].text;
    const mailedTo = sink.messages.filter((m) => m.text.includes(question)).flatMap((m) => m.to);
    expect(mailedTo.sort()).toEqual([byMail.email, unknown.email].sort());
    const dmChannels = fake.messages.filter((m) => m.text.includes(question)).map((m) => m.channel);
    expect(dmChannels.sort()).toEqual([fake.dmChannelOf(admin.chat_id), fake.dmChannelOf(bySlack.chat_id)].sort());
    expect(fake.callsOf("conversations.open").some((c) => c.args.users === byMail.chat_id || c.args.users === byWeb.chat_id)).toBe(false);
  });

  it("without SMTP, a member who prefers e-mail gets a Slack DM instead", async () => {
    await useWorker(false);
    const { via } = await runStandup("Preference without SMTP");
    const [, byMail, , byWeb, unknown] = team.users;
    expect([byMail, byWeb, unknown].map((u) => via.get(u.id))).toEqual(["slack", "builtin", "builtin"]);
  });
});
