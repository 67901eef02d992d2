/**
 * v2 reports at the HTTP edge: the query schema of GET /v2/reports (spec §4.2), its cursor
 * binding, and the report (spec §2.4) in its two renderings: the serializer (`serializeReportV2`,
 * the writes' responses and webhook events) and the JSON text PostgreSQL builds for the reads
 * (`reportWirePage`, over the page of lib/domain/report-pages.ts), proven equal byte for byte by
 * lib/api/v2/reports.test.ts.
 *
 * Cursors carry the resolved window: page 1 without `since`/`until` fixes the window at
 * [now − 7 days, now) and every later page reuses exactly that window, so a walk neither loses nor
 * repeats items while "now" moves. The binding is the endpoint plus the given since, until,
 * standup_id and user_id (not `limit` or `view`).
 */
import { z } from "zod";
import { type CursorPosition, decodeCursor } from "@/lib/api/cursor";
import { dataEnvelopeSchema, listEnvelopeSchema } from "@/lib/api/envelope";
import { zDate, zLimit } from "@/lib/api/query";
import type { ListSpec } from "@/lib/api/route";
import { zChatUserId, zId, zTimestamp } from "@/lib/api/wire";
import { isoTimestampSql, jsonArraySql } from "@/lib/api/wire-sql";
import { db, queryRows, type Tx } from "@/lib/db";
import { reportAuthor } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { reportAnswersSql, reportPageCte, type SqlPageQuery } from "@/lib/domain/report-pages";
import {
  type ReportListFilters,
  type ReportView,
  reportListFilterSql,
  reportReadFilterSql,
  resolveReportWindow,
} from "@/lib/domain/reports";
import { Prisma } from "@/lib/generated/prisma/client";

/** Query of GET /v2/reports (spec §4.2). */
export const reportListQuerySchema = z.object({
  since: zDate.optional(),
  until: zDate.optional(),
  standup_id: z
    .string()
    .regex(/^\d{1,9}$/, "must be a positive integer")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be a positive integer"))
    .optional(),
  user_id: z.string().trim().min(1, "must not be empty").optional(),
  cursor: z.string().min(1, "must not be empty").optional(),
  limit: zLimit(25),
  view: z.enum(["summary", "full"], { message: "must be summary or full" }).optional().default("full"),
});

export type ReportListQuery = z.output<typeof reportListQuerySchema>;

/**
 * Turns a parsed query into domain filters (window resolved, cursor decoded) and the binding.
 * @throws InvalidParameterError for a reversed or over-90-day window or a bad/mismatched cursor.
 */
export function toReportListFilters(q: ReportListQuery, now: Date = new Date()): { filters: ReportListFilters; binding: unknown } {
  const binding = {
    e: "v2.reports",
    since: q.since?.toISOString() ?? null,
    until: q.until?.toISOString() ?? null,
    standup_id: q.standup_id ?? null,
    user_id: q.user_id ?? null,
  };
  let window: { since: Date; until: Date };
  let after: ReportListFilters["after"];
  if (q.cursor) {
    const [posted, id, since, until, ...extra] = decodeCursor(q.cursor, binding);
    const dates = [posted, since, until].map((v) => (typeof v === "string" ? new Date(v) : null));
    if (dates.some((d) => !d || Number.isNaN(d.getTime())) || typeof id !== "number" || !Number.isInteger(id) || extra.length) {
      throw new InvalidParameterError("Invalid cursor");
    }
    const [postedAt, sinceAt, untilAt] = dates as Date[];
    window = { since: sinceAt, until: untilAt };
    after = { postedAt, id };
  } else {
    window = resolveReportWindow({ since: q.since, until: q.until }, now);
  }
  return {
    filters: {
      since: window.since,
      until: window.until,
      standupId: q.standup_id,
      userChatId: q.user_id,
      after,
      limit: q.limit,
      withAnswers: q.view === "full",
    },
    binding,
  };
}

/**
 * Keyset position of a report (posted_at desc, id desc) plus the window it was listed in;
 * `submitted_at` as ISO text (`ReportWireRow`).
 */
export function reportCursorPosition(filters: Pick<ReportListFilters, "since" | "until">) {
  return (row: { submitted_at: string; id: number }): CursorPosition => [
    row.submitted_at,
    row.id,
    filters.since.toISOString(),
    filters.until.toISOString(),
  ];
}

/**
 * The list of GET /v2/reports (for `listRoute`, and the MCP tool `list_reports`): the report
 * query, its filters and binding, `listReportWires` (each report's v2 JSON built by PostgreSQL,
 * sent as it is), posted-order keyset within the window.
 */
export const reportList: ListSpec<typeof reportListQuerySchema, ReportListFilters, ReportWireRow> = {
  query: reportListQuerySchema,
  filters: (query) => toReportListFilters(query),
  load: ({ actor, filters }) => listReportWires(actor, filters),
  wire: (row) => row.json,
  position: (row, filters) => reportCursorPosition(filters)(row),
};

/** v2 report (spec §2.4) as sent on the wire. */
export const reportV2Schema = z
  .strictObject({
    id: zId,
    standup_id: zId,
    standup_name: z.string(),
    user_id: zChatUserId.nullable().meta({ description: "Author's user id; null when the report is anonymous." }),
    posted_at: zTimestamp,
    is_anonymous: z.boolean().meta({ description: "True if either the standup or the report was anonymous at submission." }),
    is_confidential: z.boolean(),
    answers: z
      .array(
        z.strictObject({
          id: zId,
          question_id: zId,
          question: z.string().meta({ description: "Question text." }),
          answer: z.string().meta({
            description:
              'Plain text. Rating answers are the number picked ("4"), number answers the number ("3.5"), multi-select answers ' +
              'the picked choices joined by a newline ("Planning\\nTesting"); "" is an optional question left blank.',
          }),
        }),
      )
      .optional()
      .meta({ description: "Omitted when `view=summary` on the list endpoint." }),
  })
  .meta({ id: "ReportV2" });

