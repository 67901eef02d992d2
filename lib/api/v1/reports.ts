/**
 * Legacy (v1) report serializers (spec §2.8 "v1 report (list item)" and "(create response)",
 * compatibility.md "Report list item" / "Report create response"). Rows come from
 * `reportDetailSelect` (lib/domain/reports.ts). The list items of GET /v1/reports/ without `html`
 * are also rendered by PostgreSQL (`reportWirePageV1`, over the page of lib/domain/report-pages.ts),
 * proven equal to `serializeReportListItemV1` byte for byte by lib/api/v2/reports.test.ts.
 *
 * Decisions where the spec is silent:
 * - `timestamp` is the submission time in whole Unix seconds (floored); `started_at` falls back to
 *   the creation time when the member never opened the report; `done_at` is the submission time.
 * - `channel` is the broadcast channel's name (without '#'), "" when the standup has none.
 * - `chat_ts` and `slack_ts` carry the same value: the id of the report's broadcast message, or
 *   null when it was not broadcast. `broadcasted_at` is that message's creation time as an ISO 8601
 *   string, null when not broadcast.
 * - `member.id` is the author's chat-style string id (spec §2.8: `id` (string)), unlike the
 *   numeric ids of the user objects in v1 standups and polls (see lib/api/v1/users.ts).
 * - `member.profileImg` holds the one stored avatar URL under every usual size key
 *   (`image_24` … `image_512`, plus `image_original`).
 * - Answer `images` is always [] (the service stores no answer attachments).
 */

import { z } from "zod";
import { renderAnswerHtml } from "@/lib/api/v1/html";
import { profileImgOf, roleOf, zRole } from "@/lib/api/v1/users";
import { zChatUserId, zId } from "@/lib/api/wire";
import { db, queryRows, type Tx } from "@/lib/db";
import { reportAuthor } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { liveReportBroadcastSql } from "@/lib/domain/outbox-reports";
import { reportPageCte, type SqlPageQuery } from "@/lib/domain/report-pages";
import { type ReportDetailView, type ReportSearchFilters, reportSearchSql } from "@/lib/domain/reports";
import { Prisma } from "@/lib/generated/prisma/client";

export type V1ProfileImg = Record<"image_24" | "image_32" | "image_48" | "image_72" | "image_192" | "image_512" | "image_original", string>;

const profileImgSizesSchema = z
  .record(z.string(), z.string())
  .meta({ description: "Image URLs by size (image_24 … image_512, image_original)." });

const reportAnswerV1Schema = z
  .strictObject({
    id: zId.meta({ description: "Answer id." }),
    question: z.string().meta({ description: "Question text." }),
    question_id: zId,
    color: z.string(),
    answer: z.string().meta({ description: "HTML when `html=true`." }),
    images: z.array(z.strictObject({ title: z.string(), image_url: z.string() })),
  })
  .meta({ id: "ReportAnswerV1" });

const zChatTs = z.string().nullable().meta({ description: "Id of the report's chat message; null when not broadcast." });

/** v1 report list item (spec §2.8 + compatibility.md "Report list item"). */
export const reportListItemV1Schema = z
  .strictObject({
    id: zId,
    standup_id: zId,
    timestamp: z.number().int().meta({ description: "Unix time (seconds)." }),
    channel: z.string(),
    is_anonymous: z.boolean(),
    broadcast_thread: z.boolean(),
    is_confidential: z.boolean(),
    chat_ts: zChatTs,
    slack_ts: zChatTs.meta({ description: "Same value as `chat_ts` (name read by existing clients)." }),
    member: z
      .strictObject({ id: zChatUserId, username: z.string(), realname: z.string(), profileImg: profileImgSizesSchema })
      .optional()
      .meta({ description: "Omitted when the report is anonymous." }),
    questions: z.array(reportAnswerV1Schema),
    standup_name: z.string().meta({ description: "Extension: name of the report's standup." }),
  })
  .meta({ id: "ReportListItemV1" });

