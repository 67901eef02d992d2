/**
 * The chat outbox (spec §6, issue #3 "Side effects"), the ONLY writer of `chat_messages` rows:
 * broadcasts of reports and polls, direct questions, and (seed) historical messages are written
 * in the caller's transaction (the report writes' CTE chains embed `reportBroadcastInsertSql` /
 * `reportBroadcastEditSql` in their one statement), so a committed change always has its message recorded and a
 * rolled-back one leaves none. Every row written or put back to `delivery_state = pending`
 * enqueues its destination's `deliver_chat_destination` job in that same transaction (the
 * `chat_messages_enqueue_delivery` trigger, migration `*_delivery_by_destination`, through the job
 * outbox of lib/jobs/outbox.ts: one job per channel/recipient, lib/chat/destination-drain.ts), so
 * whatever kind of message is written here is delivered (lib/chat/delivery.ts); an updated or
 * removed message is put back to `pending` so the job updates / deletes it on the platform. The built-in channel feed
 * reads the rows directly (`deleted_at` null = visible).
 *
 * Message bodies are plain text (no markup). `ts` (spec `chat_ts`) comes from `newChatTs()`.
 */
import { randomInt } from "node:crypto";
import { queryRows, type Tx } from "@/lib/db";
import { reportAuthor } from "@/lib/domain/access";
import { newChatTs } from "@/lib/domain/chat-ts";
import { NotFoundError } from "@/lib/domain/errors";
import { timeInZone } from "@/lib/domain/message-times";
import { currentQuestionsSelect } from "@/lib/domain/standups";
import { Prisma } from "@/lib/generated/prisma/client";

/** The outbox row of a broadcast: its id and `ts` (the `chat_ts` updates and deletes refer to). */
export type BroadcastRef = { id: number; ts: string; channel_id: number | null };

const broadcastRefSelect = { id: true, ts: true, channel_id: true } satisfies Prisma.ChatMessageSelect;

/** One message to a channel about a checkin's occurrence (or report), as `postToChannel` writes it. */
type ChannelPost = {
  teamId: number;
  kind: "report" | "poll" | "digest" | "poll_results";
  channelId: number;
  checkinId: number;
  occurrenceId: number | null;
  /** The report a `report` post shows. */
  reportId?: number;
  text: string;
  /** Stamps `created_at` with this instant instead of the database default. */
  createdAt?: Date;
};

/** Writes one channel post to the outbox (`ts` from `now`). @returns the new row's ref. */
function postToChannel(tx: Tx, post: ChannelPost, now: Date): Promise<BroadcastRef> {
  return tx.chatMessage.create({
    data: {
      team_id: post.teamId,
      ts: newChatTs(now),
      kind: post.kind,
      channel_id: post.channelId,
      checkin_id: post.checkinId,
      occurrence_id: post.occurrenceId,
      report_id: post.reportId,
      text: post.text,
      created_at: post.createdAt,
    },
    select: broadcastRefSelect,
  });
}

/**
 * Plain-text body of a report message. Anonymous reports never name their author; a report edited
 * after its broadcast says "(edited)" in the first line (issue 10).
 */
export function renderReportText(input: {
  standupName: string;
  authorName: string | null;
  answers: Array<{ question: string; answer: string }>;
  edited?: boolean;
}): string {
  const who = input.authorName ?? "An anonymous member";
  const head = `${who} posted an update for ${input.standupName}${input.edited ? " (edited)" : ""}`;
  const blocks = input.answers.map((a) => `${a.question}\n${a.answer.trim() ? a.answer : "-"}`);
  return [head, ...blocks].join("\n\n");
}

/**
 * The data-modifying CTE body that writes the broadcast row of the report returned by CTE `rep`
 * (one `id` column), for the report writes that do everything in one statement
 * (lib/domain/report-submission.ts). Writes nothing when `rep` is empty. RETURNING id, ts, channel_id.
 */
export function reportBroadcastInsertSql(
  post: { teamId: number; channelId: number; checkinId: number; occurrenceId: number | null; text: string },
  now: Date,
): Prisma.Sql {
  return Prisma.sql`INSERT INTO chat_messages (team_id, ts, kind, channel_id, checkin_id, occurrence_id, report_id, text, created_at, updated_at)
    SELECT ${post.teamId}::int, ${newChatTs(now)}::text, 'report'::"ChatMessageKind", ${post.channelId}::int, ${post.checkinId}::int,
      ${post.occurrenceId}::int, rep.id, ${post.text}::text, ${now}::timestamptz, ${now}::timestamptz
    FROM rep
    RETURNING id, ts, channel_id`;
}

