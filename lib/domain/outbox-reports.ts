/**
 * Report broadcasts in the chat outbox (lib/domain/outbox.ts): the plain-text body of a report
 * message, its write (as a CTE body for the one-statement submission, or on its own), its edit,
 * its removal, and the hold / release of an anonymous report's broadcast below the anonymity
 * threshold (issue 45, lib/domain/anonymous-release.ts).
 */
import { randomInt } from "node:crypto";
import { queryRows, type Tx } from "@/lib/db";
import { reportAuthor } from "@/lib/domain/access";
import { newChatTs } from "@/lib/domain/chat-ts";
import { NotFoundError } from "@/lib/domain/errors";
import { type BroadcastRef, postToChannel } from "@/lib/domain/outbox";
import { Prisma } from "@/lib/generated/prisma/client";

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
