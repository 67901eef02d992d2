import { listTeamMembers } from "@/lib/domain/absences";
import type { Actor } from "@/lib/domain/actor";
import { listTeamChannels } from "@/lib/domain/channel-feed";
import { timezoneOptions } from "@/lib/domain/timezones";

/** IANA timezones for a picker, UTC first, canonical names included (`timezoneOptions` of lib/domain/timezones.ts). */
export function timezoneList(current?: string | null): string[] {
  return timezoneOptions(current);
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
