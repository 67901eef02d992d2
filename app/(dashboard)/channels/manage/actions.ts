"use server";

import type { ActionState } from "@/components/ui/action-form";
import { createChannel, renameChannel, setChannelArchived, setChannelMembers } from "@/lib/domain/channel-admin";
import { actorFormAction, field, type RevalidateTarget } from "../../form-action";

/** What every action of this page revalidates. */
const REVALIDATE: RevalidateTarget[] = [["/channels", "layout"]];

/** Creates a built-in channel (admins). */
export async function createChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(REVALIDATE, async (actor) => {
    await createChannel(actor, { name: field(form, "name"), topic: field(form, "topic") });
    return { ok: "Channel created." };
  });
}

/** Renames a channel (admins). */
export async function renameChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(REVALIDATE, async (actor) => {
    await renameChannel(actor, { channelId: Number(field(form, "channelId")), name: field(form, "name") });
    return { ok: "Renamed." };
  });
}

/** Archives or unarchives a channel (admins). */
export async function archiveChannelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(REVALIDATE, async (actor) => {
    await setChannelArchived(actor, { channelId: Number(field(form, "channelId")), archived: field(form, "archived") === "true" });
    return { ok: field(form, "archived") === "true" ? "Archived." : "Unarchived." };
  });
}

/** Sets the members of a channel to the checked people (admins). */
export async function channelMembersAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(REVALIDATE, async (actor) => {
    const { added, removed } = await setChannelMembers(actor, {
      channelId: Number(field(form, "channelId")),
      userIds: form.getAll("userIds").map((v) => Number(v)),
    });
    return { ok: `Members saved (${added.length} added, ${removed.length} removed).` };
  });
}