/** v1 report create response (spec §2.8 + compatibility.md "Report create response"). */
export const reportCreatedV1Schema = z
  .strictObject({
    id: zId,
    chat_ts: zChatTs,
    slack_ts: zChatTs,
    standup_id: zId,
    timestamp: z.number().int(),
    started_at: z.number().int(),
    done_at: z.number().int().positive(),
    broadcasted_at: z.string().nullable().meta({ description: "ISO 8601 time of the broadcast; null when nothing was broadcast." }),
    channel: z.string(),
    is_anonymous: z.boolean().meta({ description: "Extension: whether the report is anonymous." }),
    member: z.strictObject({
      id: zChatUserId,
      role: zRole,
      username: z.string(),
      realname: z.string(),
      profileImg: profileImgSizesSchema,
    }),
    answers: z.array(reportAnswerV1Schema),
  })
  .meta({ id: "ReportCreatedV1" });

/** `member` of a v1 report list item. */
export type V1ReportMember = NonNullable<z.output<typeof reportListItemV1Schema>["member"]>;
export type V1ReportAnswer = z.output<typeof reportAnswerV1Schema>;

/** v1 report list item as sent: the documented shape plus `standup_name` (tests/api/openapi.test.ts KNOWN_DEVIATIONS). */
export type V1ReportListItem = z.output<typeof reportListItemV1Schema> & { standup_name: string };

/**
 * v1 report create response as sent: the documented shape plus `is_anonymous`, and
 * `broadcasted_at` null when nothing was broadcast (tests/api/openapi.test.ts KNOWN_DEVIATIONS).
 */
export type V1ReportCreated = Omit<z.output<typeof reportCreatedV1Schema>, "broadcasted_at"> & {
  broadcasted_at: string | null;
  is_anonymous: boolean;
};

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** Every size key pointing at the user's one profile image URL. */
export function profileImgSizes(user: { avatar_url: string | null; email: string }): V1ProfileImg {
  const url = profileImgOf(user);
  return { image_24: url, image_32: url, image_48: url, image_72: url, image_192: url, image_512: url, image_original: url };
}

function memberOf(row: ReportDetailView): V1ReportMember {
  return { id: row.user.chat_id, username: row.user.username, realname: row.user.realname, profileImg: profileImgSizes(row.user) };
}

function answersOf(row: ReportDetailView, html: boolean): V1ReportAnswer[] {
  return row.answers.map((a) => ({
    id: a.id,
    question: a.question.text,
    question_id: a.question_id,
    color: a.question.color,
    answer: html ? renderAnswerHtml(a.text) : a.text,
    images: [],
  }));
}

/** Serializes a v1 report list item; `member` is omitted for anonymous reports (`reportAuthor`, lib/domain/access.ts); `html` renders answers as safe HTML. */
export function serializeReportListItemV1(row: ReportDetailView, opts: { html?: boolean } = {}): V1ReportListItem {
  const member = reportAuthor(row, row.user);
  // An anonymous report's message id is a time (lib/domain/chat-ts.ts): not shown (issue 45, coarse times).
  const ts = row.is_anonymous ? null : (row.chat_messages[0]?.ts ?? null);
  const out: V1ReportListItem = {
    id: row.id,
    standup_id: row.checkin_id,
    standup_name: row.checkin.name,
    timestamp: unix(row.submitted_at ?? row.created_at),
    channel: row.checkin.broadcast_channel?.name ?? "",
    is_anonymous: member === null,
    broadcast_thread: row.checkin.broadcast_thread,
    is_confidential: row.checkin.is_confidential,
    chat_ts: ts,
    slack_ts: ts,
    questions: answersOf(row, opts.html ?? false),
  };
  if (member) out.member = memberOf(row);
  return out;
}

/**
 * The JSON text of a v1 list page built in SQL (`searchReportWiresV1`):
 * sent as is, except that `member.profileImg` is filled in here for the reports PostgreSQL left to
 * us (`gravatar`: e-mails outside printable ASCII, see `reportWirePageV1`). The result is
 * `JSON.stringify(rows.map((row) => serializeReportListItemV1(row)))` of the same reports.
 */
export function reportListV1Text(page: ReportWirePageV1): string {
  if (!page.gravatar.length) return page.json;
  const emails = new Map(page.gravatar.map((g) => [g.id, g.email]));
  const items = JSON.parse(page.json) as V1ReportListItem[];
  for (const item of items) {
    const email = emails.get(item.id);
    if (email !== undefined && item.member) item.member.profileImg = profileImgSizes({ avatar_url: null, email });
  }
  return JSON.stringify(items);
}

