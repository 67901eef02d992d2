/**
 * Delivery of the chat outbox (issue 9 "Outbox and delivery jobs"). Every `chat_messages` row that
 * becomes pending (inserted, edited, removed, or retried by an admin) enqueues its destination's
 * delivery job in the same transaction (the database trigger, migration `*_delivery_by_destination`,
 * through the job outbox of lib/jobs/outbox.ts; one job per channel or recipient,
 * lib/chat/destination-drain.ts). That job calls `deliverChatMessage` for each pending message of
 * the destination in turn, which reconciles the platform with the row:
 *   - removed (`deleted_at`): delete the platform message if one was posted, else nothing;
 *   - posted before (`external_ts`): update it;
 *   - never posted: post it (a DM for questions/reminders; a reply in the occurrence's thread when
 *     the standup has `broadcast_thread`), store `external_ts`/`external_channel`.
 * So an edit or removal of a message not yet delivered collapses into one final state, and a retry
 * after success does nothing. The state is marked `delivered` only if the row did not change while
 * sending (else the follow-up job sends the change). Bookkeeping writes use raw SQL so that
 * `updated_at` keeps meaning "content changed".
 *
 * Adapter choice: channel messages of the team served by the Slack workspace (`SLACK_TEAM`,
 * default the first team) go to Slack, all others stay in the built-in feed. Direct messages
 * (questions, reminders) follow the recipient's `notification_channel` (`directRoute`): the
 * preferred channel first, then the other one, then the built-in feed — skipping what is not
 * available (Slack: the recipient's team is the Slack-served one; e-mail: SMTP is configured;
 * a member Slack does not know moves on to the next channel). `web` means the built-in feed only
 * (the member answers in the dashboard). A DM left to the built-in feed for lack of any other
 * channel is also written to the server log. Updates and deletes go through the adapter that
 * delivered the message, so messages delivered before Slack was connected are never replayed into Slack.
 */
import type { ChatAdapter, OutgoingMessage } from "@/lib/chat/adapter";
import { builtinAdapter } from "@/lib/chat/builtin";
import type { DeliveryConfig } from "@/lib/chat/config";
import { createEmailAdapter, type EmailAdapter } from "@/lib/chat/email";
import { PermanentDeliveryError, RetryLaterError } from "@/lib/chat/errors";
import { escapeSlackText } from "@/lib/chat/mrkdwn";
import { createSlackAdapter, type SlackAdapter } from "@/lib/chat/slack";
import { pollBlocks, questionBlocks } from "@/lib/chat/slack-blocks";
import { type Db, db as defaultDb } from "@/lib/db";
import { createAnswerToken } from "@/lib/domain/answer-token";
import type { NotificationChannel } from "@/lib/generated/prisma/client";

export type DeliveryDeps = {
  config: DeliveryConfig;
  slack: SlackAdapter | null;
  email: EmailAdapter | null;
  log: (line: string) => void;
  db: Db;
  /** Cached id of the team the Slack workspace serves (resolved on first use). */
  slackTeamId?: number | null;
};

/** Builds the adapters of a config. Call `closeDeliveryDeps` when done. */
export function createDeliveryDeps(config: DeliveryConfig, log: (line: string) => void, db: Db = defaultDb): DeliveryDeps {
  return {
    config,
    slack: config.slack ? createSlackAdapter({ token: config.slack.token, apiUrl: config.slack.apiUrl }) : null,
    email: config.smtp ? createEmailAdapter(config.smtp) : null,
    log,
    db,
  };
}

export function closeDeliveryDeps(deps: DeliveryDeps): void {
  deps.email?.close();
}

/** The team id the Slack workspace serves: `SLACK_TEAM` by name or chat id, else the first team. */
export async function slackTeamId(deps: DeliveryDeps): Promise<number | null> {
  if (!deps.config.slack) return null;
  if (deps.slackTeamId !== undefined) return deps.slackTeamId;
  const wanted = deps.config.slack.team;
  const team = await deps.db.team.findFirst({
    where: wanted ? { OR: [{ name: wanted }, { chat_id: wanted }] } : {},
    orderBy: { id: "asc" },
    select: { id: true },
  });
  if (!team && wanted) deps.log(`delivery: SLACK_TEAM "${wanted}" matches no team; Slack delivery is off`);
  deps.slackTeamId = team?.id ?? null;
  return deps.slackTeamId;
}

