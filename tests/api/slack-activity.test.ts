/**
 * The Slack answer modal offers the cached activity of the run (issue 48 "Activity pre-fills
 * answers"): the first free-text question's `initial_value`, editable; nothing is posted by opening it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { POST as interactionsRoute } from "@/app/integrations/slack/interactions/route";
import { signSlackRequest } from "@/lib/chat/slack-verify";
import { db } from "@/lib/db";
import { type FakeSlack, startFakeSlack } from "@/tests/fakes/slack";
import { pointSlackEnvAtFake } from "@/tests/fakes/slack-env";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";

const SECRET = "slack-signing-secret-for-activity";
let fake: FakeSlack;
let team: TestTeam;

beforeAll(async () => {
  team = await createTestTeam({ members: 2 });
  fake = await startFakeSlack();
  await pointSlackEnvAtFake(fake, team.id, SECRET);
});
afterAll(() => fake?.close());

function interaction(payload: unknown) {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const ts = String(Math.floor(Date.now() / 1000));
  return interactionsRoute(
    new Request("http://localhost/integrations/slack/interactions", {
      method: "POST",
      headers: { "x-slack-request-timestamp": ts, "x-slack-signature": signSlackRequest(SECRET, ts, body) },
      body,
    }),
  );
}

it("a member with cached activity sees it as the initial value of the first free-text question", async () => {
  const standup = await createTestCheckin(team, {
    questions: [{ text: "Mood?", choices: ["good", "meh"] }, { text: "What did you do?" }, { text: "Blockers?" }],
  });
  const member = team.users[1];
  const occurrence = await db.occurrence.create({
    data: {
      team_id: team.id,
      checkin_id: standup.id,
      date: new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`),
      scheduled_at: new Date(),
    },
  });
  await db.activitySuggestion.create({
    data: {
      team_id: team.id,
      occurrence_id: occurrence.id,
      user_id: member.id,
      since: new Date(Date.now() - 86_400_000),
      fetched_at: new Date(),
      items: [
        {
          source: "github",
          kind: "pr_merged",
          title: "Merged acme/api#12: Fix login",
          url: "https://github.com/acme/api/pull/12",
          at: new Date().toISOString(),
        },
      ],
    },
  });
  const click = await interaction({
    type: "block_actions",
    trigger_id: "111.222",
    user: { id: member.chat_id },
    actions: [{ action_id: "open_report_form", value: String(occurrence.id) }],
  });
  expect(click.status).toBe(200);
  const blocks = fake.views.at(-1)?.view.blocks as Array<{ block_id: string; element: { type: string; initial_value?: string } }>;
  expect(blocks.map((b) => [b.block_id, b.element.initial_value ?? null])).toEqual([
    [`q${standup.questions[0].id}`, null],
    [`q${standup.questions[1].id}`, "- Merged acme/api#12: Fix login (https://github.com/acme/api/pull/12)"],
    [`q${standup.questions[2].id}`, null],
  ]);
  expect(await db.report.count({ where: { occurrence_id: occurrence.id, status: "submitted" } })).toBe(0);
});
