/**
 * Slack workspace sync (issue 11 "Channels and chat workspaces"): imports the connected
 * workspace's people, channels and channel memberships into the team Slack serves.
 *
 * - People (`users.list`, bots and Slackbot skipped): matched by Slack id (our `chat_id`), else by
 *   e-mail (case-insensitive); a match takes the Slack id as its chat id, so the API shows Slack's
 *   ids. Unmatched people are created as members with their Slack id, name, timezone and avatar
 *   (people without a visible e-mail, i.e. without the `users:read.email` scope, are skipped and
 *   counted). Slack users marked `deleted` are deactivated here (`deactivatePerson`: keys revoked,
 *   sessions ended, removed from standups); the last active admin is never deactivated by a sync.
 * - Channels (`conversations.list`, public and private): matched by Slack id, else by name; a
 *   match takes the Slack id; unmatched ones are created; Slack's archived flag is mirrored.
 * - Memberships (`conversations.members` of every unarchived channel): set to exactly the synced
 *   people Slack lists (people unknown here are ignored).
 * Writes one `slack.sync` audit entry with the counts. Runs as the `slack_sync` job: when the
 * worker starts with Slack configured (connect), hourly, and when Slack sends `team_join` or
 * `member_joined_channel` (`enqueueSlackSync`). One job key, so bursts of events collapse.
 */
import { WebClient } from "@slack/web-api";
import { db, type Tx } from "@/lib/db";
import { recordAudit } from "@/lib/domain/audit";
import { DomainError } from "@/lib/domain/errors";
import { emailKey } from "@/lib/domain/exact-lookup";
import { createPerson, deactivatePerson, normaliseTimezone } from "@/lib/domain/people";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** Counts of one sync run. */
export type SlackSyncResult = {
  usersCreated: number;
  usersMatched: number;
  usersDeactivated: number;
  usersSkipped: number;
  channelsCreated: number;
  channelsMatched: number;
  membershipsAdded: number;
  membershipsRemoved: number;
};

type SlackUser = {
  id: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  tz?: string;
  profile?: { email?: string; real_name?: string; display_name?: string; image_72?: string };
};
type SlackChannel = { id: string; name: string; is_archived?: boolean; topic?: { value?: string } };

/** Every item of a cursor-paginated Web API list (`key` is the array field of each page). */
async function listAll<T>(client: WebClient, method: string, key: string, args: Record<string, unknown> = {}): Promise<T[]> {
  const out: T[] = [];
  for await (const page of client.paginate(method, { limit: 200, ...args }))
    out.push(...(((page as unknown as Record<string, unknown>)[key] as T[]) ?? []));
  return out;
}

/** The user's timezone when this runtime knows it, else UTC. */
function timezoneOf(tz: string | undefined): string {
  try {
    return normaliseTimezone(tz);
  } catch {
    return "UTC";
  }
}

async function syncUsers(client: WebClient, teamId: number, result: SlackSyncResult): Promise<Map<string, number>> {
  const slackUsers = (await listAll<SlackUser>(client, "users.list", "members")).filter((u) => !u.is_bot && u.id !== "USLACKBOT");
  const ours = await db.user.findMany({
    where: { team_id: teamId },
    select: { id: true, chat_id: true, email: true, deactivated_at: true },
  });
  const byChatId = new Map(ours.map((u) => [u.chat_id, u]));
  const byEmail = new Map(ours.map((u) => [u.email.toLowerCase(), u]));
  const idOf = new Map<string, number>();
  for (const su of slackUsers) {
    const email = su.profile?.email?.trim().toLowerCase();
    const match = byChatId.get(su.id) ?? (email ? byEmail.get(email) : undefined);
    if (su.deleted) {
      if (match && !match.deactivated_at) {
        try {
          await deactivatePerson(null, { teamId, userId: match.id });
          result.usersDeactivated++;
        } catch (err) {
          if (!(err instanceof DomainError)) throw err; // the last admin stays
        }
      }
      continue;
    }
    if (match) {
      if (match.chat_id !== su.id) {
        const taken = await db.user.findFirst({ where: { chat_id: su.id }, select: { id: true } });
        if (!taken) await db.user.update({ where: { id: match.id }, data: { chat_id: su.id } });
      }
      idOf.set(su.id, match.id);
      result.usersMatched++;
      continue;
    }
    if (!email || !emailKey(email) || (await db.user.findFirst({ where: { chat_id: su.id }, select: { id: true } }))) {
      result.usersSkipped++;
      continue;
    }
    const created = await db.$transaction((t) =>
      createPerson(t, teamId, {
        email,
        name: su.profile?.real_name || su.real_name || su.name || email,
        role: "member",
        timezone: timezoneOf(su.tz),
        chatId: su.id,
        avatarUrl: su.profile?.image_72 ?? null,
      }),
    );
    idOf.set(su.id, created.id);
    result.usersCreated++;
  }
  return idOf;
}

