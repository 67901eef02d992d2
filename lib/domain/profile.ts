/**
 * A person's own profile (issue 11): name, timezone (every IANA zone), avatar URL and the channel
 * questions reach them on (Slack DM / e-mail / web only).
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { InvalidParameterError } from "@/lib/domain/errors";
import { normaliseName, normaliseTimezone } from "@/lib/domain/people";
import type { NotificationChannel } from "@/lib/generated/prisma/client";

export const NOTIFICATION_CHANNELS = ["slack_dm", "email", "web"] as const satisfies readonly NotificationChannel[];

export type Profile = {
  realname: string;
  email: string;
  timezone: string;
  avatarUrl: string | null;
  notificationChannel: NotificationChannel;
  role: "admin" | "manager" | "member";
  hasPassword: boolean;
};

/** The actor's own profile. */
export async function getProfile(actor: Actor, tx: Tx = db): Promise<Profile> {
  const u = await tx.user.findUniqueOrThrow({
    where: { id: actor.userId },
    select: { realname: true, email: true, timezone: true, avatar_url: true, notification_channel: true, role: true, password_hash: true },
  });
  return {
    realname: u.realname,
    email: u.email,
    timezone: u.timezone,
    avatarUrl: u.avatar_url,
    notificationChannel: u.notification_channel,
    role: u.role,
    hasPassword: Boolean(u.password_hash),
  };
}

/** An http(s) URL up to 2,000 characters, or null when empty. @throws InvalidParameterError. */
function normaliseAvatarUrl(value: string | null | undefined): string | null {
  const raw = (value ?? "").trim();
  if (raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidParameterError("Avatar URL must be an http(s) URL");
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || raw.length > 2000)
    throw new InvalidParameterError("Avatar URL must be an http(s) URL");
  return url.toString();
}

/**
 * Updates the actor's own profile.
 * @throws InvalidParameterError (empty/long name, unknown timezone, bad URL, unknown channel).
 */
export async function updateProfile(
  actor: Actor,
  input: { name: string; timezone: string; avatarUrl?: string | null; notificationChannel: string },
  tx: Tx = db,
): Promise<void> {
  const name = normaliseName(input.name);
  const timezone = normaliseTimezone(input.timezone);
  const avatar = normaliseAvatarUrl(input.avatarUrl);
  if (!(NOTIFICATION_CHANNELS as readonly string[]).includes(input.notificationChannel))
    throw new InvalidParameterError("Notification channel must be slack_dm, email or web");
  await tx.user.update({
    where: { id: actor.userId },
    data: {
      realname: name,
      firstname: name.split(" ")[0] ?? name,
      timezone,
      avatar_url: avatar,
      notification_channel: input.notificationChannel as NotificationChannel,
    },
  });
}
