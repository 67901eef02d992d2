/**
 * POST /v1/standups/{id}/start (spec §4.3, compatibility.md): starts today's occurrence now for
 * every member, or only for the given `users` / `user_ids` / `emails`; the body may be absent.
 * Replies 200 with the JSON string "ok".
 */
import { json } from "@/lib/api/errors";
import { readJson, v1IdPath } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { parseV1StandupStartBody, zStart } from "@/lib/api/v1/standup-requests";
import { startedV1Schema } from "@/lib/api/v1/standups";
import { startStandup } from "@/lib/domain/occurrences";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/standups/{id}/start", {
  POST: served(
    {
      tag: "Legacy standups (v1)",
      id: "startStandupV1",
      summary: "Start a standup now",
      description:
        "Runs for every member, or only for the given `users` / `user_ids` / `emails`. The body may be absent. " +
        "Drafts cannot be started (422).",
      path: v1IdPath("Standup"),
      body: { schema: zStart, required: false },
      response: { description: 'The JSON string "ok".', schema: startedV1Schema },
      errors: [400, 404, 422],
    },
    async ({ request, actor, id }) => {
      const targets = parseV1StandupStartBody(await readJson(request, { allowEmpty: true }));
      await startStandup(actor, id, targets);
      return json("ok");
    },
  ),
});
