/**
 * v2 reports at the HTTP edge: the query schema of GET /v2/reports (spec §4.2), its cursor
 * binding, and the report serializer (spec §2.4).
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
import { zChatUserId, zId, zTimestamp } from "@/lib/api/wire";
import { reportAuthor } from "@/lib/domain/access";
import { InvalidParameterError } from "@/lib/domain/errors";
import { type ReportListFilters, type ReportView, resolveReportWindow } from "@/lib/domain/reports";

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
