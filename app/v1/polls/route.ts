/**
 * GET /v1/polls (spec §4.3): the polls the caller takes part in or created, as a bare array of v1 polls.
 * POST /v1/polls: creates a one-time poll in the channel (current channel members invited, the
 * caller as creator) through the shared `createPoll` (as POST /v2/polls) and answers the v1 poll.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { readJson } from "@/lib/api/query";
import { notFoundV1 } from "@/lib/api/v1/not-found";
import { serializePollV1 } from "@/lib/api/v1/polls";
import { parseV1PollCreateBody } from "@/lib/api/v1/requests";
import { transaction } from "@/lib/db";
import { createPoll, getPollSettings, listPollSettings } from "@/lib/domain/polls";

export const GET = apiRoute("v1", async ({ actor }) => {
  const rows = await listPollSettings(actor);
  return json(rows.map(serializePollV1));
});

export const POST = apiRoute("v1", async ({ request, actor }) => {
  const body = parseV1PollCreateBody(await readJson(request));
  const input = {
    name: body.name,
    question: body.question,
    choices: body.choices,
    broadcastChannel: body.channel,
    duration: body.duration,
  };
  const row = await transaction(async (tx) => getPollSettings(actor, (await createPoll(actor, input, tx)).id, tx));
  return json(serializePollV1(row));
});

/** Methods this path does not serve: 404 with the v1 error body (lib/api/v1/not-found.ts). */
export const PUT = notFoundV1;
export const PATCH = notFoundV1;
export const DELETE = notFoundV1;
export const OPTIONS = preflight;
