/**
 * GET /v1/standups/ (spec §4.3): the caller's standups as a bare array of v1 standups
 * (`admin=true` lists every standup of the team for team admins).
 * POST /v1/standups/: creates a standup through the shared domain (`createStandup`, the same as
 * POST /v2/standups) and answers the v1 standup (wait_time -1 for "no automatic asking").
 */
import { json } from "@/lib/api/errors";
import { readJson } from "@/lib/api/query";
import { apiPath, served } from "@/lib/api/route";
import { parseV1StandupCreateBody, v1StandupCreateBody } from "@/lib/api/v1/standup-requests";
import { listStandupsV1, serializeStandupV1, standupV1Schema } from "@/lib/api/v1/standups";
import { createStandupFromConfig } from "@/lib/domain/standup-writes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/standups/", {
  GET: listStandupsV1,
  POST: served(
    {
      tag: "Legacy standups (v1)",
      id: "createStandupV1",
      summary: "Create a standup",
      description:
        "Participants come from `users`, or from the channel when `sync_channel_members` is true. " +
        "`questions` default to three standard questions; `wait_time` null or -1 means no automatic asking.",
      body: { schema: v1StandupCreateBody },
      response: { description: "The v1 standup (`wait_time` -1 for no automatic asking).", schema: standupV1Schema },
      errors: [400],
    },
    async ({ request, actor }) => {
      const input = parseV1StandupCreateBody(await readJson(request));
      const row = await createStandupFromConfig(actor, input);
      return json(serializeStandupV1(row, { noWaitTime: -1 }));
    },
  ),
});
