/**
 * Categorization of open-ended poll answers (spec §2.5 `categorization_status`, `categories`;
 * issue 15): one run per (poll instance = occurrence, open-ended question).
 *
 * Lifecycle: a response arriving enqueues a `categorize_answers` job debounced to 60 s after the
 * last one (graphile-worker `job_key` per pair, mode "replace"); closing the poll enqueues it once
 * more at once. The job moves the row `pending → processing → completed`; a failed attempt goes
 * back to `pending` with the reason kept in `error` and is retried with graphile-worker's
 * exponential backoff; after the last attempt the row ends `failed` (reason kept for the dashboard).
 * A completed row stays `completed` while a newer run refreshes it.
 *
 * Stability: categories live per question (table `categories`) across instances; a run matches
 * answers to them first and only adds new ones; names never change. Labels already written to an
 * answer are recomputed only from the same categories, so they do not change either.
 */
import { categorize } from "@/lib/categorize/engine";
import type { LlmConfig } from "@/lib/categorize/llm";
import { OTHER_CATEGORY, type StoredCategory } from "@/lib/categorize/types";
import { db, type Tx } from "@/lib/db";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** graphile-worker task identifier of a categorization run. */
export const CATEGORIZE_TASK = "categorize_answers";
/** Seconds after the last response before the run starts (debounce). */
export const CATEGORIZE_DEBOUNCE_SECONDS = 60;
/** Attempts before a run ends `failed`. */
export const CATEGORIZE_MAX_ATTEMPTS = 5;

/** One (poll instance, open-ended question) pair. */
export type CategorizationRef = { occurrenceId: number; questionId: number };

const jobKey = (ref: CategorizationRef) => `categorize:${ref.occurrenceId}:${ref.questionId}`;

/**
 * Marks the pair `pending` (unless a completed result exists, which stays readable until the next
 * run replaces it) and enqueues its run `delaySeconds` from now, replacing a queued one (debounce).
 * Call it inside the transaction that writes the response.
 */
