/**
 * Question types in Slack (issue 41 item 12): the answer modal the fake Slack receives holds one
 * input element per type (rating radio buttons over the labelled scale, number a decimal
 * number_input, multi-select checkboxes, multiple choice a select, optional questions as optional
 * blocks), and a modal submission of those elements stores the canonical answers; a bad one is
 * shown on the block of its question.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as interactionsRoute } from "@/app/integrations/slack/interactions/route";
import { db } from "@/lib/db";
import type { FakeSlack } from "@/tests/fakes/slack";
import { openAnswerModal, postSignedToSlack, slackInteractionBody, teamOnFakeSlack } from "@/tests/fakes/slack-env";
import { createTestCheckin, type TestTeam } from "@/tests/fixtures";

const SECRET = "slack-signing-secret-for-question-types";
let fake: FakeSlack;
let team: TestTeam;

beforeAll(async () => ({ team, fake } = await teamOnFakeSlack(SECRET)));
afterAll(() => fake?.close());

const interaction = (payload: unknown) =>
  postSignedToSlack(interactionsRoute, "/integrations/slack/interactions", slackInteractionBody(payload), { secret: SECRET });

type Block = {
  block_id: string;
  optional: boolean;
  hint?: unknown;
  element: { type: string; options?: Array<{ text: { text: string }; value: string }>; is_decimal_allowed?: boolean };
};

describe("Slack answer modal: question types", () => {
  it("renders each type as its own element and submits the modal's values as canonical answers", async () => {
    const standup = await createTestCheckin(team, {
      name: "Typed in Slack",
      days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
      questions: [
        { text: "Mood?", answer_type: "rating" },
        { text: "Hours?", answer_type: "number" },
        { text: "Areas?", answer_type: "multi_select", choices: ["Planning", "Review", "Testing"] },
        { text: "Where?", choices: ["Office", "Home"] },
        { text: "Anything else?" },
      ],
    });
    const [mood, hours, areas, where, extra] = standup.questions;
    await db.question.update({
      where: { id: mood.id },
      data: { scale_min: 1, scale_max: 5, scale_labels: ["Awful", "Bad", "Okay", "Good", "Great"] },
    });
    await db.question.update({ where: { id: extra.id }, data: { optional: true } });
    const member = team.users[1];
    const { occurrence, view } = await openAnswerModal(interaction, fake, { user: member, checkin: standup, triggerId: "777.888" });
    const blocks = view.blocks as Block[];
    expect(blocks.map((b) => [b.block_id, b.element.type, b.optional])).toEqual([
      [`q${mood.id}`, "radio_buttons", false],
      [`q${hours.id}`, "number_input", false],
      [`q${areas.id}`, "checkboxes", false],
      [`q${where.id}`, "static_select", false],
      [`q${extra.id}`, "plain_text_input", true],
    ]);
    expect(blocks[0].element.options?.map((o) => [o.value, o.text.text])).toEqual([
      ["1", "1 – Awful"],
      ["2", "2 – Bad"],
      ["3", "3 – Okay"],
      ["4", "4 – Good"],
      ["5", "5 – Great"],
    ]);
    expect(blocks[1].element.is_decimal_allowed).toBe(true);
    expect(blocks[2].element.options?.map((o) => o.value)).toEqual(["Planning", "Review", "Testing"]);
    expect(blocks[4].hint).toBeTruthy();

    const values = {
      [`q${mood.id}`]: { answer: { type: "radio_buttons", selected_option: { value: "4" } } },
      [`q${hours.id}`]: { answer: { type: "number_input", value: "2.5" } },
      [`q${areas.id}`]: { answer: { type: "checkboxes", selected_options: [{ value: "Testing" }, { value: "Planning" }] } },
      [`q${where.id}`]: { answer: { type: "static_select", selected_option: { value: "Home" } } },
      [`q${extra.id}`]: { answer: { type: "plain_text_input", value: null } },
    };
    const submitWith = (v: Record<string, unknown>) =>
      interaction({
        type: "view_submission",
        user: { id: member.chat_id },
        view: { callback_id: "report_form", private_metadata: JSON.stringify({ o: occurrence.id }), state: { values: v } },
      });

    // No rating picked: refused on the rating's block, nothing stored.
    const missing = await submitWith({ ...values, [`q${mood.id}`]: { answer: { type: "radio_buttons", selected_option: null } } });
    expect(await missing.json()).toMatchObject({
      response_action: "errors",
      errors: { [`q${mood.id}`]: expect.stringContaining("required") },
    });
    // An unknown choice: refused on the multi-select's block.
    const unknown = await submitWith({
      ...values,
      [`q${areas.id}`]: { answer: { type: "checkboxes", selected_options: [{ value: "Cooking" }] } },
    });
    expect(await unknown.json()).toMatchObject({
      response_action: "errors",
      errors: { [`q${areas.id}`]: expect.stringContaining("Cooking") },
    });
    expect(await db.report.count({ where: { checkin_id: standup.id, status: "submitted" } })).toBe(0);

    const submit = await submitWith(values);
    expect(submit.status).toBe(200);
    expect(await submit.text()).toBe("");
    const report = await db.report.findFirstOrThrow({
      where: { checkin_id: standup.id, user_id: member.id, status: "submitted" },
      include: { answers: { orderBy: { question_id: "asc" } } },
    });
    // The optional question left empty is not answered.
    expect(report.answers.map((a) => [a.question_id, a.text])).toEqual([
      [mood.id, "4"],
      [hours.id, "2.5"],
      [areas.id, "Planning\nTesting"],
      [where.id, "Home"],
    ]);
  });
});
