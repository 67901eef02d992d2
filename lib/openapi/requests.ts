/**
 * Request pieces of the OpenAPI document that have no zod schema of their own in the routes:
 * path ids (routes read them with `parseId`), the `Idempotency-Key` header (`parseIdempotencyKey`)
 * and the v1 query strings, which lib/api/v1/requests.ts parses by hand from the URL. The v1 query
 * objects below are built from that file's exported building blocks (`zV1Id`, `zUserRef`,
 * `zV1Bool`, `V1_REPORT_LIMIT`), so they validate what the parsers validate. Every body and every
 * v2 query is the route's own schema, imported by lib/openapi/document.ts.
 */
import { z } from "zod";
import type {} from "zod-openapi";
import { zDate } from "@/lib/api/query";
import { V1_REPORT_LIMIT, zStandupPartial, zUserRef, zV1Bool, zV1Id } from "@/lib/api/v1/requests";
import { MAX_DB_ID } from "@/lib/domain/constants";

/** A numeric path id (`parseId`: 1..2147483647; anything else is 404). */
const zPathId = (description: string) => z.number().int().min(1).max(MAX_DB_ID).meta({ description, example: 42 });

export const standupIdPath = z.object({ standupId: zPathId("Standup id.") });
export const pollIdPath = z.object({ pollId: zPathId("Poll id.") });
export const reportIdPath = z.object({ reportId: zPathId("Report id.") });
export const v1IdPath = (what: string) => z.object({ id: zPathId(`${what} id.`) });

/** `Idempotency-Key` of the v2 writes (lib/api/idempotency.ts `parseIdempotencyKey`). */
export const idempotencyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(257)
    .optional()
    .meta({
      description:
        "Optional key for safe retries: 1–255 visible ASCII characters, bare or quoted (clients send a UUID v4). " +
        "Same key and body within 24 h: the stored response is replayed with `Idempotent-Replayed: true`; " +
        "same key, other body: 422 MISMATCHED_IDEMPOTENCY_BODY; while the first request runs: 409 IDEMPOTENCY_KEY_IN_USE.",
      example: "6f1c2f7e-3b0a-4d43-9b7e-2f0b8a7c9d11",
    }),
});

/** Unix seconds, integer or float (compatibility.md). */
const zUnixSeconds = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .meta({ example: "1704067200" });

/** Query of GET /v1/reports/ (spec §4.3, compatibility.md "Query parsing (v1)"), as `parseV1ReportListQuery` reads it. */
export const v1ReportListQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(V1_REPORT_LIMIT.max)
    .optional()
    .meta({ description: `Page size, default ${V1_REPORT_LIMIT.default}, maximum ${V1_REPORT_LIMIT.max}.` }),
  standup_id: zV1Id.optional(),
  user_id: zUserRef
    .optional()
    .meta({ description: "Author: chat-style id (U0123ABCD) or numeric user id; may repeat or be comma-separated." }),
  user_ids: zUserRef.optional().meta({ description: "Several authors (same forms as `user_id`)." }),
  after: zUnixSeconds.optional().meta({ description: "Submitted at or after (Unix seconds, integer or float)." }),
  before: zUnixSeconds.optional().meta({ description: "Submitted before (Unix seconds, integer or float)." }),
  question_ids: z
    .string()
    .optional()
    .meta({ description: "Question ids to keep: comma-separated, the key repeated, or `question_ids[]`." }),
  html: zV1Bool.optional().meta({ description: "`true`: answers rendered to safe HTML." }),
});

/** Query of GET /v1/polls/{id}/votes (`parseV1PollVotesQuery`). */
export const v1PollVotesQuery = z.object({
  from: zDate.optional().meta({ description: "Inclusive start, ISO 8601 or YYYY-MM-DD." }),
  to: zDate.optional().meta({ description: "End, ISO 8601 (exclusive) or YYYY-MM-DD (that whole day included)." }),
});

/** Fields `parseV1StandupCreateBody` / `parseV1StandupPutBody` require on top of `zStandupPartial`. */
export const v1StandupCreateBody = zStandupPartial.required({ name: true, channel: true, time: true, timezone: true, days: true });
