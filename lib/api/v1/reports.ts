/**
 * Legacy (v1) report serializers (spec §2.8 "v1 report (list item)" and "(create response)",
 * compatibility.md "Report list item" / "Report create response"). Rows come from
 * `reportDetailSelect` (lib/domain/reports.ts).
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
import { reportAuthor } from "@/lib/domain/access";
import type { ReportWirePageV1 } from "@/lib/domain/report-pages";
import type { ReportDetailView } from "@/lib/domain/reports";

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
 * The JSON text of a v1 list page built in SQL (`searchReportWiresV1`, lib/domain/reports.ts):
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
