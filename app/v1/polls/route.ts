/**
 * GET /v1/polls (spec §4.3): the polls the caller takes part in or created, as a bare array of v1 polls.
 * POST /v1/polls: creates a one-time poll in the channel (current channel members invited, the
 * caller as creator) through the shared `createPoll` (as POST /v2/polls) and answers the v1 poll.
 */
import { z } from "zod";
import { json } from "@/lib/api/errors";
import { readJson } from "@/lib/api/query";
import { apiPath, readRouteV1, served } from "@/lib/api/route";
import { pollV1Schema, serializePollV1 } from "@/lib/api/v1/polls";
import { parseV1PollCreateBody, zPollCreate } from "@/lib/api/v1/requests";
import { transaction } from "@/lib/db";
import { createPoll, getPollSettings, listPollSettings } from "@/lib/domain/polls";

const tag = "Legacy polls (v1)";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/polls", {
  GET: readRouteV1(
    { tag, id: "listPollsV1", summary: "Polls the caller participates in or created" },
    { description: "Array of v1 polls.", schema: z.array(pollV1Schema) },
    { load: ({ actor }) => listPollSettings(actor), serialize: (rows) => rows.map(serializePollV1) },
  ),
  POST: served(
    {
      tag,
      id: "createPollV1",
      summary: "Create a one-time poll in a channel",
      description: "Current channel members are invited; the caller becomes the creator. `channel` may carry a leading '#'.",
      body: { schema: zPollCreate },
      response: { description: "The v1 poll.", schema: pollV1Schema },
      errors: [400],
    },
    async ({ request, actor }) => {
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
    },
  ),
});
