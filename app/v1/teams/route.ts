/** GET /v1/teams/ (spec §4.2, §2.7): the API key's team as one object, with the users of visible standups. */
import { json } from "@/lib/api/errors";
import { apiRoute, preflight } from "@/lib/api/handler";
import { serializeTeamWithUsersV1 } from "@/lib/api/v1/users";
import { getTeamWithUsers } from "@/lib/domain/me";

export const GET = apiRoute("v1", async ({ actor }) => {
  return json(serializeTeamWithUsersV1(await getTeamWithUsers(actor)));
});

export const OPTIONS = preflight;
