"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/components/ui/action-form";
import { getActor } from "@/lib/auth/session";
import { createChannel, renameChannel, setChannelArchived, setChannelMembers } from "@/lib/domain/channel-admin";
import { field, formAction } from "../../form-action";

function refresh() {
  revalidatePath("/channels", "layout");
}

/** Creates a built-in channel (admins). */
export async function createChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await getActor();
  const result = await formAction(async () => {
    await createChannel(actor, { name: field(form, "name"), topic: field(form, "topic") });
    return { ok: "Channel created." };
  });
  refresh();
  return result;
}

/** Renames a channel (admins). */
export async function renameChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await getActor();
  const result = await formAction(async () => {
    await renameChannel(actor, { channelId: Number(field(form, "channelId")), name: field(form, "name") });
    return { ok: "Renamed." };
  });
  refresh();
  return result;
}

/** Archives or unarchives a channel (admins). */
export async function archiveChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await getActor();
  const result = await formAction(async () => {
    await setChannelArchived(actor, { channelId: Number(field(form, "channelId")), archived: field(form, "archived") === "true" });
    return { ok: field(form, "archived") === "true" ? "Archived." : "Unarchived." };
  });
  refresh();
  return result;
}

/** Sets the members of a channel to the checked people (admins). */
export async function channelMembersAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await getActor();
  const result = await formAction(async () => {
    const { added, removed } = await setChannelMembers(actor, {
      channelId: Number(field(form, "channelId")),
      userIds: form.getAll("userIds").map((v) => Number(v)),
    });
    return { ok: `Members saved (${added.length} added, ${removed.length} removed).` };
  });
  refresh();
  return result;
}
