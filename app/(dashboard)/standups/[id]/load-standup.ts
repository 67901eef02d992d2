import { canEditStandup } from "@/lib/domain/access";
import { getStandupSettings } from "@/lib/domain/standups";
import { orNotFound, readIdParam, requireUser } from "../../load";

/** What the standup detail and edit pages both start from: the id, the user, the standup and whether the user may manage it. */
export async function loadStandupPage(params: Promise<{ id: string }>) {
  const id = await readIdParam(params);
  const user = await requireUser();
  const standup = await orNotFound(getStandupSettings(user, id, undefined, "readers"));
  return { id, user, standup, manage: canEditStandup(user, { owner_id: standup.owner.id }) };
}
