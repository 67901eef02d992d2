import { getStandupForV1 } from "@/lib/domain/standup-admin";
import { canManageStandup } from "@/lib/domain/standup-state";
import { orNotFound, readIdParam, requireUser } from "../../load";

/** What the standup detail and edit pages both start from: the id, the user, the standup and whether the user may manage it. */
export async function loadStandupPage(params: Promise<{ id: string }>) {
  const id = await readIdParam(params);
  const user = await requireUser();
  const standup = await orNotFound(getStandupForV1(user, id, undefined, { teamWide: true }));
  return { id, user, standup, manage: canManageStandup(user, standup.owner.chat_id) };
}
