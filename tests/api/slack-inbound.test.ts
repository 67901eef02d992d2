/**
 * Slack's inbound requests (issue 9): the Events and interactivity route handlers called
 * in-process with bodies signed like Slack signs them; the modal opens on the fake Slack Web API
 * and a modal submission creates the report through the domain (its broadcast waits in the outbox).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as eventsRoute } from "@/app/integrations/slack/events/route";
import { POST as interactionsRoute } from "@/app/integrations/slack/interactions/route";
import { db } from "@/lib/db";
import type { FakeSlack } from "@/tests/fakes/slack";
import { openAnswerModal, postSignedToSlack, slackInteractionBody, teamOnFakeSlack } from "@/tests/fakes/slack-env";
import { createTestCheckin, createTestOccurrence, type TestTeam } from "@/tests/fixtures";

const SECRET = "slack-signing-secret-for-tests";
let fake: FakeSlack;
let team: TestTeam;

beforeAll(async () => ({ team, fake } = await teamOnFakeSlack(SECRET)));
afterAll(() => fake?.close());

const signed = (route: (r: Request) => Promise<Response>, path: string, body: string, opts: { secret?: string; at?: number } = {}) =>
  postSignedToSlack(route, path, body, { secret: SECRET, ...opts });

const interaction = (payload: unknown, opts = {}) =>
  signed(interactionsRoute, "/integrations/slack/interactions", slackInteractionBody(payload), opts);

describe("Slack inbound requests", () => {
  it("answers the Events API url_verification challenge", async () => {
    const r = await signed(eventsRoute, "/integrations/slack/events", JSON.stringify({ type: "url_verification", challenge: "abc123" }));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ challenge: "abc123" });
  });

  it("rejects a wrong signature, a stale timestamp and unsigned requests with 401", async () => {
    const body = JSON.stringify({ type: "url_verification", challenge: "x" });
    expect((await signed(eventsRoute, "/integrations/slack/events", body, { secret: "wrong" })).status).toBe(401);
    expect((await signed(eventsRoute, "/integrations/slack/events", body, { at: Math.floor(Date.now() / 1000) - 301 })).status).toBe(401);
    const unsigned = await eventsRoute(new Request("http://localhost/integrations/slack/events", { method: "POST", body }));
    expect(unsigned.status).toBe(401);
    expect((await unsigned.json()).error).toMatch(/missing/i);
  });

  it("opens the answer modal from the Answer button and submits the report from the modal", async () => {
    const standup = await createTestCheckin(team, {
      name: "Slack standup",
      questions: [{ text: "What did you do?" }, { text: "Mood?", choices: ["good", "meh"] }],
    });
    const member = team.users[1];
    const { occurrence, view } = await openAnswerModal(interaction, fake, { user: member, checkin: standup, triggerId: "12345.67890" });
    expect(view).toMatchObject({ type: "modal", callback_id: "report_form", private_metadata: JSON.stringify({ o: occurrence.id }) });
    const blocks = view.blocks as Array<{ block_id: string; element: { type: string } }>;
    expect(blocks.map((b) => [b.block_id, b.element.type])).toEqual([
      [`q${standup.questions[0].id}`, "plain_text_input"],
      [`q${standup.questions[1].id}`, "static_select"],
    ]);

    const values = {
      [`q${standup.questions[0].id}`]: { answer: { type: "plain_text_input", value: "Shipped delivery" } },
      [`q${standup.questions[1].id}`]: { answer: { type: "static_select", selected_option: { value: "good" } } },
    };
    const missing = await interaction({
      type: "view_submission",
      user: { id: member.chat_id },
      view: {
        callback_id: "report_form",
        private_metadata: JSON.stringify({ o: occurrence.id }),
        state: { values: { ...values, [`q${standup.questions[0].id}`]: { answer: { value: " " } } } },
      },
    });
    expect(await missing.json()).toMatchObject({
      response_action: "errors",
      errors: { [`q${standup.questions[0].id}`]: expect.any(String) },
    });

    const submit = await interaction({
      type: "view_submission",
      user: { id: member.chat_id },
      view: { callback_id: "report_form", private_metadata: JSON.stringify({ o: occurrence.id }), state: { values } },
    });
    expect(submit.status).toBe(200);
    expect(await submit.text()).toBe("");
    const report = await db.report.findFirstOrThrow({
      where: { checkin_id: standup.id, user_id: member.id, status: "submitted" },
      include: { answers: { orderBy: { question_id: "asc" } } },
    });
    expect(report.answers.map((a) => a.text)).toEqual(["Shipped delivery", "good"]);
    const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: report.id } });
    expect(message).toMatchObject({ kind: "report", delivery_state: "pending" });
    expect(message.text).toContain("Shipped delivery");
  });

  it("records a poll button click as the member's vote through castVote, once per question (a second click replaces it)", async () => {
    const member = team.users[0];
    const poll = await createTestCheckin(team, {
      kind: "poll",
      name: "Slack poll",
      questions: [{ text: "Lunch?", choices: ["Pizza", "Sushi"] }],
    });
    const occurrence = await createTestOccurrence(poll, new Date().toISOString().slice(0, 10), team.users);
    const q = poll.questions[0];
    const click = (choice: string, who = member.chat_id) =>
      interaction({
        type: "block_actions",
        user: { id: who },
        channel: { id: fake.channels[0].id },
        actions: [{ action_id: "poll_vote:0:0", value: JSON.stringify({ p: poll.id, q: q.id, c: choice }) }],
      });
    const ephemeralBefore = fake.callsOf("chat.postEphemeral").length;
    expect((await click("Pizza")).status).toBe(200);
    expect((await click("Pizza")).status).toBe(200);
    let votes = await db.vote.findMany({ where: { occurrence_id: occurrence.id } });
    expect(votes.map((v) => [v.user_id, v.question_id, v.choice])).toEqual([[member.id, q.id, "Pizza"]]);

    expect((await click("Sushi")).status).toBe(200);
    votes = await db.vote.findMany({ where: { occurrence_id: occurrence.id } });
    expect(votes.map((v) => [v.user_id, v.choice])).toEqual([[member.id, "Sushi"]]);

    const acks = fake.callsOf("chat.postEphemeral").slice(ephemeralBefore);
    expect(acks).toHaveLength(3);
    expect(acks[2].args).toMatchObject({ channel: fake.channels[0].id, user: member.chat_id });
    expect(String(acks[2].args.text)).toContain("Sushi");

    // A choice the question does not have is refused (UNKNOWN_CHOICE) and leaves the vote as it was.
    await click("Tacos");
    expect(String(fake.callsOf("chat.postEphemeral").at(-1)?.args.text)).toMatch(/not recorded/);
    expect((await db.vote.findMany({ where: { occurrence_id: occurrence.id } })).map((v) => v.choice)).toEqual(["Sushi"]);
  });

  it("ignores clicks of people who are not members of the team", async () => {
    const before = fake.views.length;
    const r = await interaction({
      type: "block_actions",
      trigger_id: "1.2",
      user: { id: "U0STRANGER" },
      actions: [{ action_id: "open_report_form", value: "1" }],
    });
    expect(r.status).toBe(200);
    expect(fake.views.length).toBe(before);
  });
});
