/**
 * Asking members (issue 10 "Asking"): the set-based pass that asks every occurrence member whose
 * `due_at` has come, and the texts of the question and reminder messages.
 *
 * A member is asked once per occurrence: `asked_at` is set, a standup gets the member's pending
 * report (unless they already have a report in that occurrence), and one direct `question`
 * message names the standup (or poll), the occurrence date and the link to the answer form. Members
 * with `excused` set (vacation / out of office that day) are never asked; nor are members of a
 * closed occurrence. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so several app instances can
 * run the pass at once without asking anybody twice.
 *
 * Times: `now` and `due_at` are UTC instants.
 */

import { type Db, db as defaultDb, type Tx } from "@/lib/db";
import { queueActivityFetch } from "@/lib/domain/activity-suggestions";
import { timeForReader } from "@/lib/domain/message-times";
import { type DirectMessage, queueDirectMessages } from "@/lib/domain/outbox";
import { linkBaseUrl } from "@/lib/env";

/** Limits a scheduler pass to one team (tests); the service runs every pass over all teams. */
export type TickScope = { teamId?: number };

/** At most this many members are asked per transaction (the pass loops until none is due). */
const BATCH = 5_000;

/** Path of the answer form of a standup occurrence, or of a poll's vote form (dashboard). */
export function answerPath(input: { kind: "standup" | "poll"; checkinId: number; occurrenceId: number }): string {
  return input.kind === "poll" ? `/polls/${input.checkinId}/vote` : `/my-checkins/${input.checkinId}?occurrence=${input.occurrenceId}`;
}

/**
 * The absolute link to that form that messages carry: `answerPath` on `linkBaseUrl()` (PUBLIC_URL,
 * else this service's address), e.g. `https://checkin.example.com/my-checkins/10?occurrence=229`.
 */
export function answerLink(input: { kind: "standup" | "poll"; checkinId: number; occurrenceId: number }, base = linkBaseUrl()): string {
  return `${base}${answerPath(input)}`;
}

/** "Friday 20 Nov" for an occurrence date "YYYY-MM-DD" (the date is a calendar date, no timezone). */
export function formatOccurrenceDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const weekday = d.toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" });
  const day = d.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
  return `${weekday} ${day}`;
}

/** Text of the question message: the standup's name, the date, the first question and the link. */
export function renderQuestionText(input: {
  kind: "standup" | "poll";
  name: string;
  date: string;
  firstQuestion: string | null;
  /** The absolute answer link (`answerLink`). */
  link: string;
}): string {
  const head =
    input.kind === "poll"
      ? `Poll "${input.name}" is waiting for your vote.`
      : `It's time for ${input.name} (${formatOccurrenceDate(input.date)}).`;
  const lines = [head];
  if (input.firstQuestion) lines.push(input.firstQuestion);
  lines.push(`${input.kind === "poll" ? "Vote" : "Answer"} here: ${input.link}`);
  return lines.join("\n");
}

/** Text of a reminder: which check-in is still open, until when (in the reader's timezone), and the link. */
export function renderReminderText(input: {
  kind: "standup" | "poll";
  name: string;
  date: string;
  closesAt: Date | null;
  /** The recipient's IANA timezone: the closing time is said in it. */
  timezone: string;
  /** The absolute answer link (`answerLink`). */
  link: string;
}): string {
  const what =
    input.kind === "poll" ? `your vote on "${input.name}"` : `your answer to ${input.name} (${formatOccurrenceDate(input.date)})`;
  const until = input.closesAt ? ` It closes at ${timeForReader(input.closesAt, input.timezone)}.` : "";
  return `Reminder: we are still waiting for ${what}.${until}\n${input.kind === "poll" ? "Vote" : "Answer"} here: ${input.link}`;
}

/** A member of an occurrence with its checkin, as the asking and reminder passes read them. */
export type MemberRow = {
  occurrence_id: number;
  user_id: number;
  team_id: number;
  checkin_id: number;
  kind: "standup" | "poll";
  name: string;
  date: string;
};

type DueRow = MemberRow & { first_question: string | null };

/**
 * Queues one `kind` direct message per member row through the outbox (`queueDirectMessages`): the
 * ids come from the row, `reportId` (the member's pending report, or null) and `text` from
 * `message(row, link)`, where `link` is the row's absolute answer link (`answerLink`).
 * @returns the number of messages queued.
 */
export async function queueMemberMessages<R extends MemberRow>(
  tx: Tx,
  kind: DirectMessage["kind"],
  rows: R[],
  now: Date,
  message: (row: R, link: string) => { reportId: number | null; text: string },
): Promise<number> {
  const base = linkBaseUrl();
  const messages = rows.map((r): DirectMessage => {
    const link = answerLink({ kind: r.kind, checkinId: r.checkin_id, occurrenceId: r.occurrence_id }, base);
    return { kind, teamId: r.team_id, recipientId: r.user_id, checkinId: r.checkin_id, occurrenceId: r.occurrence_id, ...message(r, link) };
  });
  return queueDirectMessages(tx, messages, now);
}

