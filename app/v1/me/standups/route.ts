/**
 * GET /v1/me/standups (spec §4.2): alias of GET /v1/standups/ — a bare array of v1 standups the
 * caller takes part in or created; `admin=true` lists every standup of the team for team admins.
 */
import { apiPath } from "@/lib/api/route";
import { listStandupsV1 } from "@/lib/api/v1/standups";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/me/standups", {
  GET: {
    ...listStandupsV1,
    doc: {
      ...listStandupsV1.doc,
      tag: "Users and teams",
      id: "listMyStandups",
      summary: "Alias of GET /v1/standups/",
      description: undefined,
    },
  },
});
