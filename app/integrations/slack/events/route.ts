/**
 * POST /integrations/slack/events — Slack's Events API request URL (issue 9, issue 11). Answers
 * the `url_verification` challenge; workspace and channel membership events (`team_join`,
 * `member_joined_channel`, …) enqueue a people/channel sync; other events are acknowledged.
 * Signature-checked by lib/chat/slack-inbound.ts; the work is lib/chat/slack-sync.ts.
 */
import { slackRoute } from "@/lib/chat/slack-inbound";
import { handleSlackEvent } from "@/lib/chat/slack-sync";

export const POST = slackRoute(handleSlackEvent);
