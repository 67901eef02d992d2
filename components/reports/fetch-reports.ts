/** Server-only loader of one reports-feed page (not a server action: it takes an Actor). */

import { reportRangeError, reportWindowMessage } from "@/components/people-messages";
import type { ReportCardData } from "@/components/reports/report-card";
import { toReportCard } from "@/components/reports/to-card";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { getReportGroups, type OccurrenceRollCall } from "@/lib/domain/report-groups";
import { listReports, resolveReportWindow, teamPeopleNames } from "@/lib/domain/reports";

export type ReportFilters = { standup?: string; member?: string; from?: string; to?: string; q?: string };
export type ReportsPage = {
  items: ReportCardData[];
  nextCursor: string | null;
  /** Roll call per occurrence id of the page's reports. */
  rollCalls?: Record<number, OccurrenceRollCall>;
  error?: string;
};

const PAGE_SIZE = 20;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function encodeCursor(postedAt: Date, id: number): string {
  return Buffer.from(`${postedAt.toISOString()}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string | null | undefined): { postedAt: Date; id: number } | undefined {
  if (!cursor) return undefined;
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const postedAt = new Date(iso);
  if (Number.isNaN(postedAt.getTime()) || !Number.isSafeInteger(Number(id))) return undefined;
  return { postedAt, id: Number(id) };
}

/**
 * One page of the reports feed (same domain call as GET /v2/reports). Dates are whole days
 * (UTC); without any, the last 30 days. Shared by the page's first render and "Load more".
 */
export async function fetchReportsPage(actor: Actor, filters: ReportFilters, cursor: string | null): Promise<ReportsPage> {
  const rangeError = reportRangeError(filters.from, filters.to);
  if (rangeError) return { items: [], nextCursor: null, error: rangeError };
  try {
    const now = new Date();
    const since = filters.from && DATE_RE.test(filters.from) ? new Date(`${filters.from}T00:00:00Z`) : undefined;
    const until = filters.to && DATE_RE.test(filters.to) ? new Date(new Date(`${filters.to}T00:00:00Z`).getTime() + 86_400_000) : undefined;
    const window = resolveReportWindow(
      {
        since: since ?? (until ? undefined : new Date(now.getTime() - 30 * 86_400_000)),
        until: until ?? (since ? undefined : new Date(now.getTime() + 60_000)),
      },
      now,
    );
    const standupId = filters.standup && /^\d+$/.test(filters.standup) ? Number(filters.standup) : undefined;
    const [rows, names] = await Promise.all([
      listReports(actor, {
        ...window,
        standupId,
        userChatId: filters.member || undefined,
        after: decodeCursor(cursor),
        limit: PAGE_SIZE,
        withAnswers: true,
        teamWide: "readers",
        search: filters.q?.trim() ? filters.q.trim() : undefined,
      }),
      // Deactivated authors keep their names on past reports.
      teamPeopleNames(actor),
    ]);
    const page = rows.slice(0, PAGE_SIZE);
    const last = page[page.length - 1];
    const { meta, rollCalls } = await getReportGroups(
      actor,
      page.map((r) => r.id),
    );
    return {
      rollCalls: Object.fromEntries(rollCalls),
      items: page.map((r) => ({ ...toReportCard(r, names), ...meta.get(r.id) })),
      nextCursor: rows.length > PAGE_SIZE && last ? encodeCursor(last.submitted_at, last.id) : null,
    };
  } catch (err) {
    if (err instanceof DomainError) return { items: [], nextCursor: null, error: reportWindowMessage(err.message) };
    throw err;
  }
}
