/**
 * /v2/standups (spec §4.2): GET lists the standups visible to the caller (filters of §4.1, list
 * envelope); POST creates a non-confidential standup owned by the caller — 201 `{data: standup}`,
 * `Idempotency-Key` accepted; the response always carries `questions` (the caller needs their ids
 * to submit reports) and `include` adds member fields as on GET.
 */
import { apiPath, listRoute } from "@/lib/api/route";
import { checkinCreateMethod } from "@/lib/api/v2/checkin-create";
import { standupCreateBodySchema, toCreateStandupInput } from "@/lib/api/v2/standup-create";
import { checkinList, standupDataV2Schema, standupListV2Schema } from "@/lib/api/v2/standups";
import { listCheckinWires } from "@/lib/api/v2/standups-sql";
import { createStandup } from "@/lib/domain/standup-writes";
import { getStandup } from "@/lib/domain/standups";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/standups", {
  GET: listRoute(
    { tag: "Standups", id: "listStandups", summary: "List active and paused standups visible to the caller" },
    { description: "List envelope of standups.", schema: standupListV2Schema },
    checkinList("v2.standups", listCheckinWires),
  ),
  POST: checkinCreateMethod(
    {
      tag: "Standups",
      id: "createStandup",
      summary: "Create a non-confidential standup",
      description:
        "Members come from `users` if given, otherwise from `sync_channel`, falling back to `broadcast_channel`. " +
        "The response always carries `questions`. Question types beyond text and multiple choice (extensions): `answer_type` " +
        "`rating` (with `scale` {min, max, labels}, default 1 to 5), `number` and `multi_select` (with `choices`); `optional: true` lets " +
        "members leave a question out or blank.",
      response: { status: 201, description: "`{data: standup}`.", schema: standupDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER", "CHANNEL_NOT_FOUND", "USER_NOT_FOUND"], 422: true },
    },
    {
      route: "/v2/standups",
      bodySchema: standupCreateBodySchema,
      toInput: toCreateStandupInput,
      create: createStandup,
      read: getStandup,
    },
  ),
});