const messageSelect = {
  id: true,
  team_id: true,
  ts: true,
  kind: true,
  text: true,
  blocks: true,
  delivery_state: true,
  delivery_attempts: true,
  external_ts: true,
  external_channel: true,
  delivered_via: true,
  delivered_at: true,
  deleted_at: true,
  updated_at: true,
  channel_id: true,
  occurrence_id: true,
  checkin_id: true,
  channel: { select: { chat_id: true } },
  recipient: { select: { id: true, chat_id: true, email: true, realname: true, notification_channel: true } },
  checkin: { select: { name: true, broadcast_thread: true } },
  occurrence: { select: { id: true, date: true, scheduled_at: true, closes_at: true, closed_at: true } },
} as const;

type Loaded = NonNullable<Awaited<ReturnType<typeof loadMessage>>>;

function loadMessage(db: Db, id: number) {
  return db.chatMessage.findUnique({ where: { id }, select: messageSelect });
}

/** Where the current state of the job stands: what the caller (the job) should do next. */
export type DeliveryOutcome =
  | { result: "delivered"; via: string }
  | { result: "skipped"; reason: string }
  | { result: "failed"; error: string }
  | { result: "retry"; error: string; afterSeconds?: number };

/**
 * Reconciles one outbox row with its platform (see the module comment).
 * @param job.attempts this run's attempt number (1-based: the message's `delivery_failures` + 1), job.maxAttempts the last one.
 * @returns the outcome. "retry" with `afterSeconds`: the platform asked to wait that long (Retry-After;
 *   no failure counted); "retry" without: a transient error, counted on the message, which waits
 *   `retryDelaySeconds(attempts)` (`delivery_retry_at`) before its next run; "failed" after the last attempt.
 */
export async function deliverChatMessage(
  deps: DeliveryDeps,
  messageId: number,
  job: { attempts: number; maxAttempts: number },
): Promise<DeliveryOutcome> {
  const m = await loadMessage(deps.db, messageId);
  if (!m) return { result: "skipped", reason: "message no longer exists" };
  if (m.delivery_state !== "pending") return { result: "skipped", reason: `already ${m.delivery_state}` };
  const previousVia = m.delivered_via ?? (m.delivered_at ? "builtin" : null);
  try {
    if (m.deleted_at) {
      if (m.external_ts && m.external_channel)
        await adapterNamed(deps, previousVia).delete({ channel: m.external_channel, externalTs: m.external_ts });
      await markDelivered(deps.db, m, { via: previousVia ?? "none" });
      return { result: "delivered", via: previousVia ?? "none" };
    }
    if (m.external_ts && previousVia) {
      const adapter = adapterNamed(deps, previousVia);
      if (m.external_channel)
        await adapter.update({ channel: m.external_channel, externalTs: m.external_ts }, await outgoing(deps, m, adapter.name));
      await markDelivered(deps.db, m, { via: previousVia });
      return { result: "delivered", via: previousVia };
    }
    const sent = await firstSend(deps, m);
    await markDelivered(deps.db, m, sent);
    return { result: "delivered", via: sent.via };
  } catch (err) {
    const error = (err as Error).message ?? String(err);
    if (err instanceof RetryLaterError) {
      await recordError(deps.db, m.id, error);
      return { result: "retry", error, afterSeconds: err.retryAfterSeconds };
    }
    if (err instanceof PermanentDeliveryError || job.attempts >= job.maxAttempts) {
      await markFailed(deps.db, m, error);
      return { result: "failed", error };
    }
    await scheduleRetry(deps.db, m, error, job.attempts);
    return { result: "retry", error };
  }
}

function adapterNamed(deps: DeliveryDeps, name: string | null): ChatAdapter {
  if (name === "slack" && deps.slack) return deps.slack;
  if (name === "email" && deps.email) return deps.email;
  if (name === "slack" || name === "email")
    throw new PermanentDeliveryError(`The ${name} adapter is no longer configured`, "not_configured");
  return builtinAdapter;
}

type Sent = { via: string; externalTs?: string; channel?: string };

