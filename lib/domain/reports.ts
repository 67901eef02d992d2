/**
 * Reading reports (spec §2.4, §4.2 GET /v2/reports and GET /v2/reports/{id}; §4.3 GET /v1/reports/
 * through `searchReports` and the answer of POST /v1/reports/ through `getOwnReport`).
 *
 * - Lists: submitted reports of active standups the caller can see (lib/domain/access.ts),
 *   in the window [since, until), newest first by posted_at (submitted_at) then id, keyset
 *   paginated. A page is one SQL statement whatever its size (lib/domain/report-pages.ts: the page
 *   of ids first, then the answers and the rest of just those rows), with the visibility rules
 *   as SQL (`reportListSql`, `authorFilterSql` in lib/domain/access.ts).
 * - Window (spec §4.2, §8): `resolveReportWindow` applies the defaults and the 90-day maximum.
 * - Anonymity (spec §2.4): a report is anonymous when its stored flag is set — fixed at
 *   submission to "standup anonymous OR report anonymous"; its author (`user_id`) is then never
 *   revealed. Filtering by another user's id skips anonymous reports and every report of a standup
 *   that is anonymous now (spec: "reports from anonymous standups are excluded"), so that filter
 *   never attributes reports of an anonymous standup to a person.
 * - Anonymity threshold (issue 45, lib/domain/anonymity.ts `anonymousReportShownSql`): every list,
 *   search and single read shows an anonymous report to anyone but its author only once the team's
 *   k people answered its occurrence.
 */
import { db, type Tx } from "@/lib/db";
import { authorFilterSql, reportListSql, reportReadSql } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { anonymousReportShownSql } from "@/lib/domain/anonymity";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { reportDetailPage, reportViewPage } from "@/lib/domain/report-pages";
import { matchingReportsSql } from "@/lib/domain/report-search";
import { Prisma } from "@/lib/generated/prisma/client";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Default window length when a bound is missing (spec §8: the last 7 days). */
export const REPORT_DEFAULT_WINDOW_DAYS = 7;
/** Maximum window length (spec §4.2: at most 90 days). */
export const REPORT_MAX_WINDOW_DAYS = 90;

/**
 * Resolves the report window [since, until) (spec §4.2):
 * - neither bound: until = now, since = now − 7 days;
 * - only `since`: until = now (so "since X" means "from X up to now");
 * - only `until`: since = until − 7 days.
 * @throws InvalidParameterError when since > until (reversed) or the window exceeds 90 days.
 */
export function resolveReportWindow(input: { since?: Date; until?: Date }, now: Date = new Date()): { since: Date; until: Date } {
  const until = input.until ?? now;
  const since = input.since ?? new Date(until.getTime() - REPORT_DEFAULT_WINDOW_DAYS * DAY_MS);
  if (since.getTime() > until.getTime()) {
    throw new InvalidParameterError(
      input.until ? "since must not be after until (reversed range)" : "since must not be in the future (until defaults to now)",
    );
  }
  if (until.getTime() - since.getTime() > REPORT_MAX_WINDOW_DAYS * DAY_MS) {
    throw new InvalidParameterError(`The window from since to until must not exceed ${REPORT_MAX_WINDOW_DAYS} days`);
  }
  return { since, until };
}

const fullReportViewSelect = {
  id: true,
  checkin_id: true,
  submitted_at: true,
  is_anonymous: true,
  checkin: { select: { name: true, is_anonymous: true, is_confidential: true } },
  user: { select: { chat_id: true } },
  answers: {
    select: { id: true, question_id: true, text: true, question: { select: { text: true } } },
    orderBy: [{ question: { position: "asc" } }, { question_id: "asc" }],
  },
} satisfies Prisma.ReportSelect;

type FullReportView = Prisma.ReportGetPayload<{ select: typeof fullReportViewSelect }>;

/** A report as the v2 serializer needs it; `answers` only when loaded `withAnswers`. */
export type ReportView = Omit<FullReportView, "answers" | "submitted_at"> & { submitted_at: Date; answers?: FullReportView["answers"] };

const { answers: _answers, ...briefReportViewSelect } = fullReportViewSelect;

/**
 * The Prisma select producing a `ReportView` (shared with the report write paths), typed as either
 * literal select so the compiler checks the payload; `asReportView` then checks `submitted_at`.
 */
export function reportViewSelect(opts: { withAnswers: boolean }) {
  return opts.withAnswers ? fullReportViewSelect : briefReportViewSelect;
}

