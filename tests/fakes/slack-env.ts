/**
 * Points the app's Slack settings at a fake Slack Web API (tests/fakes/slack.ts) for the tests that
 * call the Slack routes or run the Slack sync in-process.
 */
import { expect } from "vitest";
import type { DeliveryConfig } from "@/lib/chat/config";
import { signSlackRequest } from "@/lib/chat/slack-verify";
import { db } from "@/lib/db";
import { type JobWorker, startWorker } from "@/lib/jobs/worker";
import { type FakeSlack, startFakeSlack } from "@/tests/fakes/slack";
import { createTestTeam, createTodayOccurrence, type TestTeam } from "@/tests/fixtures";

/**
 * Sets SLACK_SIGNING_SECRET (`signingSecret`), SLACK_BOT_TOKEN and SLACK_API_URL (those of `fake`)
 * and SLACK_TEAM (the chat id of team `teamId`, read from the database) in process.env.
 * @throws when the team does not exist
 */
export async function pointSlackEnvAtFake(fake: FakeSlack, teamId: number, signingSecret: string): Promise<void> {
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId } });
  Object.assign(process.env, {
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_BOT_TOKEN: fake.token,
    SLACK_API_URL: fake.apiUrl,
    SLACK_TEAM: team.chat_id,
  });
}

/** A new test team of `members` members and a fake Slack (default workspace) the app's Slack settings point at, signing with `signingSecret`; close `fake` in afterAll. */
export async function teamOnFakeSlack(signingSecret: string, members = 2): Promise<{ team: TestTeam; fake: FakeSlack }> {
  const team = await createTestTeam({ members });
  const fake = await startFakeSlack();
  await pointSlackEnvAtFake(fake, team.id, signingSecret);
  return { team, fake };
}

/**
 * Calls a Slack route handler (`route`, served at `path`) in-process with `body` signed the way Slack
 * signs it: with `secret` at `at` (Unix seconds, default now).
 */
export function postSignedToSlack(
  route: (r: Request) => Promise<Response>,
  path: string,
  body: string,
  opts: { secret: string; at?: number },
): Promise<Response> {
  const ts = String(opts.at ?? Math.floor(Date.now() / 1000));
  return route(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "x-slack-request-timestamp": ts, "x-slack-signature": signSlackRequest(opts.secret, ts, body) },
      body,
    }),
  );
}

/** The form body Slack posts an interactivity `payload` in (`payload=<JSON>`). */
export function slackInteractionBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/**
 * Opens today's run of `checkin` (`createTodayOccurrence`) and clicks its Answer button as `user`:
 * posts the block_actions interaction with `triggerId` through `interaction` (a signed post to the
 * interactivity route), expects 200 and that `fake` opened a view with that trigger. Returns the
 * run and that view (the answer modal).
 */
export async function openAnswerModal(
  interaction: (payload: unknown) => Promise<Response>,
  fake: FakeSlack,
  click: { user: { chat_id: string }; checkin: { id: number; team_id: number }; triggerId: string },
) {
  const occurrence = await createTodayOccurrence(click.checkin);
  const res = await interaction({
    type: "block_actions",
    trigger_id: click.triggerId,
    user: { id: click.user.chat_id },
    actions: [{ action_id: "open_report_form", value: String(occurrence.id) }],
  });
  expect(res.status).toBe(200);
  const opened = fake.views.at(-1);
  expect(opened?.trigger_id).toBe(click.triggerId);
  return { occurrence, view: opened?.view as FakeSlack["views"][number]["view"] };
}

/** The delivery config of a worker that delivers to `fake` for the team with chat id `teamChatId` (no SMTP, private webhook targets allowed). */
export function slackDeliveryConfig(fake: FakeSlack, teamChatId: string): DeliveryConfig {
  return {
    slack: { token: fake.token, apiUrl: fake.apiUrl, team: teamChatId },
    smtp: null,
    publicUrl: "http://localhost",
    linkSecret: "x",
    webhookRetryDelays: [1],
    webhooksAllowPrivate: true,
  };
}

/**
 * A fake Slack that knows `team`'s people and its first two channels (the first with everyone as
 * members, the second empty), as the delivery tests set it up.
 */
export function startFakeSlackForTeam(team: TestTeam): Promise<FakeSlack> {
  const [general, eng] = team.channels;
  return startFakeSlack({
    users: team.users.map((u) => ({ id: u.chat_id, name: u.username, real_name: u.realname, email: u.email })),
    channels: [
      { id: general.chat_id, name: general.name, members: team.users.map((u) => u.chat_id) },
      { id: eng.chat_id, name: eng.name, members: [] },
    ],
  });
}

/** A job worker of this test process (no crontab, quiet) that delivers to `fake` for team `teamChatId`; stop it in afterAll. */
export function startSlackDeliveryWorker(fake: FakeSlack, teamChatId: string): Promise<JobWorker> {
  return startWorker({
    connectionString: process.env.DATABASE_URL as string,
    log: () => {},
    crontab: "",
    delivery: slackDeliveryConfig(fake, teamChatId),
  });
}