export type V2Report = z.output<typeof reportV2Schema>;
export const reportListV2Schema = listEnvelopeSchema(reportV2Schema, "ReportListV2");
export const reportDataV2Schema = dataEnvelopeSchema(reportV2Schema, "ReportDataV2");

/**
 * Serializes a report (spec §2.4). Anonymity is the one rule of `reportAuthor` (lib/domain/access.ts):
 * the stored flag, set at submission to "standup anonymous OR report anonymous".
 * Anonymous: `user_id` null and `is_anonymous` true. `answers` appear when loaded (omitted for
 * view=summary).
 */
export function serializeReportV2(row: ReportView): V2Report {
  const author = reportAuthor(row, row.user.chat_id);
  const out: V2Report = {
    id: row.id,
    standup_id: row.checkin_id,
    standup_name: row.checkin.name,
    user_id: author,
    posted_at: row.submitted_at.toISOString(),
    is_anonymous: author === null,
    is_confidential: row.checkin.is_confidential,
  };
  if (row.answers) {
    out.answers = row.answers.map((a) => ({ id: a.id, question_id: a.question_id, question: a.question.text, answer: a.text }));
  }
  return out;
}

/**
 * A report of a `reportWirePage`: its keyset position and its v2 wire JSON (spec §2.4) as text.
 * `submitted_at` is the ISO text `Date.toISOString()` prints (milliseconds, "Z"): a position is
 * only ever printed into a cursor, and parsing a timestamp per row into a Date cost Node about
 * 1 µs a row (issue 14).
 */
export type ReportWireRow = { id: number; submitted_at: string; json: string };

/**
 * Up to `limit` reports matching `where`, newest first, each as the exact JSON text that
 * `JSON.stringify(serializeReportV2(view))` (below) gives for it: the same keys in
 * the same order, no whitespace, `user_id` null when the report is anonymous (`reportAuthor`),
 * `posted_at` as `Date.toISOString()` prints it, and `answers` (question position, then question
 * id) only when `withAnswers`. One statement; `row_to_json` of a row writes compact JSON with
 * JSON.stringify's escaping. lib/api/v2/reports.test.ts compares both renderings byte for byte.
 *
 * Why (issue 14): parsing the nested rows into objects and serializing them again was the largest
 * per-report cost in Node. Sending the texts as they are saves 7–10 µs of Node CPU per report over
 * HTTP (A/B of two production builds on demo data).
 */
export const reportWirePage: SqlPageQuery<{ withAnswers: boolean }, ReportWireRow[]> = async (where, limit, opts, client = db) => {
  const answers = opts.withAnswers
    ? Prisma.sql`, ${reportAnswersSql(
        jsonArraySql("aw", "q.position, a.question_id"),
        Prisma.sql`, LATERAL (SELECT a.id, a.question_id, q.text AS question, a.text AS answer) aw`,
      )} AS answers`
    : Prisma.empty;
  // The page carries what the rows read of reports and standups, so neither is joined again (on a
  // small table the planner hash-joined the page to a Seq Scan of all reports); the author is one
  // primary-key lookup per row.
  const columns = Prisma.sql`, r.team_id, r.checkin_id, r.user_id, r.submitted_at, r.is_anonymous, c.name AS standup_name, c.is_confidential`;
  return queryRows<ReportWireRow>(
    Prisma.sql`${reportPageCte(where, limit, columns)}
    SELECT r.id, ${isoTimestampSql("r.submitted_at")} AS submitted_at, row_to_json(w)::text AS json
    FROM page r,
      LATERAL (SELECT r.id, r.checkin_id AS standup_id, r.standup_name,
        CASE WHEN r.is_anonymous THEN NULL ELSE (SELECT u.chat_id FROM users u WHERE u.id = r.user_id) END AS user_id,
        ${isoTimestampSql("r.submitted_at")} AS posted_at,
        r.is_anonymous, r.is_confidential ${answers}) w
    ORDER BY r.submitted_at DESC, r.id DESC`,
    client,
  );
};

/**
 * The reports `filters` select for `actor` (lib/domain/reports.ts `reportListFilterSql`, the page
 * of `listReports`), each as its v2 wire JSON text (`reportWirePage`), for GET /v2/reports.
 * @returns up to `limit + 1` rows (the extra one tells that more exist).
 */
export async function listReportWires(actor: Actor, filters: ReportListFilters, client: Tx = db): Promise<ReportWireRow[]> {
  return reportWirePage(reportListFilterSql(actor, filters), filters.limit + 1, { withAnswers: filters.withAnswers }, client);
}

/**
 * One report readable by `actor` (spec §4.2 GET /v2/reports/{id}; lib/domain/reports.ts
 * `reportReadFilterSql`), with its answers, as its v2 wire JSON text (`reportWirePage`).
 * @throws NotFoundError for pending or discarded reports, other teams, draft/archived standups,
 * and reports of paused or confidential standups unless the caller owns the standup or wrote the report.
 */
export async function getReportWire(actor: Actor, id: number, client: Tx = db): Promise<string> {
  const [row] = await reportWirePage(reportReadFilterSql(actor, id), 1, { withAnswers: true }, client);
  if (!row) throw new NotFoundError("Report");
  return row.json;
}
