/**
 * POST /integrations/slack/events — Slack's Events API request URL (issue 9). Answers the
 * `url_verification` challenge; other events are acknowledged (the app subscribes to none that
 * need work yet). Signature-checked by lib/chat/slack-inbound.ts.
 */
import { slackRoute } from "@/lib/chat/slack-inbound";

export const POST = slackRoute(async (raw) => {
  let body: { type?: string; challenge?: string };
  try {
    body = JSON.parse(raw);
  } catch {
    return { status: 400, body: { error: "Body is not JSON" } };
  }
  if (body.type === "url_verification") return { status: 200, body: { challenge: body.challenge ?? "" } };
  return { status: 200, body: null };
});
