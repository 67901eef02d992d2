/**
 * graphile-worker tasks of categorization and summaries (issue 15):
 * - `categorize_answers` {occurrenceId, questionId}: one categorization run
 *   (lib/domain/categories.ts `runCategorization`); a failed attempt throws so graphile-worker
 *   retries it with exponential backoff, up to CATEGORIZE_MAX_ATTEMPTS; then the row stays `failed`.
 * - `summarize_occurrence` {occurrenceId}: builds the occurrence's summary (lib/domain/summaries.ts).
 * - `categorize_sweep` (crontab: every minute): enqueues categorizations and summaries that are due
 *   but not queued (demo seed data, crashed runs, occurrences whose day is over), so nothing with
 *   responses stays `pending` for more than about two minutes after start.
 * The model (LLM_BASE_URL / LLM_MODEL) is read from the environment at each run; without it, offline.
 */
import type { Task } from "graphile-worker";
import { z } from "zod";
import { llmConfigFromEnv } from "@/lib/categorize/llm";
import { CATEGORIZE_MAX_ATTEMPTS, runCategorization, sweepCategorizations } from "@/lib/domain/categories";
import { buildOccurrenceSummary, sweepSummaries } from "@/lib/domain/summaries";

type JobLog = (line: string) => void;

const categorizePayload = z.object({ occurrenceId: z.number().int().positive(), questionId: z.number().int().positive() });
const summarizePayload = z.object({ occurrenceId: z.number().int().positive() });

/** Runs one categorization; throws on a failed attempt so the queue retries it. */
export function categorizeAnswers(log: JobLog): Task {
  return async (payload, helpers) => {
    const ref = categorizePayload.parse(payload);
    const result = await runCategorization(ref, {
      llm: llmConfigFromEnv(),
      attempt: helpers.job.attempts,
      maxAttempts: Math.min(helpers.job.max_attempts, CATEGORIZE_MAX_ATTEMPTS),
    });
    if (result.status === "retry" || result.status === "failed") {
      log(`categorize: instance ${ref.occurrenceId} question ${ref.questionId} ${result.status}: ${result.error}`);
      if (result.status === "retry") throw new Error(result.error);
    }
  };
}

/** Builds one occurrence summary. */
export function summarizeOccurrence(): Task {
  return async (payload) => {
    const { occurrenceId } = summarizePayload.parse(payload);
    await buildOccurrenceSummary(occurrenceId, llmConfigFromEnv());
  };
}

/** Enqueues due categorizations and summaries (every minute). */
export function categorizeSweep(log: JobLog): Task {
  return async () => {
    const categorizations = await sweepCategorizations();
    const summaries = await sweepSummaries();
    if (categorizations || summaries) log(`categorize: queued ${categorizations} categorization(s), ${summaries} summary(ies)`);
  };
}
