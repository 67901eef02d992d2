/**
 * GET /v2/polls (spec §4.2): the caller's active and paused polls, filters of §4.1, list envelope.
 * POST /v2/polls: creates a one-shot poll broadcast now to `broadcast_channel`; 201 `{data: poll}`
 * (always with `questions`). Accepts `Idempotency-Key`.
 */
import { apiWriteRoute } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import { apiPath, listRoute } from "@/lib/api/route";
import { pollCreateBodySchema, pollDataV2Schema, pollListV2Schema, serializePollV2, toCreatePollInput } from "@/lib/api/v2/polls";
import { checkinList, checkinReadQuerySchema } from "@/lib/api/v2/standups";
import { listCheckinWires } from "@/lib/api/v2/standups-sql";
import { createPoll, getPoll } from "@/lib/domain/polls";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls", {
  GET: listRoute(
    { tag: "Polls", id: "listPolls", summary: "List the caller's active and paused polls" },
    { description: "List envelope of polls.", schema: pollListV2Schema },
    checkinList("v2.polls", listCheckinWires),
  ),
  POST: {
    doc: {
      tag: "Polls",
      id: "createPoll",
      summary: "Create a one-shot poll posted to a channel",
      description: "Members are synced from `broadcast_channel`. The response always carries `questions`.",
      query: checkinReadQuerySchema,
      body: { schema: pollCreateBodySchema },
      response: { status: 201, description: "`{data: poll}`.", schema: pollDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER", "CHANNEL_NOT_FOUND"], 422: true },
    },
    handler: apiWriteRoute({
      route: "/v2/polls",
      body: "json",
      parse: ({ url, body }) => ({
        include: new Set([...parseWith(checkinReadQuerySchema, queryObject(url)).include, "questions" as const]),
        poll: toCreatePollInput(parseWith(pollCreateBodySchema, body)),
      }),
      run: async ({ actor, input, tx }) => {
        const { id } = await createPoll(actor, input.poll, tx);
        const row = await getPoll(actor, id, { withQuestions: true }, tx);
        return { status: 201, body: { data: serializePollV2(row, input.include) } };
      },
    }),
  },
});
