/**
 * Reminders (issue 10 "Reminders"): per standup or poll, at most `reminder_count` reminders to each
 * asked member who has not answered (standups: no submitted report in the occurrence; polls: no
 * vote in the broadcast). The k-th reminder is due `k × reminder_after_minutes` after the member was
 * asked. Never to excused members, never once the occurrence closed (`closed_at` set or `closes_at`
 * passed), never for paused checkins. Each reminder is a direct `reminder` message through the chat
 * outbox and is recorded in `occurrence_members.reminded_at` (who was reminded when).
 *
 * Rows are claimed with `FOR UPDATE SKIP LOCKED`: several app instances never send one reminder twice.
 * Times: UTC instants; `reminder_after_minutes` in minutes.
 */

import { type Db, db as defaultDb, type Tx } from "@/lib/db";
import { inBatches, type MemberRow, queueMemberMessages, renderReminderText, type TickScope } from "@/lib/domain/asking";

const BATCH = 5_000;

type ReminderRow = MemberRow & {
  closes_at: Date | null;
  report_id: number | null;
  /** The member's timezone (the reminder says the closing time in it). */
  timezone: string;
};

/** Sends, in one transaction, up to BATCH due reminders. @returns how many were sent. */
export async function sendDueRemindersBatch(tx: Tx, now: Date, scope: TickScope = {}): Promise<number> {
  const teamId = scope.teamId ?? null;
  const rows = await tx.$queryRaw<ReminderRow[]>`
    WITH picked AS (
      SELECT om.occurrence_id, om.user_id FROM occurrence_members om
      JOIN occurrences o ON o.id = om.occurrence_id
      JOIN checkins c ON c.id = o.checkin_id
      WHERE om.asked_at IS NOT NULL AND om.excused IS NULL
        AND o.closed_at IS NULL AND (o.closes_at IS NULL OR o.closes_at > ${now})
        AND c.state = 'active' AND c.reminder_count > 0
        AND (${teamId}::int IS NULL OR om.team_id = ${teamId}::int)
        AND coalesce(cardinality(om.reminded_at), 0) < c.reminder_count
        AND om.asked_at + make_interval(mins => c.reminder_after_minutes * (coalesce(cardinality(om.reminded_at), 0) + 1)) <= ${now}
        AND CASE WHEN c.kind = 'poll'
              -- who voted: om.voted (an anonymous poll's votes do not name their voter, issue 45)
              THEN NOT om.voted AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.occurrence_id = om.occurrence_id AND v.user_id = om.user_id)
              ELSE NOT EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = om.occurrence_id AND r.user_id = om.user_id AND r.status = 'submitted')
            END
      ORDER BY om.asked_at
      LIMIT ${BATCH}
      FOR UPDATE OF om SKIP LOCKED
    ), reminded AS (
      UPDATE occurrence_members om SET reminded_at = coalesce(om.reminded_at, ARRAY[]::timestamptz(3)[]) || ${now}::timestamptz(3)
      FROM picked WHERE om.occurrence_id = picked.occurrence_id AND om.user_id = picked.user_id
      RETURNING om.occurrence_id, om.user_id, om.team_id
    )
    SELECT m.occurrence_id, m.user_id, m.team_id, c.id AS checkin_id, c.kind::text AS kind, c.name,
           to_char(o.date, 'YYYY-MM-DD') AS date, o.closes_at, (SELECT u.timezone FROM users u WHERE u.id = m.user_id) AS timezone,
           (SELECT r.id FROM reports r WHERE r.occurrence_id = m.occurrence_id AND r.user_id = m.user_id AND r.status = 'pending' ORDER BY r.id LIMIT 1) AS report_id
    FROM reminded m JOIN occurrences o ON o.id = m.occurrence_id JOIN checkins c ON c.id = o.checkin_id`;
  await queueMemberMessages(tx, "reminder", rows, now, (r, link) => ({
    reportId: r.report_id,
    text: renderReminderText({ kind: r.kind, name: r.name, date: r.date, closesAt: r.closes_at, timezone: r.timezone, link }),
  }));
  return rows.length;
}

/** Sends every reminder due at `now`, batch after batch. @returns how many were sent. */
export async function sendDueReminders(now: Date, client: Db = defaultDb, scope: TickScope = {}): Promise<number> {
  return inBatches(client, BATCH, (tx) => sendDueRemindersBatch(tx, now, scope));
}