export async function enqueueCategorization(
  tx: Tx,
  ref: CategorizationRef & { teamId: number },
  opts: { delaySeconds?: number; mode?: "replace" | "preserve_run_at" } = {},
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO categorizations (occurrence_id, question_id, team_id, status, updated_at)
    VALUES (${ref.occurrenceId}, ${ref.questionId}, ${ref.teamId}, 'pending', now())
    ON CONFLICT (occurrence_id, question_id) DO UPDATE
      SET status = CASE WHEN categorizations.status = 'completed' THEN categorizations.status ELSE 'pending'::"CategorizationStatus" END,
          updated_at = now()`;
  const delay = opts.delaySeconds ?? CATEGORIZE_DEBOUNCE_SECONDS;
  return enqueueJob(
    tx,
    CATEGORIZE_TASK,
    { occurrenceId: ref.occurrenceId, questionId: ref.questionId },
    {
      jobKey: jobKey(ref),
      runAt: new Date(Date.now() + delay * 1000),
      maxAttempts: CATEGORIZE_MAX_ATTEMPTS,
      jobKeyMode: opts.mode ?? "replace",
    },
  );
}

/**
 * The "response arrived" hook: whoever writes an open-ended poll answer (vote with `text`) calls
 * this in the same transaction. Debounced: the run starts 60 s after the last response.
 */
export function onOpenEndedResponse(tx: Tx, ref: CategorizationRef & { teamId: number }): Promise<void> {
  return enqueueCategorization(tx, ref, { delaySeconds: CATEGORIZE_DEBOUNCE_SECONDS });
}

/**
 * The "poll closed" hook: enqueues an immediate run for every open-ended question of the closed
 * instance that has answers. Call it in the transaction that closes the occurrence.
 * @returns the number of runs enqueued.
 */
export async function onPollClosed(tx: Tx, occurrenceId: number): Promise<number> {
  const pairs = await tx.$queryRaw<Array<{ question_id: number; team_id: number }>>`
    SELECT DISTINCT v.question_id, v.team_id FROM votes v
    WHERE v.occurrence_id = ${occurrenceId} AND v.text IS NOT NULL
    ORDER BY v.question_id`;
  for (const p of pairs)
    await enqueueCategorization(tx, { occurrenceId, questionId: p.question_id, teamId: p.team_id }, { delaySeconds: 0 });
  return pairs.length;
}

/** Outcome of one run. */
export type CategorizationResult = {
  status: "completed" | "failed" | "retry" | "skipped";
  engine?: string;
  categories?: Array<{ name: string; count: number }>;
  error?: string;
};

/** Options of a run: the model to try (null: offline), this attempt's number and the attempt limit. */
export type RunOptions = { llm: LlmConfig | null; attempt?: number; maxAttempts?: number };

/**
 * Runs the categorization of one pair now (the job body; see the module comment).
 * @returns "completed" with the counts; "skipped" when the pair has no text answers or no longer
 *   exists; "retry" after recording a failed attempt (the caller rethrows so the queue retries);
 *   "failed" when the last attempt failed.
 */
export async function runCategorization(ref: CategorizationRef, opts: RunOptions): Promise<CategorizationResult> {
  const question = await db.question.findUnique({ where: { id: ref.questionId }, select: { id: true, text: true, team_id: true } });
  const occurrence = await db.occurrence.findUnique({ where: { id: ref.occurrenceId }, select: { id: true } });
  if (!question || !occurrence) return { status: "skipped" };
  const where = { occurrence_id: ref.occurrenceId, question_id: ref.questionId };
  await db.categorization.upsert({
    where: { occurrence_id_question_id: where },
    create: { ...where, team_id: question.team_id, status: "processing", attempts: 1 },
    update: { status: "processing", attempts: { increment: 1 } },
  });
  try {
    const votes = await db.vote.findMany({
      where: { ...where, text: { not: null } },
      select: { id: true, text: true },
      orderBy: { id: "asc" },
    });
    if (!votes.length) {
      await db.categorization.update({
        where: { occurrence_id_question_id: where },
        data: { status: "completed", categories: [], completed_at: new Date() },
      });
      return { status: "skipped" };
    }
    const stored = await db.category.findMany({
      where: { question_id: ref.questionId },
      select: { name: true, keywords: true },
      orderBy: { id: "asc" },
    });
    const context = await db.$queryRaw<Array<{ text: string }>>`
      SELECT text FROM votes WHERE question_id = ${ref.questionId} AND occurrence_id <> ${ref.occurrenceId}
        AND text IS NOT NULL AND categories = ARRAY[${OTHER_CATEGORY}]::text[]
      ORDER BY id DESC LIMIT 60`;
    const output = await categorize(
      {
        question: question.text,
        answers: votes.map((v) => v.text ?? ""),
        categories: stored.map((c): StoredCategory => ({ name: c.name, keywords: (c.keywords ?? {}) as Record<string, number> })),
        context: context.map((c) => c.text),
      },
      opts.llm,
    );
    const counts = new Map<string, number>();
    for (const labels of output.labels) for (const name of labels) counts.set(name, (counts.get(name) ?? 0) + 1);
    const categories = [...counts]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    await db.$transaction(async (tx) => {
      if (output.created.length) {
        await tx.category.createMany({
          data: output.created.map((c) => ({
            team_id: question.team_id,
            question_id: ref.questionId,
            name: c.name,
            keywords: c.keywords,
            created_by: output.engine,
          })),
          skipDuplicates: true,
        });
      }
      const ids = votes.map((v) => v.id);
      const labels = output.labels.map((l) => JSON.stringify(l));
      await tx.$executeRaw`
        UPDATE votes SET categories = ARRAY(SELECT json_array_elements_text(u.labels::json))
        FROM unnest(${ids}::int[], ${labels}::text[]) AS u(id, labels)
        WHERE votes.id = u.id`;
      await tx.categorization.update({
        where: { occurrence_id_question_id: where },
        data: { status: "completed", categories, engine: output.engine, error: output.fallbackReason, completed_at: new Date() },
      });
    });
    return { status: "completed", engine: output.engine, categories };
  } catch (err) {
    const message = (err as Error).message?.slice(0, 500) || String(err);
    const last = (opts.attempt ?? 1) >= (opts.maxAttempts ?? CATEGORIZE_MAX_ATTEMPTS);
    await db.categorization.update({
      where: { occurrence_id_question_id: where },
      data: { status: last ? "failed" : "pending", error: message },
    });
    return { status: last ? "failed" : "retry", error: message };
  }
}

/**
 * Enqueues the pairs whose categorization is due and has no job in the queue or the job outbox:
 * text answers and no row, a `pending` row (e.g. written by the demo seed), a `processing` row
 * untouched for 10 minutes (a crashed run), or a `completed` row with answers that arrived after it.
 * Oldest instances first so categories form in time order. Must run where graphile-worker's schema
 * exists (inside a job). `teamId` narrows it to one team.
 * @returns the pairs enqueued.
 */
export async function sweepCategorizations(opts: { limit?: number; teamId?: number } = {}): Promise<number> {
  const due = await db.$queryRaw<Array<{ occurrence_id: number; question_id: number; team_id: number }>>`
    SELECT v.occurrence_id, v.question_id, min(v.team_id) AS team_id
    FROM votes v
    JOIN questions q ON q.id = v.question_id AND q.answer_type <> 'multiple_choice'
    LEFT JOIN categorizations c ON c.occurrence_id = v.occurrence_id AND c.question_id = v.question_id
    WHERE v.text IS NOT NULL
      AND (${opts.teamId ?? null}::int IS NULL OR v.team_id = ${opts.teamId ?? null}::int)
      AND (c.status IS NULL OR c.status = 'pending'
           OR (c.status = 'processing' AND c.updated_at < now() - interval '10 minutes')
           OR (c.status = 'completed' AND cardinality(v.categories) = 0))
      AND NOT EXISTS (
        SELECT 1 FROM graphile_worker._private_jobs j
        WHERE j.key = 'categorize:' || v.occurrence_id || ':' || v.question_id AND j.attempts < j.max_attempts)
      AND NOT EXISTS (SELECT 1 FROM job_outbox o WHERE o.job_key = 'categorize:' || v.occurrence_id || ':' || v.question_id)
    GROUP BY v.occurrence_id, v.question_id
    ORDER BY v.occurrence_id, v.question_id
    LIMIT ${opts.limit ?? 200}`;
  for (const r of due) {
    await enqueueCategorization(db, { occurrenceId: r.occurrence_id, questionId: r.question_id, teamId: r.team_id }, { delaySeconds: 0 });
  }
  return due.length;
}
