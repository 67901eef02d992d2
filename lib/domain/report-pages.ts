/**
 * One-statement report pages (issue 14, read path): the page of report ids in list order first
 * (a `MATERIALIZED` CTE: filter, `ORDER BY submitted_at DESC, id DESC`, `LIMIT`), then the nested
 * JSON (standup, author, answers, broadcast message) of just those rows, in one SQL statement.
 *
 * Why not Prisma's nested select: with relation joins PostgreSQL builds the nested JSON of every
 * report that passes the filter and sorts afterwards whenever it estimates few matching rows,
 * which it does for the visibility rule (measured on the demo data: `/v1/reports/?limit=30` built
 * 1,011 reports' JSON to answer 30, 67 ms of SQL instead of ~2 ms).
 *
 * The rows have exactly the shapes of the Prisma selects they replace (`ReportView` with
 * `reportViewSelect`, `ReportDetailView` with `reportDetailSelect`, lib/domain/reports.ts): the same
 * keys, the same nesting, `Date` for timestamps, answers ordered by question position then
 * question id. The API tests compare the serialized bodies. Callers pass the filter as SQL over
 * the reports alias `r` and its standup's checkins alias `c` (lib/domain/access.ts `reportListSql`).
 *
 * The API's reads go one step further and have PostgreSQL write each report as its finished wire
 * JSON text over the same page (`reportPageCte`): lib/api/v2/reports.ts `reportWirePage`,
 * lib/api/v1/reports.ts `reportWirePageV1`.
 */

import { db, queryRows, type Tx } from "@/lib/db";
import { liveReportBroadcastSql } from "@/lib/domain/outbox-reports";
import type { ReportDetailView, ReportView } from "@/lib/domain/reports";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The contract of the one-statement page reads (here, lib/domain/checkin-pages.ts and the wire
 * reads of lib/api/v1|v2): the rows matching `where` (trusted SQL over the aliases each read
 * documents), in its list order, at most `limit` (written into the SQL text, `literalLimit`),
 * shaped by `opts`, read on `client` (default the shared `db`) in one statement.
 */
export type SqlPageQuery<Opts, Result> = (where: Prisma.Sql, limit: number, opts: Opts, client?: Tx) => Promise<Result>;

/**
 * `LIMIT n` with n written into the SQL text, not bound: a named statement's cached generic plan
 * then knows the page size. With a bound LIMIT PostgreSQL's generic plan assumes a tenth of the
 * table and chose a Seq Scan of all reports for the v1 list (157 ms at 1M reports, where the plan
 * for the actual limit takes 0.5 ms; `npm run bench:data` checks generic plans).
 * @throws Error when `limit` is not a positive integer (callers pass validated page sizes).
 */
export function literalLimit(limit: number): Prisma.Sql {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`Invalid page size ${limit}`);
  return Prisma.raw(`LIMIT ${limit}`);
}

/**
 * The page (a `WITH page AS MATERIALIZED (...)` clause, to be followed by the statement's SELECT):
 * ids of the reports matching `where` (SQL over `r` and `c`), newest first (submission time, then
 * id), at most `limit`, and any `columns` of `r` and `c` the statement reads once per page row.
 *
 * The reports are read first, each report's standup looked up after it (a `LATERAL` subquery that
 * `OFFSET 0` keeps from being flattened into a join), so the plan walks a reports index in list
 * order and stops at the page's last row. As a plain join, the generic plan PostgreSQL caches for
 * the named statement could start from the standups instead when its estimates for them came out
 * low: it then read every report of the visible standups in the window and sorted them. It did so
 * once one standup had 2,340 reports in the 7-day window (the demo data after `npm run bench`'s POST
 * runs): 2,258 buffers and 1.14 ms for a 25-report page, 0.54 ms with this order; the same
 * 0.60 ms on the fresh demo data (tests/api/report-page-plan.test.ts). Its worst case is a caller
 * who may read few of the window's reports: the walk passes over the others, at most the whole
 * window (0.81 ms over about 2,400 reports none of which the caller may read; 0.18 ms as a join).
 */
export function reportPageCte(where: Prisma.Sql, limit: number, columns: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`WITH page AS MATERIALIZED (
    SELECT r.id ${columns} FROM reports r CROSS JOIN LATERAL (SELECT c.* FROM checkins c WHERE c.id = r.checkin_id OFFSET 0) c
    WHERE ${where}
    ORDER BY r.submitted_at DESC, r.id DESC
    ${literalLimit(limit)})`;
}

