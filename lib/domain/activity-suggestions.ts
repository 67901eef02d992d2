/**
 * Activity pre-fills answers (issue 48): when a person with activity connections is asked in a
 * standup occurrence, a `fetch_activity` job is enqueued in the same transaction
 * (`queueActivityFetch`, called by the asking pass, lib/domain/asking.ts). The job
 * (`fillActivitySuggestions`) reads each of their connections for the period since their previous
 * report in that standup (or 24 hours before the asking; at most 7 days back) and caches the items
 * for the run in `activity_suggestions`; a failing source records its reason ("GitHub: token
 * rejected (401)") and gives no items. Nothing is posted: the answer forms (web, e-mailed link,
 * Slack modal) offer the cached items as an editable pre-filled answer to the activity question
 * (`activityQuestionId`: the standup's first free-text question).
 */
import type { ActivityItem } from "@/lib/activity/types";
import { type Db, db as defaultDb, queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { Prisma } from "@/lib/generated/prisma/client";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** The period read starts at most this long before the asking (a previous report months ago). */
const MAX_PERIOD_MS = 7 * 86_400_000;
/** Without a previous report, the period is the 24 hours before the asking. */
const DEFAULT_PERIOD_MS = 86_400_000;

/** A member asked in an occurrence, as the asking pass has them. */
export type AskedStandupMember = { occurrence_id: number; user_id: number; team_id: number; checkin_id: number };

/**
 * Records a pending suggestion (period start included) for each asked member who has at least one
 * activity connection and none yet in that occurrence, and enqueues one `fetch_activity` job per
 * occurrence concerned, all in the caller's transaction. One statement when nobody has a connection.
 * @returns the number of suggestions queued.
 */
export async function queueActivityFetch(tx: Tx, rows: AskedStandupMember[], now: Date): Promise<number> {
  if (rows.length === 0) return 0;
  const fallback = new Date(now.getTime() - DEFAULT_PERIOD_MS);
  const floor = new Date(now.getTime() - MAX_PERIOD_MS);
  const queued = await queryRows<{ occurrence_id: number }>(
    Prisma.sql`
    INSERT INTO activity_suggestions (occurrence_id, user_id, team_id, since, created_at)
    SELECT u.occurrence_id, u.user_id, u.team_id,
           GREATEST(${floor}::timestamptz, COALESCE((SELECT max(r.submitted_at) FROM reports r
             WHERE r.checkin_id = u.checkin_id AND r.user_id = u.user_id AND r.status = 'submitted'
               AND r.occurrence_id IS DISTINCT FROM u.occurrence_id AND r.submitted_at < ${now}), ${fallback}::timestamptz)),
           ${now}
    FROM unnest(${rows.map((r) => r.occurrence_id)}::int[], ${rows.map((r) => r.user_id)}::int[],
                ${rows.map((r) => r.team_id)}::int[], ${rows.map((r) => r.checkin_id)}::int[]) AS u(occurrence_id, user_id, team_id, checkin_id)
    WHERE EXISTS (SELECT 1 FROM activity_connections ac WHERE ac.team_id = u.team_id AND ac.user_id = u.user_id)
    ON CONFLICT (occurrence_id, user_id) DO NOTHING
    RETURNING occurrence_id`,
    tx,
  );
  for (const occurrenceId of new Set(queued.map((q) => q.occurrence_id))) {
    await enqueueJob(tx, "fetch_activity", { occurrenceId }, { jobKey: `fetch_activity:${occurrenceId}`, maxAttempts: 3 });
  }
  return queued.length;
}

/** Cached activity is kept this long after the asking, then deleted by the hourly cleanup. */
export const ACTIVITY_SUGGESTION_KEEP_DAYS = 14;

/**
 * Deletes cached activity older than ACTIVITY_SUGGESTION_KEEP_DAYS (the hourly `cleanup_idempotency`
 * job): a run's pre-fill is not needed once its answers are in. @returns the rows deleted.
 */
export async function cleanupActivitySuggestions(now: Date = new Date(), client: Db = defaultDb): Promise<number> {
  const before = new Date(now.getTime() - ACTIVITY_SUGGESTION_KEEP_DAYS * 86_400_000);
  return (await client.activitySuggestion.deleteMany({ where: { created_at: { lt: before } } })).count;
}

/** The activity offered on an answer form: the items, the editable text, and why sources failed. */
export type ActivityPrefill = {
  occurrenceId: number;
  /** null: the job has not fetched yet. */
  fetchedAt: Date | null;
  items: ActivityItem[];
  /** The pre-filled answer: one "- title (link)" line per item. */
  text: string;
  /** One line per failing source ("GitHub: token rejected (401)"). */
  errors: string[];
};

/** "- title (link)" lines of `items`. */
export function activityText(items: ActivityItem[]): string {
  return items.map((i) => `- ${i.title}${i.url ? ` (${i.url})` : ""}`).join("\n");
}

/**
 * The question the activity pre-fills (the rule, documented in the README): the standup's first
 * free-text question in form order ("What did you do since the last report?" in the templates),
 * or null when it has none.
 */
export function activityQuestionId(questions: Array<{ id: number; answerType?: string; answer_type?: string }>): number | null {
  return questions.find((q) => (q.answerType ?? q.answer_type ?? "text") === "text")?.id ?? null;
}

function toPrefill(row: { occurrence_id: number; fetched_at: Date | null; items: unknown; errors: string[] }): ActivityPrefill {
  const items = (Array.isArray(row.items) ? row.items : []) as ActivityItem[];
  return { occurrenceId: row.occurrence_id, fetchedAt: row.fetched_at, items, text: activityText(items), errors: row.errors };
}

const prefillSelect = { occurrence_id: true, fetched_at: true, items: true, errors: true } as const;

/** The cached activity of one person in one occurrence (the e-mailed link, the Slack modal), or null. */
export async function activityPrefillFor(
  input: { teamId: number; userId: number; occurrenceId: number },
  tx: Tx = defaultDb,
): Promise<ActivityPrefill | null> {
  const row = await tx.activitySuggestion.findFirst({
    where: { team_id: input.teamId, user_id: input.userId, occurrence_id: input.occurrenceId },
    select: prefillSelect,
  });
  return row ? toPrefill(row) : null;
}

/**
 * The actor's cached activity for the run their answer to `standupId` would complete: the newest
 * occurrence of that standup where their report is still pending. Null when there is none.
 */
export async function myActivityPrefill(actor: Actor, input: { standupId: number }, tx: Tx = defaultDb): Promise<ActivityPrefill | null> {
  const row = await tx.activitySuggestion.findFirst({
    where: {
      team_id: actor.teamId,
      user_id: actor.userId,
      occurrence: { checkin_id: input.standupId, reports: { some: { user_id: actor.userId, status: "pending" } } },
    },
    orderBy: { occurrence_id: "desc" },
    select: prefillSelect,
  });
  return row ? toPrefill(row) : null;
}
