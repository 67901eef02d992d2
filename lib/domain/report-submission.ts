/**
 * The submission of a report in two statements (issue 14 "writes"): one read of everything a
 * submission decides on, and one data-modifying CTE chain that writes the report, its answers, the
 * member's roster mark and the broadcast outbox row together. `submitReport`
 * (lib/domain/report-writes.ts) runs these when the occurrence rule (lib/domain/occurrence-resolution.ts)
 * can be decided from the read alone, and the resolution module otherwise.
 *
 * - `readSubmissionContext`: the active standup (schedule columns, name, channel, current questions),
 *   the author (timezone, display name, chat id), membership, whether a webhook listens to
 *   `report.submitted`, the member's oldest answerable pending report (rule 1) and the standup's
 *   occurrences dated within a day of `now`'s UTC date (every local "today" lies there).
 * - `fastTarget`: which report the read alone settles: rule 1's pending report when it holds no
 *   answer yet, today's scheduled occurrence when the member has no pending report there, or
 *   an ad-hoc report (no occurrence) when the standup has no run today and none on its schedule.
 *   Null (opening an occurrence, a team holiday, or an unusual report) → resolution module.
 * - `writeSubmission`: the CTE chain. It writes nothing and returns null when its guard fails: the
 *   pending report was submitted meanwhile, or a pending report appeared in today's occurrence (the
 *   scheduler asked the member between the two statements), or a submitted one did (a concurrent
 *   submission). The caller then resolves again.
 * - `answeredTarget`: the member's submitted report of today's run, which a second submission edits.
 *
 * Every check stays in SQL; no row lock is taken by the read: the write's `UPDATE … WHERE status =
 * 'pending'` waits for a concurrent writer and re-checks. Both run in the caller's transaction, or
 * on their own when the write is one statement that nothing else must commit with (`submitReport`).
 */

import { queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { askingScheduleOf, runsOn, slotTimezone } from "@/lib/domain/asking-times";
import type { ResolvableStandup } from "@/lib/domain/occurrence-resolution";
import { reportBroadcastInsertSql } from "@/lib/domain/outbox-reports";
import type { AnswerRule } from "@/lib/domain/question-types";
import type { ReportView } from "@/lib/domain/reports";
import { localDateOf } from "@/lib/domain/schedule";
import { Prisma } from "@/lib/generated/prisma/client";

const DAY_MS = 86_400_000;

/** A current (not archived) question of the standup, with what its answers may say (`normalizeAnswers`). */
export type SubmissionQuestion = { id: number; text: string; position: number } & ChoiceRule;

/** What an answer to a question may say (lib/domain/question-types.ts `normalizeAnswer`). */
export type ChoiceRule = AnswerRule;

/**
 * The `json_build_object` arguments of a question's answer rule (`ChoiceRule`) for question alias
 * `q`, shared by the submission and edit reads.
 */
export const answerRuleJsonSql = Prisma.raw(
  "'answer_type', q.answer_type::text, 'choices', q.choices, 'add_own_options', q.add_own_options, " +
    "'optional', q.optional, 'scale_min', q.scale_min, 'scale_max', q.scale_max, 'scale_labels', q.scale_labels",
);

/** The author of a submission as the broadcast and the v2 view show them. */
export type SubmissionAuthor = { timezone: string; name: string; chat_id: string };

/** What `readSubmissionContext` returns for an active standup of the actor's team. */
export type SubmissionContext = ResolvableStandup & {
  owner_id: number;
  is_anonymous: boolean;
  name: string;
  is_confidential: boolean;
  broadcast_channel_id: number | null;
  /** Current questions, by id. */
  questions: SubmissionQuestion[];
  is_member: boolean;
  /** The actor's user row (display name: real name, else username); null when missing or of another team. */
  author: SubmissionAuthor | null;
  /** An enabled webhook endpoint of the team subscribes to `report.submitted`. */
  listening: boolean;
  /**
   * The standup has anonymous reports of the last 8 days: a named answer may bring their run to the
   * anonymity threshold and release them (lib/domain/anonymous-release.ts, issue 45).
   */
  recent_anonymous: boolean;
  /** Rule 1's candidate (not locked), or null. `has_answers`: it already holds answers. */
  pending: { id: number; occurrence_id: number; has_answers: boolean } | null;
  /**
   * Occurrences dated UTC date(now) ± 1 day; `pending`: the actor has a pending report there;
   * `answered`: the id of the actor's submitted report there (null: none).
   */
  nearby: Array<{ id: number; date: string; trigger: string; pending: boolean; answered: number | null }>;
};

/**
 * Statement 1: the submission's context (see the module comment), read in `tx`.
 * @returns null when the standup is missing, of another team, a poll or not active.
 */
export async function readSubmissionContext(tx: Tx, actor: Actor, standupId: number, now: Date): Promise<SubmissionContext | null> {
  const utcDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(utcDay - DAY_MS).toISOString().slice(0, 10);
  const to = new Date(utcDay + DAY_MS).toISOString().slice(0, 10);
  const [row] = await queryRows<SubmissionContext>(
    Prisma.sql`SELECT c.id, c.team_id, c.kind::text AS kind, c.time, c.timezone, c.days, c.personalised, c.wait_time,
        c.response_window_minutes, c.duration, c.late_answer_days, c.owner_id, c.is_anonymous, c.name, c.is_confidential,
        c.broadcast_channel_id,
        COALESCE((SELECT json_agg(json_build_object('id', q.id, 'text', q.text, 'position', q.position,
            ${answerRuleJsonSql}) ORDER BY q.id)
          FROM questions q WHERE q.checkin_id = c.id AND q.archived_at IS NULL), '[]'::json) AS questions,
        EXISTS (SELECT 1 FROM checkin_members m WHERE m.checkin_id = c.id AND m.user_id = ${actor.userId}) AS is_member,
        (SELECT json_build_object('timezone', u.timezone, 'name', COALESCE(NULLIF(u.realname, ''), u.username), 'chat_id', u.chat_id)
          FROM users u WHERE u.id = ${actor.userId} AND u.team_id = c.team_id) AS author,
        EXISTS (SELECT 1 FROM webhook_endpoints w
          WHERE w.team_id = c.team_id AND w.disabled_at IS NULL AND 'report.submitted' = ANY(w.events)) AS listening,
        EXISTS (SELECT 1 FROM reports x WHERE x.checkin_id = c.id AND x.status = 'submitted' AND x.is_anonymous
          AND x.submitted_at >= ${new Date(now.getTime() - 8 * DAY_MS)}) AS recent_anonymous,
        (SELECT json_build_object('id', r.id, 'occurrence_id', r.occurrence_id,
            'has_answers', EXISTS (SELECT 1 FROM answers a WHERE a.team_id = r.team_id AND a.report_id = r.id))
          FROM reports r JOIN occurrences o ON o.id = r.occurrence_id
          WHERE r.checkin_id = c.id AND r.user_id = ${actor.userId} AND r.status = 'pending'
            AND (o.closes_at IS NULL OR o.closes_at > ${now}
                 OR o.closes_at + make_interval(days => GREATEST(0, c.late_answer_days)) > ${now})
          ORDER BY o.date, o.id, r.id
          LIMIT 1) AS pending,
        COALESCE((SELECT json_agg(json_build_object('id', o.id, 'date', to_char(o.date, 'YYYY-MM-DD'), 'trigger', o.trigger::text,
            'pending', EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = o.id AND r.user_id = ${actor.userId} AND r.status = 'pending'),
            'answered', (SELECT r.id FROM reports r
              WHERE r.occurrence_id = o.id AND r.user_id = ${actor.userId} AND r.status = 'submitted' LIMIT 1)))
          FROM occurrences o WHERE o.checkin_id = c.id AND o.date BETWEEN ${from}::date AND ${to}::date), '[]'::json) AS nearby
      FROM checkins c
      WHERE c.id = ${standupId} AND c.team_id = ${actor.teamId} AND c.kind = 'standup' AND c.state = 'active'`,
    tx,
  );
  return row ?? null;
}

/**
 * The statement (or data-modifying CTE body) that inserts or replaces `answers` of one report:
 * `reportId` is SQL naming the report id, e.g. a bound id or `rep.id` with `FROM rep` in `from`.
 * The one upsert of answers behind submit (both paths) and edit. RETURNING id, question_id.
 * Whoever writes answers also updates the report row in the same transaction (submit: its
 * status, edit: `updated_at`): the optimistic edit's guard compares that row's version
 * (lib/domain/report-edit.ts).
 */
export function answersUpsertSql(
  teamId: number,
  report: { id: Prisma.Sql; from?: Prisma.Sql },
  answers: ReadonlyArray<{ questionId: number; text: string }>,
  now: Date,
): Prisma.Sql {
  const from = report.from ? Prisma.sql`${report.from}, ` : Prisma.empty;
  return Prisma.sql`INSERT INTO answers (team_id, report_id, question_id, text, created_at, updated_at)
    SELECT ${teamId}::int, ${report.id}, u.q, u.t, ${now}::timestamptz, ${now}::timestamptz
    FROM ${from}unnest(${answers.map((a) => a.questionId)}::int[], ${answers.map((a) => a.text)}::text[]) AS u(q, t)
    ON CONFLICT (team_id, report_id, question_id) DO UPDATE SET text = EXCLUDED.text, updated_at = EXCLUDED.updated_at
    RETURNING id, question_id`;
}

/** Where a submission goes when the context alone settles it (see `fastTarget`). */
export type SubmissionTarget =
  | { rule: "pending"; occurrenceId: number; reportId: number }
  | { rule: "today"; occurrenceId: number }
  /** An ad-hoc report: no occurrence (issue 41); a manual-only standup's: today's ad-hoc occurrence. */
  | { rule: "adhoc"; occurrenceId: number | null };

/**
 * The occurrence rule decided from the context alone, or null when it needs the resolution module
 * (an occurrence must be opened, or the chosen report already holds answers / a non-answerable
 * pending report sits in today's occurrence). `timezone` is the author's IANA zone.
 */
export function fastTarget(ctx: SubmissionContext, timezone: string, now: Date): SubmissionTarget | null {
  if (ctx.pending)
    return ctx.pending.has_answers ? null : { rule: "pending", occurrenceId: ctx.pending.occurrence_id, reportId: ctx.pending.id };
  const schedule = askingScheduleOf(ctx);
  const today = localDateOf(now, slotTimezone(schedule, timezone));
  const occurrence = ctx.nearby.find((o) => o.date === today && o.trigger !== "adhoc");
  if (occurrence) return occurrence.pending ? null : { rule: "today", occurrenceId: occurrence.id };
  if (schedule.waitTime === null) {
    // Manual only: today's ad-hoc occurrence of its authors (opened by the resolution module).
    const adhoc = ctx.nearby.find((o) => o.date === today);
    return adhoc ? { rule: "adhoc", occurrenceId: adhoc.id } : null;
  }
  // No run today and none on the schedule (a team holiday needs the resolution module's read).
  if (!runsOn(today, ctx.days)) return { rule: "adhoc", occurrenceId: null };
  return null;
}

/**
 * The report the member already submitted for the run this submission would answer (issue 41):
 * no answerable pending report (rule 1) and today's scheduled occurrence (a manual-only standup:
 * also its ad-hoc one) holds the member's submitted report. A second submission edits that report instead of adding another one.
 * `timezone` is the author's IANA zone.
 */
export function answeredTarget(ctx: SubmissionContext, timezone: string, now: Date): { occurrenceId: number; reportId: number } | null {
  if (ctx.pending) return null;
  const schedule = askingScheduleOf(ctx);
  const today = localDateOf(now, slotTimezone(schedule, timezone));
  // A manual-only standup's ad-hoc occurrence is its run of the day; a scheduled standup's is not.
  const occurrence = ctx.nearby.find((o) => o.date === today && (o.trigger !== "adhoc" || schedule.waitTime === null));
  if (!occurrence || occurrence.pending || occurrence.answered === null) return null;
  return { occurrenceId: occurrence.id, reportId: occurrence.answered };
}

/** Input of `writeSubmission`: the target, the validated answers and the rendered broadcast. */
export type SubmissionWrite = {
  target: SubmissionTarget;
  teamId: number;
  standupId: number;
  userId: number;
  answers: ReadonlyArray<{ questionId: number; text: string }>;
  anonymousRequested: boolean;
  isAnonymous: boolean;
  /** The broadcast: channel and plain text; null when the standup has no broadcast channel. */
  broadcast: { channelId: number; text: string } | null;
  now: Date;
};

/** What `writeSubmission` wrote: the report, its answers' ids and the outbox row. */
export type SubmissionWritten = {
  reportId: number;
  answers: Array<{ id: number; question_id: number }>;
  message: { id: number; ts: string; channel_id: number | null } | null;
};

/**
 * Statement 2 (plus the roster upsert before it for rule "today", so that statement's snapshot
 * sees a pending report the scheduler committed while we waited for the roster row): completes the
 * pending report or inserts a submitted one, upserts the answers, clears a "missed" mark and
 * writes the broadcast outbox row (its delivery job comes from the `chat_messages` trigger).
 * @returns null, having written nothing but the roster row, when the guard fails (module comment).
 */
export async function writeSubmission(tx: Tx, w: SubmissionWrite): Promise<SubmissionWritten | null> {
  const { target, now } = w;
  if (target.rule === "today") {
    await tx.$executeRaw`
      INSERT INTO occurrence_members (occurrence_id, user_id, team_id, asked_at, due_at)
      VALUES (${target.occurrenceId}, ${w.userId}, ${w.teamId}, ${now}, ${now})
      ON CONFLICT (occurrence_id, user_id) DO UPDATE SET missed_at = NULL`;
  }
  // Today's run takes no second report of the member (pending: the scheduler asked meanwhile;
  // submitted: a concurrent submission); ad-hoc reports (no occurrence) take any number.
  const guard =
    target.rule === "adhoc"
      ? Prisma.empty
      : Prisma.sql`WHERE NOT EXISTS (SELECT 1 FROM reports p
            WHERE p.occurrence_id = ${target.occurrenceId} AND p.user_id = ${w.userId} AND p.status = 'pending')
          AND NOT EXISTS (SELECT 1 FROM reports s
            WHERE s.occurrence_id = ${target.occurrenceId} AND s.user_id = ${w.userId} AND s.status = 'submitted')`;
  const report =
    target.rule === "pending"
      ? Prisma.sql`UPDATE reports SET status = 'submitted', submitted_at = ${now}, started_at = COALESCE(started_at, ${now}),
            anonymous_requested = ${w.anonymousRequested}, is_anonymous = ${w.isAnonymous}, updated_at = ${now}
          WHERE id = ${target.reportId} AND status = 'pending'
          RETURNING id`
      : Prisma.sql`INSERT INTO reports (team_id, checkin_id, occurrence_id, user_id, status, anonymous_requested, is_anonymous,
            started_at, submitted_at, created_at, updated_at)
          SELECT ${w.teamId}::int, ${w.standupId}::int, ${target.occurrenceId}::int, ${w.userId}::int, 'submitted'::"ReportStatus",
            ${w.anonymousRequested}::boolean, ${w.isAnonymous}::boolean, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz,
            ${now}::timestamptz
          ${guard}
          RETURNING id`;
  const missed =
    target.rule === "pending"
      ? Prisma.sql`, missed AS (UPDATE occurrence_members SET missed_at = NULL
          WHERE occurrence_id = ${target.occurrenceId} AND user_id = ${w.userId} AND missed_at IS NOT NULL AND EXISTS (SELECT 1 FROM rep))`
      : Prisma.empty;
  const msgSql = w.broadcast
    ? reportBroadcastInsertSql(
        {
          teamId: w.teamId,
          channelId: w.broadcast.channelId,
          checkinId: w.standupId,
          occurrenceId: target.occurrenceId,
          text: w.broadcast.text,
        },
        now,
      )
    : Prisma.sql`SELECT NULL::int AS id, NULL::text AS ts, NULL::int AS channel_id WHERE false`;
  const [row] = await queryRows<SubmissionWritten>(
    Prisma.sql`WITH rep AS (${report})${missed},
      ans AS (${answersUpsertSql(w.teamId, { id: Prisma.sql`rep.id`, from: Prisma.sql`rep` }, w.answers, now)}),
      msg AS (${msgSql})
      SELECT rep.id AS "reportId",
        COALESCE((SELECT json_agg(json_build_object('id', ans.id, 'question_id', ans.question_id)) FROM ans), '[]'::json) AS answers,
        (SELECT json_build_object('id', msg.id, 'ts', msg.ts, 'channel_id', msg.channel_id) FROM msg) AS message
      FROM rep`,
    tx,
  );
  return row ?? null;
}

/**
 * The v2 view of the report `writeSubmission` wrote (what `loadReportView` would read back):
 * answers ordered by question position, then question id, as the read path orders them.
 */
export function submittedView(
  ctx: SubmissionContext,
  author: SubmissionAuthor,
  w: SubmissionWrite,
  written: SubmissionWritten,
): ReportView {
  const questions = new Map(ctx.questions.map((q) => [q.id, q]));
  const texts = new Map(w.answers.map((a) => [a.questionId, a.text]));
  const answers = written.answers
    .map((a) => ({ id: a.id, question_id: a.question_id, text: texts.get(a.question_id) ?? "", question: questions.get(a.question_id)! }))
    .sort((a, b) => a.question.position - b.question.position || a.question_id - b.question_id)
    .map((a) => ({ id: a.id, question_id: a.question_id, text: a.text, question: { text: a.question.text } }));
  return {
    id: written.reportId,
    checkin_id: ctx.id,
    submitted_at: w.now,
    is_anonymous: w.isAnonymous,
    checkin: { name: ctx.name, is_anonymous: ctx.is_anonymous, is_confidential: ctx.is_confidential },
    user: { chat_id: author.chat_id },
    answers,
  };
}