/** Posts a message for the first time through the adapter that serves it. */
async function firstSend(deps: DeliveryDeps, m: Loaded): Promise<Sent> {
  const slackTeam = await slackTeamId(deps);
  const onSlack = deps.slack !== null && slackTeam === m.team_id;
  const retried = await bumpAttempts(deps.db, m.id);
  if (m.channel) {
    if (!onSlack || !deps.slack) return { via: "builtin", externalTs: m.ts, channel: m.channel.chat_id };
    const slack = deps.slack;
    const message = await outgoing(deps, m, "slack");
    if (retried) {
      const found = await slack.findPosted(m.channel.chat_id, m.ts);
      if (found) return { via: "slack", externalTs: found, channel: m.channel.chat_id };
    }
    message.threadTs = (await threadParent(deps, m, slack)) ?? undefined;
    const r = await slack.post(m.channel.chat_id, message);
    return { via: "slack", externalTs: r.externalTs, channel: r.channel ?? m.channel.chat_id };
  }
  if (!m.recipient) return { via: "builtin", externalTs: m.ts };
  const recipient = m.recipient;
  const route = directRoute(recipient.notification_channel, { slack: onSlack, email: deps.email !== null });
  for (const via of route) {
    if (via === "slack" && deps.slack) {
      const slack = deps.slack;
      try {
        const dm = await slack.openDirectChannel(recipient.chat_id);
        if (retried) {
          const found = await slack.findPosted(dm, m.ts);
          if (found) return { via: "slack", externalTs: found, channel: dm };
        }
        const r = await slack.post(dm, await outgoing(deps, m, "slack"));
        return { via: "slack", externalTs: r.externalTs, channel: dm };
      } catch (err) {
        const noIdentity =
          err instanceof PermanentDeliveryError && ["user_not_found", "users_not_found", "user_disabled"].includes(err.code);
        if (!noIdentity) throw err;
        deps.log(`delivery: ${recipient.chat_id} has no Slack identity; trying the next channel for message ${m.id}`);
      }
    } else if (via === "email" && deps.email) {
      const r = await deps.email.directMessage(recipient.email, await outgoing(deps, m, "email"));
      return { via: "email", externalTs: r.externalTs, channel: recipient.email };
    }
  }
  if (recipient.notification_channel !== "web")
    deps.log(
      `delivery (built-in, no Slack for this member and no SMTP_URL): to ${recipient.realname} <${recipient.email}>: ${m.text.replace(/\s+/g, " ").slice(0, 200)}`,
    );
  return { via: "builtin", externalTs: m.ts };
}

/**
 * The order in which a direct message (question, reminder) tries the adapters for a member who
 * prefers `preference` (`users.notification_channel`):
 *   - `slack_dm`: Slack DM → e-mail → built-in;
 *   - `email`: e-mail → Slack DM → built-in;
 *   - `web`: built-in only (the dashboard's My check-ins; nothing is sent).
 * Adapters that are not `available` are left out (Slack: the member's team is served by the Slack
 * workspace; e-mail: SMTP is configured). The built-in feed is always last and always works.
 */
export function directRoute(
  preference: NotificationChannel,
  available: { slack: boolean; email: boolean },
): Array<"slack" | "email" | "builtin"> {
  const order: Array<"slack" | "email"> = preference === "web" ? [] : preference === "email" ? ["email", "slack"] : ["slack", "email"];
  return [...order.filter((a) => available[a]), "builtin"];
}

/** The message as `adapter` renders it: Slack gets buttons, e-mail gets the signed answer link. */
async function outgoing(deps: DeliveryDeps, m: Loaded, adapter: string): Promise<OutgoingMessage> {
  const base: OutgoingMessage = { ts: m.ts, text: m.text };
  const asks = m.kind === "question" || m.kind === "reminder";
  if (adapter === "slack") {
    // Our texts are plain text: escaped for Slack's mrkdwn (issue 41 item 9).
    const text = escapeSlackText(m.text);
    const slackBase = { ...base, text };
    if (m.blocks) return { ...slackBase, blocks: m.blocks };
    if (asks && m.occurrence) return { ...slackBase, blocks: questionBlocks(text, m.occurrence.id) };
    if (m.kind === "poll" && m.occurrence && m.checkin_id) {
      const questions = await deps.db.question.findMany({
        where: { checkin_id: m.checkin_id, archived_at: null },
        orderBy: [{ position: "asc" }, { id: "asc" }],
        select: { id: true, text: true, answer_type: true, choices: true },
      });
      const closes = m.occurrence.closes_at;
      // Slack shows a date token in each reader's own timezone; the zone-named time is its fallback.
      const local = closes
        ? text.replace(
            /\nVoting closes ([^\n]+)$/,
            (_, at) => `\nVoting closes <!date^${Math.floor(closes.getTime() / 1000)}^{date_short_pretty} at {time}|${at}>`,
          )
        : text;
      return { ...slackBase, text: local, blocks: pollBlocks(local, m.checkin_id, questions) };
    }
    return slackBase;
  }
  if (adapter === "email" && asks && m.occurrence && m.recipient) {
    const o = m.occurrence;
    const expiresAt = o.closes_at ?? new Date(Math.max(Date.now(), o.scheduled_at.getTime()) + 7 * 24 * 3600_000);
    const token = createAnswerToken(deps.config.linkSecret, { occurrenceId: o.id, userId: m.recipient.id, expiresAt });
    const link = `${deps.config.publicUrl}/answer/${token}`;
    const name = m.checkin?.name ?? "your check-in";
    return {
      ...base,
      subject: m.kind === "reminder" ? `Reminder: ${name}` : `${name}: your answers, please`,
      text: `${m.text}\n\nAnswer here (no sign-in needed; the link works until the check-in closes):\n${link}\n`,
    };
  }
  return base;
}