/**
 * A row loaded with `reportViewSelect` as a `ReportView`, the same object: the one thing the
 * compiler cannot know is that the report is submitted, so this checks `submitted_at` (O(1), no
 * schema parse, no copy).
 * @throws Error when `submitted_at` is null (a pending or discarded report reached a view of submitted ones).
 */
export function asReportView<R extends Omit<ReportView, "submitted_at"> & { submitted_at: Date | null }>(row: R): R & ReportView {
  if (!isSubmitted(row)) throw new Error(`Report ${row.id} is not submitted`);
  return row;
}

function isSubmitted<R extends { submitted_at: Date | null }>(row: R): row is R & { submitted_at: Date } {
  return row.submitted_at !== null;
}

/** Filters of GET /v2/reports, already validated and with the window resolved. */
export type ReportListFilters = {
  /** Inclusive lower bound on posted_at. */
  since: Date;
  /** Exclusive upper bound on posted_at. */
  until: Date;
  standupId?: number;
  /** Author's chat id (e.g. U0123ABCD). Another user's id excludes anonymous reports. */
  userChatId?: string;
  /** Keyset position: the last item of the previous page. */
  after?: { postedAt: Date; id: number };
  /** Page size; `limit + 1` rows are fetched so the caller can tell whether more exist. */
  limit: number;
  withAnswers: boolean;
  /** `"readers"` (the dashboard): admins and managers also see every non-confidential standup's reports (lib/domain/access.ts `reportListWhere`). */
  teamWide?: "readers";
  /** Dashboard only (not an API filter): reports with an answer matching this full-text query. */
  search?: string;
};

/**
 * Lists reports visible to `actor` (spec §4.2 GET /v2/reports), newest first.
 * @returns up to `limit + 1` rows (the extra one tells that more exist).
 */
export async function listReports(actor: Actor, filters: ReportListFilters, client: Tx = db): Promise<ReportView[]> {
  return reportViewPage(reportListFilterSql(actor, filters), filters.limit + 1, { withAnswers: filters.withAnswers }, client);
}

/**
 * The SQL condition (over `r` and `c`) of the reports `filters` select for `actor` (visibility,
 * anonymity threshold, window, filters and keyset position): the page condition of `listReports`
 * and of the v2 list's wire page (lib/api/v2/reports.ts `listReportWires`).
 */
export function reportListFilterSql(actor: Actor, filters: ReportListFilters): Prisma.Sql {
  const and: Prisma.Sql[] = [
    reportListSql(actor, { teamWide: filters.teamWide }, "r", "c"),
    anonymousReportShownSql(actor, "r"),
    Prisma.sql`r.submitted_at >= ${filters.since} AND r.submitted_at < ${filters.until}`,
  ];
  if (filters.standupId !== undefined) and.push(Prisma.sql`r.checkin_id = ${filters.standupId}`);
  if (filters.userChatId !== undefined) {
    and.push(Prisma.sql`r.user_id IN (SELECT u.id FROM users u WHERE u.team_id = ${actor.teamId} AND u.chat_id = ${filters.userChatId})`);
    // Never reveal who wrote an anonymous report by filtering on someone else's id.
    and.push(authorFilterSql(actor, "r", "c"));
  }
  if (filters.search !== undefined) and.push(matchingReportsSql(actor.teamId, filters.search, "r"));
  if (filters.after) {
    const { postedAt, id } = filters.after;
    and.push(Prisma.sql`r.submitted_at <= ${postedAt} AND (r.submitted_at < ${postedAt} OR r.id < ${id})`);
  }
  return Prisma.join(and, " AND ");
}

/**
 * The SQL condition (over `r` and `c`) of report `id` when `actor` may read it (spec §4.2 GET
 * /v2/reports/{id}, lib/api/v2/reports.ts `getReportWire`): not pending or discarded, of the
 * actor's team and an active standup, and of a paused or confidential standup only for the
 * standup's owner or the report's author (`reportReadSql`), past the anonymity threshold.
 */
export function reportReadFilterSql(actor: Actor, id: number): Prisma.Sql {
  return Prisma.sql`r.id = ${id} AND ${reportReadSql(actor, "r", "c")} AND ${anonymousReportShownSql(actor, "r")}`;
}

