/**
 * Query schemas of the CSV export endpoints (/exports/*.csv). The report filters are those of
 * GET /v2/reports (since, until, standup_id, user_id; same defaults: the last 7 days) without its
 * 90-day cap (exports allow up to `MAX_EXPORT_DAYS`), plus `q` (full-text search) and `format`.
 */
import { z } from "zod";
import { parseWith, queryObject, zDate } from "@/lib/api/query";
import { InvalidParameterError } from "@/lib/domain/errors";
import type { ParticipationExportFilters, ReportExportFilters } from "@/lib/domain/exports";
import { checkDateRange } from "@/lib/domain/participation-report";

/** Longest export window in days (a year and a bit). */
export const MAX_EXPORT_DAYS = 400;
const DAY_MS = 86_400_000;

const zId = z
  .string()
  .regex(/^\d{1,9}$/, "must be a positive integer")
  .transform(Number)
  .pipe(z.number().int().min(1, "must be a positive integer"));

const reportExportSchema = z.object({
  since: zDate.optional(),
  until: zDate.optional(),
  standup_id: zId.optional(),
  user_id: z.string().trim().min(1, "must not be empty").optional(),
  q: z.string().trim().max(200, "must be at most 200 characters").optional(),
  format: z.enum(["answers", "reports"], { message: "must be answers or reports" }).optional().default("answers"),
});

/** Parses the reports export query. @throws ApiError 400 / InvalidParameterError for bad filters. */
export function parseReportExportQuery(url: URL, now = new Date()): { filters: ReportExportFilters; format: "answers" | "reports" } {
  const q = parseWith(reportExportSchema, queryObject(url));
  const until = q.until ?? now;
  const since = q.since ?? new Date(until.getTime() - 7 * DAY_MS);
  if (since > until) throw new InvalidParameterError("since must not be after until (reversed range)");
  if (until.getTime() - since.getTime() > MAX_EXPORT_DAYS * DAY_MS) {
    throw new InvalidParameterError(`The window from since to until must not exceed ${MAX_EXPORT_DAYS} days`);
  }
  return {
    filters: { since, until, standupId: q.standup_id, userChatId: q.user_id, search: q.q || undefined },
    format: q.format,
  };
}

const zLocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");

const participationExportSchema = z.object({
  since: zLocalDate.optional(),
  until: zLocalDate.optional(),
  standup_id: zId.optional(),
  per: z.enum(["occurrence", "member"], { message: "must be occurrence or member" }).optional().default("occurrence"),
});

/** Parses the participation export query (local dates, inclusive; default the last 30 days). */
export function parseParticipationExportQuery(
  url: URL,
  today: string,
): { filters: ParticipationExportFilters; per: "occurrence" | "member" } {
  const q = parseWith(participationExportSchema, queryObject(url));
  const until = q.until ?? today;
  const since = q.since ?? new Date(new Date(`${until}T00:00:00Z`).getTime() - 29 * DAY_MS).toISOString().slice(0, 10);
  checkDateRange({ since, until });
  return { filters: { since, until, standupId: q.standup_id }, per: q.per };
}

const pollExportSchema = z.object({ since: zDate.optional(), until: zDate.optional() });

/** Parses the poll results export query (neither bound: the latest broadcast). */
export function parsePollExportQuery(url: URL): { since?: Date; until?: Date } {
  return parseWith(pollExportSchema, queryObject(url));
}