/** Serializes the create response of POST /v1/reports/ (always with `member` and its `role`: it is the caller's own report). */
export function serializeReportCreatedV1(row: ReportDetailView): V1ReportCreated {
  const message = row.chat_messages[0];
  const doneAt = row.submitted_at ?? row.created_at;
  return {
    id: row.id,
    chat_ts: message?.ts ?? null,
    slack_ts: message?.ts ?? null,
    standup_id: row.checkin_id,
    timestamp: unix(doneAt),
    started_at: unix(row.started_at ?? row.created_at),
    done_at: Math.max(1, unix(doneAt)),
    broadcasted_at: message ? message.created_at.toISOString() : null,
    channel: row.checkin.broadcast_channel?.name ?? "",
    is_anonymous: reportAuthor(row, row.user) === null,
    member: { ...memberOf(row), role: roleOf(row.user) },
    answers: answersOf(row, false),
  };
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
 * (the v1 list items of spec §2.8 without `html`): the same keys in the
 * same order, `timestamp` in whole Unix seconds (floored), `member` last and only when the report
 * is not anonymous, the answers (optionally only those to `questionIds`) by question position then
 * id, `images` [].
 *
 * `member.profileImg` is the author's avatar URL, or the Gravatar URL of the MD5 of the trimmed,
 * lower-cased e-mail (`profileImgOf`, lib/api/v1/users.ts). PostgreSQL computes that hash when the
 * e-mail is printable ASCII without spaces, where trimming changes nothing and ASCII lower-casing
 * is JS's `toLowerCase`. For any other e-mail (non-ASCII, whitespace) it writes `"profileImg":null`
 * and lists the report in `gravatar`, and the caller fills the object in (`reportListV1Text`;
 * JS and PostgreSQL disagree on trimming and case mapping outside ASCII).
 *
 * One statement (issue 14: the cost per report is what `/v1/reports/?limit=100` against
 * `limit=10` measures): the page's rows are read once with their standup, the answers are
 * aggregated per report in one grouped pass, and every object is concatenated as text (strings
 * escaped by `to_json`), so no JSON is parsed. Each item comes back as a row of its own and Node
 * joins them: aggregating them into one text in PostgreSQL (a sorted `string_agg`) cost 0.11–0.40 ms
 * more at `limit=100` on the 1M-report data of `npm run bench:data` (four runs; e.g. 2.53 → 2.27 ms
 * per statement), nothing at `limit=10`. lib/api/v2/reports.test.ts compares both renderings byte for
 * byte.
 *
 * The answers and the broadcast message are read per page row (a `LATERAL` subquery: `OFFSET 0`
 * keeps the answers' one from being flattened into a join), so their cost follows the page size,
 * not the table size. As plain joins, the cached generic plan hash-joined the page to a Seq Scan of
 * all answers and all chat messages while those tables were small (the demo data: 1.85 ms for
 * `limit=30`, now 1.28 ms); at 1M reports the difference is within 5 % (issue 14 closing notes).
 */
export const reportWirePageV1: SqlPageQuery<{ questionIds?: number[] }, ReportWirePageV1> = async (where, limit, opts, client = db) => {
  const only = opts.questionIds ? Prisma.sql`AND a.question_id = ANY(${opts.questionIds}::int[])` : Prisma.empty;
  const lower = Prisma.sql`translate(u.email, ${Prisma.raw(`'${ASCII_UPPER}'`)}, ${Prisma.raw(`'${ASCII_LOWER}'`)})`;
  const img = Prisma.raw(
    ["image_24", "image_32", "image_48", "image_72", "image_192", "image_512", "image_original"]
      .map((k, i) => `${i ? "," : "{"}"${k}":' || img.json`)
      .join(" || '"),
  );
  // An anonymous report's message id is a time (lib/chat/ts.ts): not shown (issue 45, coarse times).
  const tsOf = "CASE WHEN p.is_anonymous THEN NULL ELSE msg.ts END";
  const rows = await queryRows<{ id: number; json: string; gravatar_email: string | null }>(
    Prisma.sql`${reportPageCte(
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
};

/**
 * The reports a search selects for `actor` (lib/domain/reports.ts `reportSearchSql`, the page of
 * `searchReports`) as the JSON text of the v1 list (`reportWirePageV1`), for GET /v1/reports/
 * without `html`; `reportListV1Text` finishes it.
 */
export async function searchReportWiresV1(actor: Actor, filters: ReportSearchFilters, client: Tx = db): Promise<ReportWirePageV1> {
  return reportWirePageV1(reportSearchSql(actor, filters), filters.limit, { questionIds: filters.questionIds }, client);
}
