/**
 * POST /integrations/slack/interactions — Slack's interactivity request URL (issue 9): button
 * clicks (Answer, poll choices) and modal submissions, form-encoded `payload=<json>`.
 * Signature-checked by lib/chat/slack-inbound.ts; handled by lib/chat/slack-interactions.ts.
 */
import { slackRoute } from "@/lib/chat/slack-inbound";
import { handleSlackInteraction } from "@/lib/chat/slack-interactions";

export const POST = slackRoute(async (raw) => {
  const payload = new URLSearchParams(raw).get("payload");
  if (!payload) return { status: 400, body: { error: "Missing payload" } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return { status: 400, body: { error: "payload is not JSON" } };
  }
  return handleSlackInteraction(parsed as Parameters<typeof handleSlackInteraction>[0]);
});
