/** GET /v1/me/teams (spec §4.2, §2.7): `{teams: [...]}`, currently only the API key's team. */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { serializeMyTeamV1 } from "@/lib/api/v1/users";
import { listMyTeams } from "@/lib/domain/me";

export const GET = apiRoute("v1", async ({ actor }) => {
  const teams = await listMyTeams(actor);
  return json({ teams: teams.map(serializeMyTeamV1) });
});

export const OPTIONS = preflight;