/**
 * The data-modifying CTE body that re-renders a report's live broadcast row after its answers
 * changed (one statement of lib/domain/report-edit.ts): new text marked "(edited)" by the caller,
 * same `ts`, delivery back to pending so the platform message is edited. An edit that leaves the
 * text as it is touches nothing (no platform call for an unchanged message; a send in flight still
 * marks the row delivered), unless the message failed: then, as before, the edit retries it.
 * `onlyIf`: a further SQL condition (the edit's guard).
 */
export function reportBroadcastEditSql(messageId: number, text: string, now: Date, onlyIf?: Prisma.Sql): Prisma.Sql {
  // A held broadcast (an anonymous report below k, lib/domain/anonymous-release.ts) stays held.
  return Prisma.sql`UPDATE chat_messages SET text = ${text}::text,
      delivery_state = CASE WHEN delivery_state = 'held' THEN 'held'::"DeliveryState" ELSE 'pending'::"DeliveryState" END, delivery_attempts = 0,
      updated_at = ${now}::timestamptz
    WHERE id = ${messageId}::int AND (text IS DISTINCT FROM ${text}::text OR delivery_state = 'failed')${onlyIf ? Prisma.sql` AND ${onlyIf}` : Prisma.empty}`;
}

/**
 * Plain-text body of a poll message: name, question and numbered choices, plus the closing time
 * in the poll's `timezone`, named ("Voting closes Mon 30 Nov, 10:15 Europe/Berlin").
 */
export function renderPollText(input: {
  pollName: string;
  question: string;
  choices: string[];
  closesAt: Date | null;
  timezone: string;
}): string {
  const lines = [`Poll: ${input.pollName}`, input.question, ...input.choices.map((c, i) => `${i + 1}. ${c}`)];
  if (input.closesAt) lines.push(`Voting closes ${timeInZone(input.closesAt, input.timezone)}`);
  return lines.join("\n");
}

async function reportText(tx: Tx, reportId: number) {
  // One raw statement (no query compiler per submission): the report, its author's names, its
  // standup's name and channel, and its answers in question order.
  const [report] = await queryRows<{
    id: number;
    team_id: number;
    checkin_id: number;
    occurrence_id: number;
    is_anonymous: boolean;
    author_name: string;
    standup_name: string;
    broadcast_channel_id: number | null;
    answers: Array<{ question: string; answer: string }>;
  }>(
    Prisma.sql`SELECT r.id, r.team_id, r.checkin_id, r.occurrence_id, r.is_anonymous,
        COALESCE(NULLIF(u.realname, ''), u.username) AS author_name, c.name AS standup_name, c.broadcast_channel_id,
        (SELECT COALESCE(json_agg(json_build_object('question', q.text, 'answer', a.text) ORDER BY q.position, q.id), '[]'::json)
          FROM answers a JOIN questions q ON q.id = a.question_id WHERE a.team_id = r.team_id AND a.report_id = r.id) AS answers
      FROM reports r JOIN users u ON u.id = r.user_id JOIN checkins c ON c.id = r.checkin_id
      WHERE r.id = ${reportId}`,
    tx,
  );
  if (!report) throw new NotFoundError("Report");
  const text = renderReportText({
    standupName: report.standup_name,
    authorName: reportAuthor(report, report.author_name),
    answers: report.answers,
  });
  return { report, text };
}

/**
 * Posts a submitted report to its standup's broadcast channel (kind `report`). A standup without
 * a broadcast channel posts nothing.
 * @returns the outbox row, or null when there is no channel.
 */
export async function broadcastReport(tx: Tx, reportId: number, now: Date = new Date()): Promise<BroadcastRef | null> {
  const { report, text } = await reportText(tx, reportId);
  if (report.broadcast_channel_id === null) return null;
  const { team_id: teamId, checkin_id: checkinId, occurrence_id: occurrenceId } = report;
  const channelId = report.broadcast_channel_id;
  return postToChannel(tx, { teamId, kind: "report", channelId, checkinId, occurrenceId, reportId: report.id, text }, now);
}

/**
 * `SELECT <columns> FROM chat_messages m` of the live broadcast of the report aliased `report` in
 * the enclosing SQL: its newest `report` message that is not removed (at most one row). The one
 * statement of that rule for the SQL reads (report pages, the edit's context). Raw SQL: pass only
 * trusted alias and column text, never request input.
 */
export function liveReportBroadcastSql(columns: string, report: string): Prisma.Sql {
  return Prisma.raw(
    `SELECT ${columns} FROM chat_messages m
      WHERE m.report_id = ${report}.id AND m.kind = 'report' AND m.deleted_at IS NULL ORDER BY m.id DESC LIMIT 1`,
  );
}

