/** GET /v1/polls/{id} (spec §4.3): a poll of the team the caller takes part in or created; else 404. */
import { json } from "@/lib/api/errors";
import { v1IdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { pollV1Schema, serializePollV1 } from "@/lib/api/v1/polls";
import { getPollSettings } from "@/lib/domain/polls";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/polls/{id}", {
  GET: served(
    {
      tag: "Legacy polls (v1)",
      id: "getPollV1",
      summary: "Get a poll of the team accessible to the caller",
      path: v1IdPath("Poll"),
      response: { description: "The v1 poll.", schema: pollV1Schema },
      errors: [404],
    },
    async ({ actor, id }) => {
      const row = await getPollSettings(actor, id);
      return json(serializePollV1(row));
    },
  ),
});