/** The Prisma select of a report with its channel message and author card (legacy shapes, spec §2.8). */
export const reportDetailSelect = {
  id: true,
  checkin_id: true,
  status: true,
  is_anonymous: true,
  started_at: true,
  submitted_at: true,
  created_at: true,
  checkin: {
    select: {
      name: true,
      is_confidential: true,
      broadcast_thread: true,
      broadcast_channel: { select: { chat_id: true, name: true } },
    },
  },
  user: {
    select: { chat_id: true, username: true, realname: true, email: true, avatar_url: true, is_admin: true, is_billing_admin: true },
  },
  answers: {
    select: { id: true, question_id: true, text: true, question: { select: { text: true, color: true } } },
    orderBy: [{ question: { position: "asc" } }, { question_id: "asc" }],
  },
  chat_messages: {
    where: { kind: "report", deleted_at: null },
    select: { ts: true, created_at: true },
    orderBy: { id: "desc" },
    take: 1,
  },
} satisfies Prisma.ReportSelect;

/** A report loaded with `reportDetailSelect`. */
export type ReportDetailView = Prisma.ReportGetPayload<{ select: typeof reportDetailSelect }>;

/** Filters of a report search (GET /v1/reports/), already validated. No time window limit. */
export type ReportSearchFilters = {
  /** Page size (1..100). */
  limit: number;
  standupId?: number;
  /** Authors: numeric user ids or chat ids. Unknown references match nothing. */
  userRefs?: Array<number | string>;
  /** Exclusive lower bound on the submission time. */
  after?: Date;
  /** Exclusive upper bound on the submission time. */
  before?: Date;
  /** Only answers to these questions are loaded (reports themselves are not filtered). */
  questionIds?: number[];
};

/**
 * Submitted reports of active standups the actor can see (`reportListWhere`, as `listReports`),
 * newest first (submission time, then id), at most `limit`, without a window limit. Filtering by
 * authors other than the actor skips anonymous reports (`authorFilterWhere`).
 */
export async function searchReports(actor: Actor, filters: ReportSearchFilters, client: Tx = db): Promise<ReportDetailView[]> {
  return reportDetailPage(reportSearchSql(actor, filters), filters.limit, { questionIds: filters.questionIds }, client);
}

/**
 * The SQL condition (over `r` and `c`) of the reports a search selects for `actor`: the page
 * condition of `searchReports` and of the v1 list's wire page (lib/api/v1/reports.ts `searchReportWiresV1`).
 */
export function reportSearchSql(actor: Actor, filters: ReportSearchFilters): Prisma.Sql {
  const and: Prisma.Sql[] = [reportListSql(actor, {}, "r", "c"), anonymousReportShownSql(actor, "r")];
  if (filters.standupId !== undefined) and.push(Prisma.sql`r.checkin_id = ${filters.standupId}`);
  if (filters.after) and.push(Prisma.sql`r.submitted_at > ${filters.after}`);
  if (filters.before) and.push(Prisma.sql`r.submitted_at < ${filters.before}`);
  if (filters.userRefs?.length) {
    const numeric = filters.userRefs.filter((r): r is number => typeof r === "number");
    const chat = filters.userRefs.filter((r): r is string => typeof r === "string");
    and.push(Prisma.sql`r.user_id IN (SELECT u.id FROM users u WHERE u.team_id = ${actor.teamId}
      AND (u.id = ANY(${numeric}::int[]) OR u.chat_id = ANY(${chat}::text[])))`);
    const onlySelf = filters.userRefs.every((r) => r === actor.userId || r === actor.userChatId);
    if (!onlySelf) and.push(authorFilterSql(actor, "r", "c"));
  }
  return Prisma.join(and, " AND ");
}

/**
 * One report of the actor (any status) with `reportDetailSelect`.
 * @throws NotFoundError when it does not exist or the actor did not write it.
 */
export async function getOwnReport(actor: Actor, id: number, client: Tx = db): Promise<ReportDetailView> {
  const row = await client.report.findFirst({ where: { id, team_id: actor.teamId, user_id: actor.userId }, select: reportDetailSelect });
  if (!row) throw new NotFoundError("Report");
  return row;
}

/**
 * Display names of every person of the actor's team by chat id (e.g. U0123ABCD → "Ada Lovelace"),
 * deactivated people included: history keeps names (the report cards, the overview, exports and
 * poll results name past authors with it). One query.
 */
export async function teamPeopleNames(actor: Actor, client: Tx = db): Promise<Map<string, string>> {
  const users = await client.user.findMany({ where: { team_id: actor.teamId }, select: { chat_id: true, realname: true } });
  return new Map(users.map((u) => [u.chat_id, u.realname]));
}
