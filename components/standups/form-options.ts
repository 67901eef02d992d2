import { listTeamChannels } from "@/lib/chat/builtin";
import { listTeamMembers } from "@/lib/domain/absences";
import type { Actor } from "@/lib/domain/actor";

/** IANA timezones known to the runtime, UTC first. */
export function timezoneList(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}

/** Channel and member options of the standup/poll forms (team-scoped). */
export async function loadFormOptions(actor: Actor) {
  const [channels, members] = await Promise.all([listTeamChannels(actor), listTeamMembers(actor)]);
  return {
    channels: channels.map((c) => ({ value: c.chatId, label: `#${c.name}` })),
    members: members.map((m) => ({ value: m.chatId, label: m.realname })),
    timezones: timezoneList(),
  };
}
