/** GET /v1/teams/ (spec §4.2, §2.7): the API key's team as one object, with the users of visible standups. */
import { apiPath, readRouteV1 } from "@/lib/api/route";
import { serializeTeamWithUsersV1, teamV1Schema } from "@/lib/api/v1/users";
import { getTeamWithUsers } from "@/lib/domain/me";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/teams/", {
  GET: readRouteV1(
    { tag: "Users and teams", id: "getTeam", summary: "The team of the API key with the users of visible standups" },
    { description: "The team, as one object.", schema: teamV1Schema },
    { load: ({ actor }) => getTeamWithUsers(actor), serialize: serializeTeamWithUsersV1 },
  ),
});
