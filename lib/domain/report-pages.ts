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
 * `reportWirePage` goes one step further for the v2 API reads: PostgreSQL returns each report as
 * its finished wire JSON text (spec §2.4), so Node neither parses nor re-serializes the rows.
 */

import { db, queryRows, type Tx } from "@/lib/db";
import { liveReportBroadcastSql } from "@/lib/domain/outbox-reports";
import type { ReportDetailView, ReportView } from "@/lib/domain/reports";
import { isoTimestampSql, jsonArraySql } from "@/lib/domain/wire-sql";
import { Prisma } from "@/lib/generated/prisma/client";

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
 * The page: ids of the reports matching `where`, newest first (submission time, then id), and any
 * `columns` of `r` and `c` the statement reads once per page row.
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
function pageCte(where: Prisma.Sql, limit: number, columns: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`WITH page AS MATERIALIZED (
    SELECT r.id ${columns} FROM reports r CROSS JOIN LATERAL (SELECT c.* FROM checkins c WHERE c.id = r.checkin_id OFFSET 0) c
    WHERE ${where}
    ORDER BY r.submitted_at DESC, r.id DESC
    ${literalLimit(limit)})`;
}

/**
 * The answers of report `r` as a JSON array of `answerFields`, optionally only some questions'.
 * Matches on (team_id, report_id), the leading columns of answers' unique index.
 */
function answersJson(answerFields: Prisma.Sql, questionIds?: number[]): Prisma.Sql {
  const only = questionIds ? Prisma.sql`AND a.question_id = ANY(${questionIds}::int[])` : Prisma.empty;
  return Prisma.sql`(SELECT COALESCE(json_agg(${answerFields} ORDER BY q.position, a.question_id), '[]'::json)
    FROM answers a JOIN questions q ON q.id = a.question_id
    WHERE a.team_id = r.team_id AND a.report_id = r.id ${only})`;
}

/**
 * Up to `limit` reports matching `where` as `ReportView`s (the v2 shape), with their answers when
 * `withAnswers`. One statement.
 */
export async function reportViewPage(
  where: Prisma.Sql,
  limit: number,
  opts: { withAnswers: boolean },
  client: Tx = db,
): Promise<ReportView[]> {
  const answers = opts.withAnswers
    ? Prisma.sql`, ${answersJson(Prisma.sql`json_build_object('id', a.id, 'question_id', a.question_id, 'text', a.text, 'question', json_build_object('text', q.text))`)} AS answers`
    : Prisma.empty;
  return queryRows<ReportView>(
    Prisma.sql`${pageCte(where, limit)}
    SELECT r.id, r.checkin_id, r.submitted_at, r.is_anonymous,
      json_build_object('name', c.name, 'is_anonymous', c.is_anonymous, 'is_confidential', c.is_confidential) AS checkin,
      json_build_object('chat_id', u.chat_id) AS "user"
      ${answers}
    FROM page JOIN reports r ON r.id = page.id JOIN checkins c ON c.id = r.checkin_id JOIN users u ON u.id = r.user_id
    ORDER BY r.submitted_at DESC, r.id DESC`,
    client,
  );
}

type DetailRow = Omit<ReportDetailView, "chat_messages"> & { chat_messages: Array<{ ts: string; created_at: string }> };

/**
 * Up to `limit` reports matching `where` as `ReportDetailView`s (the v1 shape), with only the
 * answers to `questionIds` when given. One statement.
 */