/**
 * Marks the broadcast of a report removed (`deleted_at`; delivery back to pending so the platform
 * message is deleted). No-op when the report was never broadcast.
 * @returns the number of messages marked.
 */
export async function removeReportBroadcast(tx: Tx, reportId: number, now: Date = new Date()): Promise<number> {
  // A held broadcast was never posted: removed here, nothing to delete on the platform.
  const held = await tx.chatMessage.updateMany({
    where: { report_id: reportId, kind: "report", deleted_at: null, delivery_state: "held" },
    data: { deleted_at: now },
  });
  const r = await tx.chatMessage.updateMany({
    where: { report_id: reportId, kind: "report", deleted_at: null },
    data: { deleted_at: now, delivery_state: "pending", delivery_attempts: 0 },
  });
  return held.count + r.count;
}

/**
 * Holds the not yet delivered broadcast of an anonymous report whose run is below the anonymity
 * threshold (issue 45, lib/domain/anonymous-release.ts): state `held` (no delivery, not in the
 * built-in feed), stamped with the report's coarse submission time instead of the real one.
 * @returns the number of messages held.
 */
export async function holdReportBroadcast(tx: Tx, reportId: number): Promise<number> {
  return tx.$executeRaw`UPDATE chat_messages m SET delivery_state = 'held', created_at = COALESCE(r.submitted_at, m.created_at),
      updated_at = COALESCE(r.submitted_at, m.updated_at)
    FROM reports r WHERE r.id = m.report_id AND m.report_id = ${reportId} AND m.kind = 'report' AND m.deleted_at IS NULL
      AND m.delivery_state = 'pending' AND m.delivered_at IS NULL`;
}

/**
 * Releases the held broadcasts of `reportIds` (a run that reached the anonymity threshold, issue
 * 45): each is written anew as a pending message, in a random order and stamped `now` (new id and
 * `ts`), so the order and times in which they are posted — and which the built-in feed shows — say
 * nothing about the order in which they were written. Delivery goes through the outbox as for any
 * pending message. @returns the number of messages released.
 */