/**
 * Asks, in one transaction, up to BATCH members whose `due_at <= now` (see the module comment),
 * optionally only in some occurrences.
 * @returns the members asked (those who had already answered are marked asked but get no message).
 */
export async function askDueBatch(
  tx: Tx,
  now: Date,
  where: { occurrenceIds?: number[] } & TickScope = {},
): Promise<Array<{ occurrenceId: number; userId: number }>> {
  const only = where.occurrenceIds ?? null;
  const teamId = where.teamId ?? null;
  const due = await tx.$queryRaw<DueRow[]>`
    WITH picked AS (
      SELECT om.occurrence_id, om.user_id FROM occurrence_members om
      JOIN occurrences o ON o.id = om.occurrence_id
      WHERE om.asked_at IS NULL AND om.excused IS NULL AND om.due_at <= ${now} AND o.closed_at IS NULL
        AND (${only}::int[] IS NULL OR om.occurrence_id = ANY(${only}::int[]))
        AND (${teamId}::int IS NULL OR om.team_id = ${teamId}::int)
      ORDER BY om.due_at
      LIMIT ${BATCH}
      FOR UPDATE OF om SKIP LOCKED
    ), asked AS (
      UPDATE occurrence_members om SET asked_at = ${now}
      FROM picked WHERE om.occurrence_id = picked.occurrence_id AND om.user_id = picked.user_id
      RETURNING om.occurrence_id, om.user_id, om.team_id
    )
    SELECT a.occurrence_id, a.user_id, a.team_id, c.id AS checkin_id, c.kind::text AS kind, c.name,
           to_char(o.date, 'YYYY-MM-DD') AS date,
           (SELECT q.text FROM questions q WHERE q.checkin_id = c.id AND q.archived_at IS NULL ORDER BY q.position, q.id LIMIT 1) AS first_question
    FROM asked a JOIN occurrences o ON o.id = a.occurrence_id JOIN checkins c ON c.id = o.checkin_id`;
  if (due.length === 0) return [];

  // Standups: the member's pending report, unless they already have one (or answered early).
  const standupRows = due.filter((r) => r.kind === "standup");
  const reportByMember = new Map<string, number>();
  if (standupRows.length) {
    const created = await tx.$queryRaw<Array<{ id: number; occurrence_id: number; user_id: number }>>`
      INSERT INTO reports (team_id, checkin_id, occurrence_id, user_id, status, created_at, updated_at)
      SELECT u.team_id, u.checkin_id, u.occurrence_id, u.user_id, 'pending', ${now}, ${now}
      FROM unnest(${standupRows.map((r) => r.team_id)}::int[], ${standupRows.map((r) => r.checkin_id)}::int[],
                  ${standupRows.map((r) => r.occurrence_id)}::int[], ${standupRows.map((r) => r.user_id)}::int[])
           AS u(team_id, checkin_id, occurrence_id, user_id)
      WHERE NOT EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = u.occurrence_id AND r.user_id = u.user_id AND r.status IN ('pending', 'submitted'))
      RETURNING id, occurrence_id, user_id`;
    for (const r of created) reportByMember.set(`${r.occurrence_id}:${r.user_id}`, r.id);
  }
  // Members who answered before being asked (an early submission) get no question.
  const answered = standupRows.length
    ? await tx.$queryRaw<Array<{ occurrence_id: number; user_id: number }>>`
        SELECT DISTINCT r.occurrence_id, r.user_id FROM reports r
        WHERE r.status = 'submitted' AND r.occurrence_id = ANY(${[...new Set(standupRows.map((r) => r.occurrence_id))]}::int[])`
    : [];
  const skip = new Set(answered.map((a) => `${a.occurrence_id}:${a.user_id}`));
  const toMessage = due.filter((r) => !skip.has(`${r.occurrence_id}:${r.user_id}`));
  // Activity pre-fill (issue 48): a fetch job for the asked standup members with connections.
  await queueActivityFetch(
    tx,
    toMessage.filter((r) => r.kind === "standup"),
    now,
  );
  await queueMemberMessages(tx, "question", toMessage, now, (r, link) => ({
    reportId: reportByMember.get(`${r.occurrence_id}:${r.user_id}`) ?? null,
    text: renderQuestionText({ kind: r.kind, name: r.name, date: r.date, firstQuestion: r.first_question, link }),
  }));
  return due.map((r) => ({ occurrenceId: r.occurrence_id, userId: r.user_id }));
}

/**
 * Asks every member due at `now`, batch after batch, each batch in its own transaction.
 * @returns the number of members asked.
 */
export async function askDueMembers(now: Date, client: Db = defaultDb, scope: TickScope = {}): Promise<number> {
  return inBatches(client, BATCH, async (tx) => (await askDueBatch(tx, now, scope)).length);
}

/**
 * Runs `batch` in its own transaction again and again until it handles fewer than `size` rows
 * (the passes of the scheduler tick). @returns the rows handled in total.
 */
export async function inBatches(client: Db, size: number, batch: (tx: Tx) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await client.$transaction(batch, { timeout: 120_000, maxWait: 30_000 });
    total += n;
    if (n < size) return total;
  }
}
