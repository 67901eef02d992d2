/** GET /v1/polls/{id} (spec §4.3): a poll of the team the caller takes part in or created; else 404. */
import { json } from "@/lib/api/errors";
import { apiRoute } from "@/lib/api/handler";
import { parseId, v1IdPath } from "@/lib/api/query";
import { apiPath } from "@/lib/api/route";
import { pollV1Schema, serializePollV1 } from "@/lib/api/v1/polls";
import { getPollSettings } from "@/lib/domain/polls";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/polls/{id}", {
  GET: {
    doc: {
      tag: "Legacy polls (v1)",
      id: "getPollV1",
      summary: "Get a poll of the team accessible to the caller",
      path: v1IdPath("Poll"),
      response: { description: "The v1 poll.", schema: pollV1Schema },
      errors: [404],
    },
    handler: apiRoute<{ id: string }>("v1", async ({ actor, params }) => {
      const row = await getPollSettings(actor, parseId(params.id, "Poll"));
      return json(serializePollV1(row));
    }),
  },
});