async function upsertChannel(t: Tx, teamId: number, sc: SlackChannel, result: SlackSyncResult): Promise<number> {
  const archived_at = sc.is_archived ? new Date() : null;
  const match =
    (await t.channel.findFirst({ where: { team_id: teamId, chat_id: sc.id }, select: { id: true, archived_at: true } })) ??
    (await t.channel.findFirst({ where: { team_id: teamId, name: sc.name }, select: { id: true, archived_at: true } }));
  if (match) {
    await t.channel.update({
      where: { id: match.id },
      data: { chat_id: sc.id, name: sc.name, archived_at: sc.is_archived ? (match.archived_at ?? archived_at) : null },
    });
    result.channelsMatched++;
    return match.id;
  }
  const created = await t.channel.create({
    data: { team_id: teamId, chat_id: sc.id, name: sc.name, topic: sc.topic?.value || null, archived_at },
    select: { id: true },
  });
  result.channelsCreated++;
  return created.id;
}

/**
 * Syncs the workspace behind `token` into team `teamId` (see the module comment).
 * @param apiUrl Slack Web API base (tests: the fake's URL). @returns the counts.
 * @throws the Web API's errors (the job is retried).
 */
export async function syncSlackWorkspace(opts: { teamId: number; token: string; apiUrl?: string }): Promise<SlackSyncResult> {
  const client = new WebClient(opts.token, { slackApiUrl: opts.apiUrl, retryConfig: { retries: 2 } });
  const result: SlackSyncResult = {
    usersCreated: 0,
    usersMatched: 0,
    usersDeactivated: 0,
    usersSkipped: 0,
    channelsCreated: 0,
    channelsMatched: 0,
    membershipsAdded: 0,
    membershipsRemoved: 0,
  };
  const userIds = await syncUsers(client, opts.teamId, result);
  const channels = await listAll<SlackChannel>(client, "conversations.list", "channels", { types: "public_channel,private_channel" });
  for (const sc of channels) {
    const members = sc.is_archived ? null : await listAll<string>(client, "conversations.members", "members", { channel: sc.id });
    await db.$transaction(async (t) => {
      const channelId = await upsertChannel(t, opts.teamId, sc, result);
      if (!members) return;
      const wanted = new Set(members.flatMap((m) => (userIds.has(m) ? [userIds.get(m) as number] : [])));
      const current = new Set(
        (await t.channelMember.findMany({ where: { channel_id: channelId }, select: { user_id: true } })).map((m) => m.user_id),
      );
      const added = [...wanted].filter((id) => !current.has(id));
      const removed = [...current].filter((id) => !wanted.has(id));
      if (removed.length) await t.channelMember.deleteMany({ where: { channel_id: channelId, user_id: { in: removed } } });
      if (added.length)
        await t.channelMember.createMany({ data: added.map((user_id) => ({ channel_id: channelId, user_id, team_id: opts.teamId })) });
      result.membershipsAdded += added.length;
      result.membershipsRemoved += removed.length;
    });
  }
  await recordAudit(db, { teamId: opts.teamId, actorId: null, action: "slack.sync", target: `team:${opts.teamId}`, details: result });
  return result;
}

/** Job key of the sync: one pending sync at a time however many events arrive. */
export const SLACK_SYNC_JOB_KEY = "slack_sync";

/**
 * Enqueues a sync in the caller's transaction, 5 s from now; several calls before it runs collapse
 * into one job (the job key's "replace" mode pushes it back).
 */
export function enqueueSlackSync(tx: Tx): Promise<void> {
  return enqueueJob(tx, "slack_sync", {}, { jobKey: SLACK_SYNC_JOB_KEY, jobKeyMode: "replace", runAt: new Date(Date.now() + 5000) });
}

/** Slack Events API events that change who is in the workspace or a channel: each triggers a sync. */
export const SLACK_SYNC_EVENTS: readonly string[] = [
  "team_join",
  "user_change",
  "member_joined_channel",
  "member_left_channel",
  "channel_created",
  "channel_rename",
  "channel_archive",
  "channel_unarchive",
];

/**
 * Handles one Events API request body (already signature-checked): answers `url_verification`,
 * enqueues a sync for the membership events of `SLACK_SYNC_EVENTS`, acknowledges the rest.
 * @returns the HTTP status and JSON body (null: empty 200).
 */
export async function handleSlackEvent(raw: string): Promise<{ status: number; body: unknown }> {
  let body: { type?: string; challenge?: string; event?: { type?: string } };
  try {
    body = JSON.parse(raw);
  } catch {
    return { status: 400, body: { error: "Body is not JSON" } };
  }
  if (body.type === "url_verification") return { status: 200, body: { challenge: body.challenge ?? "" } };
  if (body.type === "event_callback" && SLACK_SYNC_EVENTS.includes(body.event?.type ?? "")) await enqueueSlackSync(db);
  return { status: 200, body: null };
}

/**
 * The team the env-configured workspace serves: `SLACK_TEAM` (a team name or chat id), else the
 * oldest team. @returns null when there is no such team.
 */
export async function slackTeamId(slackTeam: string | undefined): Promise<number | null> {
  const team = await db.team.findFirst({
    where: slackTeam ? { OR: [{ chat_id: slackTeam }, { name: slackTeam }] } : {},
    orderBy: { id: "asc" },
    select: { id: true },
  });
  return team?.id ?? null;
}