export async function reportDetailPage(
  where: Prisma.Sql,
  limit: number,
  opts: { questionIds?: number[] },
  client: Tx = db,
): Promise<ReportDetailView[]> {
  const answer = Prisma.sql`json_build_object('id', a.id, 'question_id', a.question_id, 'text', a.text,
    'question', json_build_object('text', q.text, 'color', q.color))`;
  const rows = await queryRows<DetailRow>(
    Prisma.sql`${pageCte(where, limit)}
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
 * `JSON.stringify(serializeReportV2(view))` (lib/api/v2/reports.ts) gives for it: the same keys in
 * the same order, no whitespace, `user_id` null when the report is anonymous (`reportAuthor`),
 * `posted_at` as `Date.toISOString()` prints it, and `answers` (question position, then question
 * id) only when `withAnswers`. One statement; `row_to_json` of a row writes compact JSON with
 * JSON.stringify's escaping. tests/report-wire.test.ts compares both renderings byte for byte.
 *
 * Why (issue 14): parsing the nested rows into objects and serializing them again was the largest
 * per-report cost in Node. Sending the texts as they are saves 7–10 µs of Node CPU per report over
 * HTTP (A/B of two production builds on demo data).
 */
export async function reportWirePage(
  where: Prisma.Sql,
  limit: number,
  opts: { withAnswers: boolean },
  client: Tx = db,
): Promise<ReportWireRow[]> {
  const answers = opts.withAnswers
    ? Prisma.sql`, (SELECT ${jsonArraySql("aw", "q.position, a.question_id")}
        FROM answers a JOIN questions q ON q.id = a.question_id,
          LATERAL (SELECT a.id, a.question_id, q.text AS question, a.text AS answer) aw
        WHERE a.team_id = r.team_id AND a.report_id = r.id) AS answers`
    : Prisma.empty;
  // The page carries what the rows read of reports and standups, so neither is joined again (on a
  // small table the planner hash-joined the page to a Seq Scan of all reports); the author is one
  // primary-key lookup per row.
  const columns = Prisma.sql`, r.team_id, r.checkin_id, r.user_id, r.submitted_at, r.is_anonymous, c.name AS standup_name, c.is_confidential`;
  return queryRows<ReportWireRow>(
    Prisma.sql`${pageCte(where, limit, columns)}
    SELECT r.id, ${isoTimestampSql("r.submitted_at")} AS submitted_at, row_to_json(w)::text AS json
    FROM page r,
      LATERAL (SELECT r.id, r.checkin_id AS standup_id, r.standup_name,
        CASE WHEN r.is_anonymous THEN NULL ELSE (SELECT u.chat_id FROM users u WHERE u.id = r.user_id) END AS user_id,
        ${isoTimestampSql("r.submitted_at")} AS posted_at,
        r.is_anonymous, r.is_confidential ${answers}) w
    ORDER BY r.submitted_at DESC, r.id DESC`,
    client,
  );
}

/**
 * A page of `reportWirePageV1`: the v1 list (spec §2.8) as the JSON text of an array, and the
 * reports whose author's `member.profileImg` is still to be filled in by Node (`"profileImg":null`
 * in `json`; see `reportWirePageV1`), usually none.
 */
export type ReportWirePageV1 = { json: string; gravatar: Array<{ id: number; email: string }> };

/** ASCII upper- and lower-case letters: `translate` with them lower-cases like JS for ASCII text, under any collation. */
const ASCII_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ASCII_LOWER = "abcdefghijklmnopqrstuvwxyz";

/** `to_json(expr)::text`: a JSON string literal with JSON.stringify's escaping (or `null`). */
function jsonLiteralSql(expr: string): string {
  return `coalesce(to_json(${expr})::text, 'null')`;
}

/**
 * Up to `limit` reports matching `where`, newest first (submission time, then id), as the exact
 * JSON text of `JSON.stringify(rows.map((row) => serializeReportListItemV1(row)))`
 * (lib/api/v1/reports.ts; the v1 list items of spec §2.8 without `html`): the same keys in the
 * same order, `timestamp` in whole Unix seconds (floored), `member` last and only when the report
 * is not anonymous, the answers (optionally only those to `questionIds`) by question position then
 * id, `images` [].
 *
 * `member.profileImg` is the author's avatar URL, or the Gravatar URL of the MD5 of the trimmed,
 * lower-cased e-mail (`profileImgOf`, lib/api/v1/users.ts). PostgreSQL computes that hash when the
 * e-mail is printable ASCII without spaces, where trimming changes nothing and ASCII lower-casing
 * is JS's `toLowerCase`. For any other e-mail (non-ASCII, whitespace) it writes `"profileImg":null`
 * and lists the report in `gravatar`, and the caller fills the object in (`reportListV1Text`, lib/api/v1/reports.ts;
 * JS and PostgreSQL disagree on trimming and case mapping outside ASCII).
 *
 * One statement (issue 14: the cost per report is what `/v1/reports/?limit=100` against
 * `limit=10` measures): the page's rows are read once with their standup, the answers are
 * aggregated per report in one grouped pass, and every object is concatenated as text (strings
 * escaped by `to_json`), so no JSON is parsed. Each item comes back as a row of its own and Node
 * joins them: aggregating them into one text in PostgreSQL (a sorted `string_agg`) cost 0.11–0.40 ms
 * more at `limit=100` on the 1M-report data of `npm run bench:data` (four runs; e.g. 2.53 → 2.27 ms
 * per statement), nothing at `limit=10`. tests/report-wire.test.ts compares both renderings byte for
 * byte.
 *
 * The answers and the broadcast message are read per page row (a `LATERAL` subquery: `OFFSET 0`
 * keeps the answers' one from being flattened into a join), so their cost follows the page size,
 * not the table size. As plain joins, the cached generic plan hash-joined the page to a Seq Scan of
 * all answers and all chat messages while those tables were small (the demo data: 1.85 ms for
 * `limit=30`, now 1.28 ms); at 1M reports the difference is within 5 % (issue 14 closing notes).
 */
export async function reportWirePageV1(
  where: Prisma.Sql,
  limit: number,
  opts: { questionIds?: number[] },
  client: Tx = db,
): Promise<ReportWirePageV1> {
  const only = opts.questionIds ? Prisma.sql`AND a.question_id = ANY(${opts.questionIds}::int[])` : Prisma.empty;
  const lower = Prisma.sql`translate(u.email, ${Prisma.raw(`'${ASCII_UPPER}'`)}, ${Prisma.raw(`'${ASCII_LOWER}'`)})`;
  const img = Prisma.raw(
    ["image_24", "image_32", "image_48", "image_72", "image_192", "image_512", "image_original"]
      .map((k, i) => `${i ? "," : "{"}"${k}":' || img.json`)
      .join(" || '"),
  );
  // An anonymous report's message id is a time (lib/domain/chat-ts.ts): not shown (issue 45, coarse times).
  const tsOf = "CASE WHEN p.is_anonymous THEN NULL ELSE msg.ts END";
  const rows = await queryRows<{ id: number; json: string; gravatar_email: string | null }>(
    Prisma.sql`${pageCte(
      where,
      limit,
      Prisma.sql`, r.team_id, r.user_id, r.checkin_id, r.is_anonymous, r.submitted_at, r.created_at,
        c.name AS standup_name, c.broadcast_channel_id, c.broadcast_thread, c.is_confidential`,
    )},
    ans AS (
      SELECT p.id AS report_id, string_agg('{"id":' || a.id || ',"question":' || ${Prisma.raw(jsonLiteralSql("q.text"))}
          || ',"question_id":' || a.question_id || ',"color":' || ${Prisma.raw(jsonLiteralSql("q.color"))}
          || ',"answer":' || ${Prisma.raw(jsonLiteralSql("a.text"))} || ',"images":[]}', ',' ORDER BY q.position, a.question_id) AS json
      FROM page p CROSS JOIN LATERAL (SELECT a.id, a.question_id, a.text FROM answers a
          WHERE a.team_id = p.team_id AND a.report_id = p.id ${only} OFFSET 0) a
        JOIN questions q ON q.id = a.question_id
      GROUP BY p.id),
    item AS (
      SELECT p.id, p.submitted_at, CASE WHEN NOT p.is_anonymous AND img.url IS NULL THEN u.email END AS gravatar_email,
        '{"id":' || p.id || ',"standup_id":' || p.checkin_id || ',"standup_name":' || ${Prisma.raw(jsonLiteralSql("p.standup_name"))}
        || ',"timestamp":' || floor(extract(epoch FROM COALESCE(p.submitted_at, p.created_at)))::bigint
        || ',"channel":' || ${Prisma.raw(jsonLiteralSql("COALESCE(ch.name, '')"))} || ',"is_anonymous":' || p.is_anonymous
        || ',"broadcast_thread":' || p.broadcast_thread || ',"is_confidential":' || p.is_confidential
        || ',"chat_ts":' || ${Prisma.raw(jsonLiteralSql(tsOf))} || ',"slack_ts":' || ${Prisma.raw(jsonLiteralSql(tsOf))}
        || ',"questions":[' || coalesce(ans.json, '') || ']'
        || CASE WHEN p.is_anonymous THEN '}'
          ELSE ',"member":{"id":' || ${Prisma.raw(jsonLiteralSql("u.chat_id"))} || ',"username":' || ${Prisma.raw(jsonLiteralSql("u.username"))}
            || ',"realname":' || ${Prisma.raw(jsonLiteralSql("u.realname"))} || ',"profileImg":'
            || CASE WHEN img.url IS NULL THEN 'null' ELSE '${img} || '}' END || '}}' END AS json
      FROM page p JOIN users u ON u.id = p.user_id
        LEFT JOIN channels ch ON ch.id = p.broadcast_channel_id
        LEFT JOIN ans ON ans.report_id = p.id
        LEFT JOIN LATERAL (${liveReportBroadcastSql("m.ts", "p")}) msg ON true,
        -- OFFSET 0 keeps the URL computed once per row (a flattened subquery repeats the expression at each use)
        LATERAL (SELECT x.url, to_json(x.url)::text AS json FROM (SELECT COALESCE(NULLIF(u.avatar_url, ''), CASE WHEN u.email ~ '^[!-~]*$'
          THEN 'https://www.gravatar.com/avatar/' || md5(${lower}) || '?s=192&d=identicon' END) AS url OFFSET 0) x) img)
    SELECT item.id, item.json, item.gravatar_email FROM item ORDER BY item.submitted_at DESC, item.id DESC`,
    client,
  );
  const gravatar: ReportWirePageV1["gravatar"] = [];
  for (const row of rows) if (row.gravatar_email !== null) gravatar.push({ id: row.id, email: row.gravatar_email });
  return { json: `[${rows.map((row) => row.json).join(",")}]`, gravatar };
}