/**
 * A subquery over the answers of report `r` (aliases `a` and its question `q`), selecting
 * `aggregate` (one value, e.g. a JSON array of the answers), with `from` joined after the
 * question (e.g. a `LATERAL` row) and `only` appended to the WHERE. Matches on (team_id,
 * report_id), the leading columns of answers' unique index. Used by the report pages here and
 * the wire reads (lib/api/v2/reports.ts `reportWirePage`); pass only trusted SQL.
 */
export function reportAnswersSql(aggregate: Prisma.Sql, from: Prisma.Sql = Prisma.empty, only: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`(SELECT ${aggregate}
    FROM answers a JOIN questions q ON q.id = a.question_id ${from}
    WHERE a.team_id = r.team_id AND a.report_id = r.id ${only})`;
}

/** The answers of report `r` as a JSON array of `answerFields` (question position, then id), optionally only some questions'. */
function answersJson(answerFields: Prisma.Sql, questionIds?: number[]): Prisma.Sql {
  const only = questionIds ? Prisma.sql`AND a.question_id = ANY(${questionIds}::int[])` : Prisma.empty;
  return reportAnswersSql(
    Prisma.sql`COALESCE(json_agg(${answerFields} ORDER BY q.position, a.question_id), '[]'::json)`,
    Prisma.empty,
    only,
  );
}

/**
 * Up to `limit` reports matching `where` as `ReportView`s (the v2 shape), with their answers when
 * `withAnswers`. One statement.
 */
export const reportViewPage: SqlPageQuery<{ withAnswers: boolean }, ReportView[]> = async (where, limit, opts, client = db) => {
  const answers = opts.withAnswers
    ? Prisma.sql`, ${answersJson(Prisma.sql`json_build_object('id', a.id, 'question_id', a.question_id, 'text', a.text, 'question', json_build_object('text', q.text))`)} AS answers`
    : Prisma.empty;
  return queryRows<ReportView>(
    Prisma.sql`${reportPageCte(where, limit)}
    SELECT r.id, r.checkin_id, r.submitted_at, r.is_anonymous,
      json_build_object('name', c.name, 'is_anonymous', c.is_anonymous, 'is_confidential', c.is_confidential) AS checkin,
      json_build_object('chat_id', u.chat_id) AS "user"
      ${answers}
    FROM page JOIN reports r ON r.id = page.id JOIN checkins c ON c.id = r.checkin_id JOIN users u ON u.id = r.user_id
    ORDER BY r.submitted_at DESC, r.id DESC`,
    client,
  );
};

type DetailRow = Omit<ReportDetailView, "chat_messages"> & { chat_messages: Array<{ ts: string; created_at: string }> };

/**
 * Up to `limit` reports matching `where` as `ReportDetailView`s (the v1 shape), with only the
 * answers to `questionIds` when given. One statement.
 */
export const reportDetailPage: SqlPageQuery<{ questionIds?: number[] }, ReportDetailView[]> = async (where, limit, opts, client = db) => {
  const answer = Prisma.sql`json_build_object('id', a.id, 'question_id', a.question_id, 'text', a.text,
    'question', json_build_object('text', q.text, 'color', q.color))`;
  const rows = await queryRows<DetailRow>(
    Prisma.sql`${reportPageCte(where, limit)}
    SELECT r.id, r.checkin_id, r.status::text AS status, r.is_anonymous, r.started_at, r.submitted_at, r.created_at,
      json_build_object('name', c.name, 'is_confidential', c.is_confidential, 'broadcast_thread', c.broadcast_thread,
        'broadcast_channel', (SELECT json_build_object('chat_id', ch.chat_id, 'name', ch.name) FROM channels ch WHERE ch.id = c.broadcast_channel_id)) AS checkin,
      json_build_object('chat_id', u.chat_id, 'username', u.username, 'realname', u.realname, 'email', u.email,
        'avatar_url', u.avatar_url, 'is_admin', u.is_admin, 'is_billing_admin', u.is_billing_admin) AS "user",
      ${answersJson(answer, opts.questionIds)} AS answers,
      (SELECT COALESCE(json_agg(json_build_object('ts', m.ts, 'created_at', m.created_at)), '[]'::json)
        FROM (${liveReportBroadcastSql("m.ts, m.created_at", "r")}) m) AS chat_messages
    FROM page JOIN reports r ON r.id = page.id JOIN checkins c ON c.id = r.checkin_id JOIN users u ON u.id = r.user_id
    ORDER BY r.submitted_at DESC, r.id DESC`,
    client,
  );
  // JSON carries timestamps as text: the one nested timestamp becomes a Date like Prisma's.
  return rows.map((row) => ({
    ...row,
    chat_messages: row.chat_messages.map((m) => ({ ts: m.ts, created_at: new Date(m.created_at) })),
  }));
};