/** The Slack thread parent of a report's occurrence (posted on first use), or null when not threaded. */
async function threadParent(deps: DeliveryDeps, m: Loaded, slack: SlackAdapter): Promise<string | null> {
  if (m.kind !== "report" || !m.checkin?.broadcast_thread || !m.occurrence || !m.channel || m.channel_id === null) return null;
  const key = { occurrence_id_channel_id: { occurrence_id: m.occurrence.id, channel_id: m.channel_id } };
  const existing = await deps.db.chatThread.findUnique({ where: key, select: { external_ts: true } });
  if (existing) return existing.external_ts;
  const date = m.occurrence.date.toISOString().slice(0, 10);
  const parentTs = `thread.${m.occurrence.id}.${m.channel_id}`;
  const found = await slack.findPosted(m.channel.chat_id, parentTs);
  const externalTs =
    found ?? (await slack.post(m.channel.chat_id, { ts: parentTs, text: escapeSlackText(`${m.checkin.name} — ${date}`) })).externalTs;
  await deps.db.chatThread.upsert({
    where: key,
    create: {
      occurrence_id: m.occurrence.id,
      channel_id: m.channel_id,
      team_id: m.team_id,
      external_channel: m.channel.chat_id,
      external_ts: externalTs,
    },
    update: {},
  });
  return externalTs;
}

/** Counts a send attempt before the platform call (committed), so a crashed attempt is known. @returns true when an earlier attempt may have reached the platform. */
async function bumpAttempts(db: Db, id: number): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ before: number }>>`
    UPDATE chat_messages c SET delivery_attempts = c.delivery_attempts + 1
    FROM (SELECT id, delivery_attempts AS before FROM chat_messages WHERE id = ${id}) o
    WHERE c.id = o.id RETURNING o.before`;
  return (rows[0]?.before ?? 0) > 0;
}

async function markDelivered(db: Db, m: Loaded, sent: Sent): Promise<void> {
  await db.$executeRaw`
    UPDATE chat_messages SET
      external_ts = COALESCE(${sent.externalTs ?? null}, external_ts),
      external_channel = COALESCE(${sent.channel ?? null}, external_channel),
      delivered_via = ${sent.via},
      delivered_at = now(),
      delivery_error = NULL,
      delivery_state = CASE WHEN updated_at = ${m.updated_at} THEN 'delivered'::"DeliveryState" ELSE delivery_state END
    WHERE id = ${m.id}`;
}

async function markFailed(db: Db, m: Loaded, error: string): Promise<void> {
  await db.$executeRaw`
    UPDATE chat_messages SET delivery_error = ${error.slice(0, 1000)},
      delivery_state = CASE WHEN updated_at = ${m.updated_at} THEN 'failed'::"DeliveryState" ELSE delivery_state END
    WHERE id = ${m.id}`;
}

/**
 * Seconds a message waits after its `failures`-th transient failure: e^min(failures, 10), as
 * graphile-worker's own backoff (2.7 s, 7.4 s, 20 s, … about 6 h at most).
 */
export function retryDelaySeconds(failures: number): number {
  return Math.exp(Math.min(Math.max(failures, 1), 10));
}

/** Counts a transient failure and sets when the message's next run is due, unless the message changed meanwhile (then it starts afresh). */
async function scheduleRetry(db: Db, m: Loaded, error: string, attempts: number): Promise<void> {
  await db.$executeRaw`
    UPDATE chat_messages SET delivery_error = ${error.slice(0, 1000)},
      delivery_failures = CASE WHEN updated_at = ${m.updated_at} THEN ${attempts} ELSE delivery_failures END,
      delivery_retry_at = CASE WHEN updated_at = ${m.updated_at} THEN now() + make_interval(secs => ${retryDelaySeconds(attempts)}) ELSE delivery_retry_at END
    WHERE id = ${m.id}`;
}

async function recordError(db: Db, id: number, error: string): Promise<void> {
  await db.$executeRaw`UPDATE chat_messages SET delivery_error = ${error.slice(0, 1000)} WHERE id = ${id}`;
}
