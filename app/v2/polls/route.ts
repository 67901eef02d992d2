/**
 * GET /v2/polls (spec §4.2): the caller's active and paused polls, filters of §4.1, list envelope.
 * POST /v2/polls: creates a one-shot poll broadcast now to `broadcast_channel`; 201 `{data: poll}`
 * (always with `questions`). Accepts `Idempotency-Key`.
 */
import { apiPath, listRoute } from "@/lib/api/route";
import { checkinCreateMethod } from "@/lib/api/v2/checkin-create";
import { pollCreateBodySchema, pollDataV2Schema, pollListV2Schema, toCreatePollInput } from "@/lib/api/v2/polls";
import { checkinList } from "@/lib/api/v2/standups";
import { listCheckinWires } from "@/lib/api/v2/standups-sql";
import { createPoll, getPoll } from "@/lib/domain/polls";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/polls", {
  GET: listRoute(
    { tag: "Polls", id: "listPolls", summary: "List the caller's active and paused polls" },
    { description: "List envelope of polls.", schema: pollListV2Schema },
    checkinList("v2.polls", listCheckinWires),
  ),
  POST: checkinCreateMethod(
    {
      tag: "Polls",
      id: "createPoll",
      summary: "Create a one-shot poll posted to a channel",
      description: "Members are synced from `broadcast_channel`. The response always carries `questions`.",
      response: { status: 201, description: "`{data: poll}`.", schema: pollDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER", "CHANNEL_NOT_FOUND"], 422: true },
    },
    {
      route: "/v2/polls",
      bodySchema: pollCreateBodySchema,
      toInput: toCreatePollInput,
      create: createPoll,
      read: getPoll,
    },
  ),
});
