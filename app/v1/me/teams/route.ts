/** GET /v1/me/teams (spec §4.2, §2.7): `{teams: [...]}`, currently only the API key's team. */
import { apiPath, readRouteV1 } from "@/lib/api/route";
import { myTeamsV1Schema, serializeMyTeamV1 } from "@/lib/api/v1/users";
import { listMyTeams } from "@/lib/domain/me";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/me/teams", {
  GET: readRouteV1(
    { tag: "Users and teams", id: "listMyTeams", summary: "The caller's teams (currently only the team of the API key)" },
    { description: "`{teams: [...]}`.", schema: myTeamsV1Schema },
    { load: ({ actor }) => listMyTeams(actor), serialize: (teams) => ({ teams: teams.map(serializeMyTeamV1) }) },
  ),
});
