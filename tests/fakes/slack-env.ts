/**
 * Points the app's Slack settings at a fake Slack Web API (tests/fakes/slack.ts) for the tests that
 * call the Slack routes or run the Slack sync in-process.
 */
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
