/**
 * The HTTP edge of Slack's inbound requests (app/integrations/slack/*): reads the raw body (at
 * most 1 MB, counted while reading: 413 beyond), verifies the signature with `SLACK_SIGNING_SECRET` (401 when it fails,
 * 503 when Slack is not configured) and hands the body to a handler. Slack retries what is not
 * answered within 3 s, so handlers do little and leave sending to the delivery jobs.
 */
import { slackRequestProblem } from "@/lib/chat/slack-verify";
import { deliverySettings } from "@/lib/env";
import { readBodyBytes } from "@/lib/http/body";

const MAX_BODY_BYTES = 1_000_000;

const reply = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: body === null ? {} : { "content-type": "application/json; charset=utf-8" },
  });

/** Wraps a handler of a verified raw body into a route handler. */
export function slackRoute(handle: (rawBody: string, request: Request) => Promise<{ status: number; body: unknown }>) {
  return async (request: Request): Promise<Response> => {
    const secret = deliverySettings().slackSigningSecret;
    if (!secret) return reply(503, { error: "Slack is not configured on this server (SLACK_SIGNING_SECRET is unset)" });
    const bytes = await readBodyBytes(request, MAX_BODY_BYTES).catch(() => undefined);
    if (bytes === undefined) return reply(400, { error: "The request body was not received completely" });
    if (bytes === null) return reply(413, { error: "Request body too large" });
    const raw = Buffer.from(bytes).toString("utf8");
    const problem = slackRequestProblem(
      secret,
      { timestamp: request.headers.get("x-slack-request-timestamp"), signature: request.headers.get("x-slack-signature") },
      raw,
    );
    if (problem) return reply(401, { error: `Invalid Slack request: ${problem}` });
    try {
      const r = await handle(raw, request);
      return reply(r.status, r.body);
    } catch (err) {
      console.error(`slack: inbound request failed: ${(err as Error)?.message ?? err}`);
      return reply(500, { error: "Internal error" });
    }
  };
}
