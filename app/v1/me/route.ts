/** GET /v1/me (spec §4.2, §2.7): `{user, team}` of the API key. */
import { apiPath, readRouteV1 } from "@/lib/api/route";
import { meV1Schema, serializeCurrentUserV1, serializeTeamV1 } from "@/lib/api/v1/users";
import { getMe } from "@/lib/domain/me";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v1/me", {
  GET: readRouteV1(
    { tag: "Users and teams", id: "getMe", summary: "The authenticated user and the team of the API key" },
    { description: "`{user, team}`.", schema: meV1Schema },
    {
      load: ({ actor }) => getMe(actor),
      serialize: ({ user, team }) => ({ user: serializeCurrentUserV1(user), team: serializeTeamV1(team) }),
    },
  ),
});
