/**
 * Points the app's Slack settings at a fake Slack Web API (tests/fakes/slack.ts) for the tests that
 * call the Slack routes or run the Slack sync in-process.
 */
import type { DeliveryConfig } from "@/lib/chat/config";
import { db } from "@/lib/db";
import type { FakeSlack } from "@/tests/fakes/slack";

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
