/**
 * The local fakes speak their real protocols: the official Slack SDK, nodemailer and the
 * standardwebhooks library talk to them exactly as they would to the real services.
 */
import { WebClient } from "@slack/web-api";
import nodemailer from "nodemailer";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "@/tests/fakes/slack";
import { startSmtpSink } from "@/tests/fakes/smtp";
import { startWebhookReceiver } from "@/tests/fakes/webhook-receiver";

describe("fake Slack Web API", () => {
  let fake: FakeSlack;
  let slack: WebClient;
  beforeAll(async () => {
    fake = await startFakeSlack();
    slack = new WebClient(fake.token, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 2, minTimeout: 10, maxTimeout: 20 } });
  });
  afterAll(() => fake.close());

  it("posts, updates and deletes channel messages and records the calls", async () => {
    const posted = await slack.chat.postMessage({
      channel: "C0FAKEGEN",
      text: "hello",
      metadata: { event_type: "x", event_payload: { id: "1" } },
    });
    expect(posted.ok).toBe(true);
    const ts = posted.ts as string;
    await slack.chat.update({ channel: "C0FAKEGEN", ts, text: "hello again" });
    expect(fake.messagesIn("C0FAKEGEN").map((m) => m.text)).toEqual(["hello again"]);
    const history = await slack.conversations.history({ channel: "C0FAKEGEN", include_all_metadata: true });
    expect(history.messages?.[0]?.metadata?.event_payload).toEqual({ id: "1" });
    await slack.chat.delete({ channel: "C0FAKEGEN", ts });
    expect(fake.messagesIn("C0FAKEGEN")).toEqual([]);
    await expect(slack.chat.update({ channel: "C0FAKEGEN", ts, text: "x" })).rejects.toMatchObject({
      data: { error: "message_not_found" },
    });
    expect(fake.callsOf("chat.update")).toHaveLength(2);
  });

  it("opens a DM, rejects a wrong token and unknown channels", async () => {
    const dm = await slack.conversations.open({ users: "U0FAKE002" });
    expect(dm.channel?.id).toBe(fake.dmChannelOf("U0FAKE002"));
    await slack.chat.postMessage({ channel: dm.channel?.id as string, text: "your standup" });
    expect(fake.messagesIn("D0FAKE002")).toHaveLength(1);
    const bad = new WebClient("xoxb-wrong", { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    await expect(bad.auth.test()).rejects.toMatchObject({ data: { error: "invalid_auth" } });
    await expect(slack.chat.postMessage({ channel: "C0NOPE", text: "x" })).rejects.toMatchObject({ data: { error: "channel_not_found" } });
  });

  it("pages users and channel members with next_cursor", async () => {
    const first = await slack.users.list({ limit: 2 });
    expect(first.members).toHaveLength(2);
    const second = await slack.users.list({ limit: 2, cursor: first.response_metadata?.next_cursor });
    expect(second.members?.map((m) => m.id)).toEqual(["U0FAKE003", "U0FAKEBOT"]);
    expect(second.response_metadata?.next_cursor).toBe("");
    const members = await slack.conversations.members({ channel: "C0FAKEENG" });
    expect(members.members).toEqual(["U0FAKE001", "U0FAKE003"]);
  });

  it("answers 429 with Retry-After, which the SDK honours before retrying", async () => {
    fake.failNext("chat.postMessage", { retryAfter: 1 });
    const started = Date.now();
    const r = await slack.chat.postMessage({ channel: "C0FAKEGEN", text: "after the limit" });
    expect(r.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(
      fake
        .callsOf("chat.postMessage")
        .slice(-2)
        .map((c) => c.status),
    ).toEqual([429, 200]);
  });

  it("opens views (modals)", async () => {
    const r = await slack.views.open({
      trigger_id: "1.2.3",
      view: { type: "modal", title: { type: "plain_text", text: "Standup" }, blocks: [] },
    });
    expect(r.view?.id).toMatch(/^V0FAKE/);
    expect(fake.views).toHaveLength(1);
  });
});

describe("SMTP sink", () => {
  it("receives and parses mail sent with nodemailer, and can fail temporarily", async () => {
    const sink = await startSmtpSink();
    try {
      const transport = nodemailer.createTransport(sink.url);
      sink.failNext(1);
      await expect(transport.sendMail({ from: "a@example.test", to: "b@example.test", subject: "s", text: "t" })).rejects.toThrow(/451/);
      await transport.sendMail({
        from: "a@example.test",
        to: "b@example.test",
        subject: "Your standup",
        text: "Answer: https://x.test/a?t=1",
      });
      expect(sink.messages).toHaveLength(1);
      expect(sink.messages[0]).toMatchObject({ from: "a@example.test", to: ["b@example.test"], subject: "Your standup" });
      expect(sink.messages[0].text).toContain("https://x.test/a?t=1");
      transport.close();
    } finally {
      await sink.close();
    }
  });
});

describe("webhook receiver", () => {
  it("accepts correctly signed deliveries and rejects others", async () => {
    const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
    const receiver = await startWebhookReceiver({ secret });
    try {
      const body = JSON.stringify({ type: "report.submitted", timestamp: new Date().toISOString(), data: { id: 1 } });
      const id = "msg_1";
      const now = new Date();
      const signature = new Webhook(secret).sign(id, now, body);
      const headers = {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      };
      receiver.respondWith([500]);
      expect((await fetch(receiver.url, { method: "POST", body, headers: { ...headers, "webhook-signature": signature } })).status).toBe(
        500,
      );
      expect((await fetch(receiver.url, { method: "POST", body, headers: { ...headers, "webhook-signature": signature } })).status).toBe(
        200,
      );
      expect((await fetch(receiver.url, { method: "POST", body, headers: { ...headers, "webhook-signature": "v1,AAAA" } })).status).toBe(
        401,
      );
      expect(receiver.accepted()).toHaveLength(1);
      expect(receiver.accepted()[0].payload?.type).toBe("report.submitted");
    } finally {
      await receiver.close();
    }
  });
});
