/** GET /v1/me/teams (spec §4.2, §2.7): `{teams: [...]}`, currently only the API key's team. */
import { json } from "@/lib/api/errors";
import { apiPath, served } from "@/lib/api/route";
import { myTeamsV1Schema, serializeMyTeamV1 } from "@/lib/api/v1/users";
import { listMyTeams } from "@/lib/domain/me";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/me/teams", {
  GET: served(
    {
      tag: "Users and teams",
      id: "listMyTeams",
      summary: "The caller's teams (currently only the team of the API key)",
      response: { description: "`{teams: [...]}`.", schema: myTeamsV1Schema },
    },
    async ({ actor }) => {
      const teams = await listMyTeams(actor);
      return json({ teams: teams.map(serializeMyTeamV1) });
    },
  ),
});