export async function releaseHeldBroadcasts(tx: Tx, reportIds: readonly number[], now: Date = new Date()): Promise<number> {
  if (!reportIds.length) return 0;
  const held = await tx.chatMessage.findMany({
    where: { report_id: { in: [...reportIds] }, kind: "report", delivery_state: "held", deleted_at: null },
    select: { id: true, team_id: true, channel_id: true, checkin_id: true, occurrence_id: true, report_id: true, text: true, blocks: true },
  });
  if (!held.length) return 0;
  await tx.chatMessage.deleteMany({ where: { id: { in: held.map((m) => m.id) } } });
  const shuffled = held
    .map((m) => ({ m, key: randomInt(2 ** 31) }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.m);
  for (const m of shuffled) {
    await tx.chatMessage.create({
      data: {
        team_id: m.team_id,
        ts: newChatTs(now),
        kind: "report",
        channel_id: m.channel_id,
        checkin_id: m.checkin_id,
        occurrence_id: m.occurrence_id,
        report_id: m.report_id,
        text: m.text,
        blocks: (m.blocks ?? undefined) as Prisma.InputJsonValue | undefined,
        created_at: now,
        updated_at: now,
      },
    });
  }
  return held.length;
}

/**
 * Posts one broadcast of a poll (kind `poll`) to a channel for an occurrence.
 * @returns the outbox row.
 */
export async function broadcastPoll(
  tx: Tx,
  input: {
    teamId: number;
    pollId: number;
    occurrenceId: number;
    channelId: number;
    pollName: string;
    question: string;
    choices: string[];
    closesAt: Date | null;
    /** The poll's IANA timezone (the closing time is said in it). */
    timezone: string;
  },
  now: Date = new Date(),
): Promise<BroadcastRef> {
  const { pollName, question, choices, closesAt, timezone } = input;
  const text = renderPollText({ pollName, question, choices, closesAt, timezone });
  return postToChannel(tx, { ...input, kind: "poll", checkinId: input.pollId, text }, now);
}

/**
 * Posts the poll of one occurrence (a one-shot poll's creation or a recurring poll's scheduled
 * run) to the poll's broadcast channel: one question with its numbered choices (one button per
 * choice on Slack), or the numbered list of several questions; the closing time is the
 * occurrence's `closes_at`. Nothing when the poll has no broadcast channel.
 * @returns the outbox row, or null.
 */
export async function broadcastPollRun(
  tx: Tx,
  input: { pollId: number; occurrenceId: number },
  now: Date = new Date(),
): Promise<BroadcastRef | null> {
  const poll = await tx.checkin.findUniqueOrThrow({
    where: { id: input.pollId },
    select: {
      team_id: true,
      name: true,
      timezone: true,
      broadcast_channel_id: true,
      questions: currentQuestionsSelect({ text: true, choices: true }),
    },
  });
  if (poll.broadcast_channel_id === null || poll.questions.length === 0) return null;
  const occurrence = await tx.occurrence.findUniqueOrThrow({ where: { id: input.occurrenceId }, select: { closes_at: true } });
  const several = poll.questions.length > 1;
  return broadcastPoll(
    tx,
    {
      teamId: poll.team_id,
      pollId: input.pollId,
      occurrenceId: input.occurrenceId,
      channelId: poll.broadcast_channel_id,
      pollName: poll.name,
      question: several ? poll.questions.map((q, i) => `${i + 1}) ${q.text}`).join("\n") : poll.questions[0].text,
      choices: several ? [] : poll.questions[0].choices,
      closesAt: occurrence.closes_at,
      timezone: poll.timezone,
    },
    now,
  );
}

/**
 * Posts an occurrence summary to its standup's broadcast channel (kind `digest`, issue 15), once
 * per occurrence: a second call for the same occurrence returns the existing row.
 * @returns the outbox row.
 */
export async function broadcastDigest(
  tx: Tx,
  input: { teamId: number; standupId: number; occurrenceId: number; channelId: number; text: string },
  now: Date = new Date(),
): Promise<BroadcastRef> {
  const existing = await tx.chatMessage.findFirst({
    where: { occurrence_id: input.occurrenceId, kind: "digest", deleted_at: null },
    select: broadcastRefSelect,
  });
  if (existing) return existing;
  return postToChannel(tx, { ...input, kind: "digest", checkinId: input.standupId }, now);
}

/** One direct question to a member (kind `question`, no channel): the start of their report. */
export type DirectQuestion = { userId: number; reportId: number | null };

/**
 * Queues direct questions of one occurrence (kind `question`, `recipient_id` set, no channel),
 * one per member, with the text of the first question. Used by `askMembers`
 * (lib/domain/occurrences.ts).
 * @returns the number of messages queued.
 */
export async function queueDirectQuestions(
  tx: Tx,
  input: { teamId: number; checkinId: number; occurrenceId: number; text: string; to: DirectQuestion[] },
  now: Date = new Date(),
): Promise<number> {
  if (input.to.length === 0) return 0;
  const r = await tx.chatMessage.createMany({
    data: input.to.map((q) => ({
      team_id: input.teamId,
      ts: newChatTs(now),
      kind: "question" as const,
      channel_id: null,
      recipient_id: q.userId,
      checkin_id: input.checkinId,
      occurrence_id: input.occurrenceId,
      report_id: q.reportId,
      text: input.text,
    })),
  });
  return r.count;
}

/** A direct message to one member about one occurrence: its question or a reminder (issue 10). */
export type DirectMessage = {
  kind: "question" | "reminder";
  teamId: number;
  recipientId: number;
  checkinId: number;
  occurrenceId: number;
  reportId: number | null;
  text: string;
};

/**
 * Queues direct messages (kind `question` or `reminder`, `recipient_id` set, no channel) in one
 * statement (the delivery adapters add the answer button from the occurrence). Used by the asking and reminder passes
 * (lib/domain/asking.ts, lib/domain/reminders.ts).
 * @returns the number of messages queued.
 */
export async function queueDirectMessages(tx: Tx, messages: DirectMessage[], now: Date = new Date()): Promise<number> {
  if (messages.length === 0) return 0;
  const r = await tx.chatMessage.createMany({
    data: messages.map((m) => ({
      team_id: m.teamId,
      ts: newChatTs(now),
      kind: m.kind,
      channel_id: null,
      recipient_id: m.recipientId,
      checkin_id: m.checkinId,
      occurrence_id: m.occurrenceId,
      report_id: m.reportId,
      text: m.text,
      created_at: now,
    })),
  });
  return r.count;
}

/**
 * Posts the results of a closed poll broadcast to its channel (kind `poll_results`).
 * @returns the outbox row.
 */
export async function postPollResults(
  tx: Tx,
  input: { teamId: number; pollId: number; occurrenceId: number; channelId: number; text: string },
  now: Date = new Date(),
): Promise<BroadcastRef> {
  return postToChannel(tx, { ...input, kind: "poll_results", checkinId: input.pollId, createdAt: now }, now);
}

/**
 * Writes already-delivered historical messages in bulk (the demo seed's history: rows carry their
 * own `ts`, timestamps and delivery state).
 * @returns the number of rows written.
 */
export async function recordHistoricalMessages(tx: Tx, rows: Prisma.ChatMessageCreateManyInput[]): Promise<number> {
  if (rows.length === 0) return 0;
  return (await tx.chatMessage.createMany({ data: rows })).count;
}
