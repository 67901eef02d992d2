/**
 * The OpenAPI 3.1 document of the public API, generated with zod-openapi's `createDocument` from
 * the routes' own zod request schemas (lib/api/**) and the response schemas of
 * lib/openapi/responses.ts — no hand-written spec that can drift (STYLE.md). Served at
 * GET /v2/openapi.json and rendered by app/docs/page.tsx. Paths are those of api-spec.md §4.2 and
 * §4.3 (`/v1/reports/` with its slash; every path is also served without it).
 *
 * tests/api/openapi.test.ts checks that every route file is documented and that real responses
 * parse with the response schemas.
 */
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { zPollCreate, zReportCreate, zStandupPartial, zStart } from "@/lib/api/v1/requests";
import { v1StandupListQuerySchema } from "@/lib/api/v1/standups";
import { participationQuerySchema } from "@/lib/api/v2/participation";
import { pollCreateBodySchema } from "@/lib/api/v2/polls";
import { reportCreateBodySchema, reportUpdateBodySchema } from "@/lib/api/v2/report-writes";
import { reportListQuerySchema } from "@/lib/api/v2/reports";
import { standupCreateBodySchema } from "@/lib/api/v2/standup-create";
import { checkinListQuerySchema, checkinReadQuerySchema } from "@/lib/api/v2/standups";
import { summaryListQuerySchema, summaryListV2Schema } from "@/lib/api/v2/summaries";
import { voteCreateBodySchema } from "@/lib/api/v2/vote-writes";
import { votesQuerySchema } from "@/lib/api/v2/votes";
import { addLimitsToDocument } from "@/lib/openapi/limits";
import {
  idempotencyHeader,
  pollIdPath,
  reportIdPath,
  standupIdPath,
  v1IdPath,
  v1PollVotesQuery,
  v1ReportListQuery,
  v1StandupCreateBody,
} from "@/lib/openapi/requests";
import {
  errorV1Schema,
  meV1Schema,
  myTeamsV1Schema,
  pollDataV2Schema,
  pollListV2Schema,
  pollParticipationListV2Schema,
  pollResultsDataV2Schema,
  pollResultsV1Schema,
  pollV1Schema,
  reportCreatedV1Schema,
  reportDataV2Schema,
  reportListItemV1Schema,
  reportListV2Schema,
  standupDataV2Schema,
  standupListV2Schema,
  standupParticipationListV2Schema,
  standupV1Schema,
  startedV1Schema,
  successV2Schema,
  teamV1Schema,
  type V2ErrorCode,
  v2ErrorSchema,
  voteDataV2Schema,
} from "@/lib/openapi/responses";
import { WEBHOOKS_TAG, webhookPaths } from "@/lib/openapi/webhooks";

/** The document type `createDocument` returns. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

/** Tags, in the order the docs page shows them. */
export const OPENAPI_TAGS = [
  { name: "Standups", description: "Current (v2) standups and their participation." },
  { name: "Polls", description: "Current (v2) polls, their votes and participation. A poll is visible only to its creator." },
  { name: "Reports", description: "Current (v2) reports: a member's submitted answers to a standup." },
  WEBHOOKS_TAG,
  { name: "Users and teams", description: "The current-classed v1 endpoints: the caller, their team and standups." },
  { name: "Legacy standups (v1)", description: "Legacy endpoints, bare JSON, kept for backwards compatibility." },
  { name: "Legacy polls (v1)", description: "Legacy endpoints, bare JSON, kept for backwards compatibility." },
  { name: "Legacy reports (v1)", description: "Legacy endpoints, bare JSON, kept for backwards compatibility." },
] as const;

type Tag = (typeof OPENAPI_TAGS)[number]["name"];

const JSON_TYPE = "application/json";

const json = (schema: z.ZodType) => ({ [JSON_TYPE]: { schema } });

/** v2 error statuses of one operation (spec §4.2, §7). */
type V2Errors = { 400?: [V2ErrorCode, ...V2ErrorCode[]]; 404?: true; 422?: true };

/**
 * Responses of a v2 operation: the success, its spec error codes, 401 UNAUTHORIZED, and for
 * writes 409 IDEMPOTENCY_KEY_IN_USE (with `Retry-After`).
 */
function v2Responses(success: { status: 200 | 201 | 202; description: string; schema: z.ZodType }, errors: V2Errors, write = false) {
  const responses: ZodOpenApiResponsesObject = {
    [String(success.status)]: { description: success.description, content: json(success.schema) },
  };
  if (errors[400]) {
    responses["400"] = { description: `Invalid request: ${errors[400].join(", ")}.`, content: json(v2ErrorSchema(errors[400])) };
  }
  responses["401"] = { description: "Missing or unknown API key: UNAUTHORIZED.", content: json(v2ErrorSchema(["UNAUTHORIZED"])) };
  if (errors[404]) {
    responses["404"] = {
      description: "NOT_FOUND: the resource does not exist or is not visible to the caller.",
      content: json(v2ErrorSchema(["NOT_FOUND"])),
    };
  }
  if (write) {
    responses["409"] = {
      description: "IDEMPOTENCY_KEY_IN_USE: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds.",
      headers: { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } } },
      content: json(v2ErrorSchema(["IDEMPOTENCY_KEY_IN_USE"])),
    };
  }
  if (errors[422]) {
    responses["422"] = {
      description: "MISMATCHED_IDEMPOTENCY_BODY: the Idempotency-Key was used with a different request.",
      content: json(v2ErrorSchema(["MISMATCHED_IDEMPOTENCY_BODY"])),
    };
  }
  return responses;
}

/** v1 error statuses (compatibility.md: `{"error": "..."}` with 400, 401, 404 or 422). */
const V1_ERROR_TEXT: Record<400 | 401 | 404 | 422, string> = {
  400: "Invalid parameter or body field (also an unknown channel or user).",
  401: "Missing or unknown API key, or the caller may not change this standup.",
  404: "Not found or not visible to the caller.",
  422: "The operation cannot be done on this resource.",
};

/** Responses of a v1 operation: 200 with `schema`, 401, and the given error statuses. */
function v1Responses(description: string, schema: z.ZodType, errors: Array<400 | 404 | 422> = []) {
  const responses: ZodOpenApiResponsesObject = { 200: { description, content: json(schema) } };
  for (const status of [400, 401, 404, 422] as const) {
    if (status === 401 || errors.includes(status)) {
      responses[`${status}`] = { description: V1_ERROR_TEXT[status], content: json(errorV1Schema) };
    }
  }
  return responses;
}

/** One operation with its tag, id and summary. */
function op(tag: Tag, operationId: string, summary: string, rest: Omit<ZodOpenApiOperationObject, "tags" | "operationId" | "summary">) {
  return { tags: [tag], operationId, summary, ...rest } satisfies ZodOpenApiOperationObject;
}

const v2WriteHeaders = { header: idempotencyHeader };

/** Every operation of api-spec.md §4.2 and §4.3, keyed by path. */
function buildPaths(): ZodOpenApiPathsObject {
  return {
    // ---------------------------------------------------------------- current: users and teams
    "/v1/me": {
      get: op("Users and teams", "getMe", "The authenticated user and the team of the API key", {
        responses: v1Responses("`{user, team}`.", meV1Schema),
      }),
    },
    "/v1/me/teams": {
      get: op("Users and teams", "listMyTeams", "The caller's teams (currently only the team of the API key)", {
        responses: v1Responses("`{teams: [...]}`.", myTeamsV1Schema),
      }),
    },
    "/v1/me/standups": {
      get: op("Users and teams", "listMyStandups", "Alias of GET /v1/standups/", {
        requestParams: { query: v1StandupListQuerySchema },
        responses: v1Responses("Array of v1 standups.", z.array(standupV1Schema), [400]),
      }),
    },
    "/v1/teams/": {
      get: op("Users and teams", "getTeam", "The team of the API key with the users of visible standups", {
        responses: v1Responses("The team, as one object.", teamV1Schema),
      }),
    },

    // ---------------------------------------------------------------- current: polls
    "/v2/polls": {
      get: op("Polls", "listPolls", "List the caller's active and paused polls", {
        requestParams: { query: checkinListQuerySchema },
        responses: v2Responses(
          { status: 200, description: "List envelope of polls.", schema: pollListV2Schema },
          { 400: ["INVALID_PARAMETER"] },
        ),
      }),
      post: op("Polls", "createPoll", "Create a one-shot poll posted to a channel", {
        description: "Members are synced from `broadcast_channel`. The response always carries `questions`.",
        requestParams: { query: checkinReadQuerySchema, ...v2WriteHeaders },
        requestBody: { required: true, content: json(pollCreateBodySchema) },
        responses: v2Responses(
          { status: 201, description: "`{data: poll}`.", schema: pollDataV2Schema },
          { 400: ["INVALID_PARAMETER", "CHANNEL_NOT_FOUND"], 422: true },
          true,
        ),
      }),
    },
    "/v2/polls/{pollId}": {
      get: op("Polls", "getPoll", "Get one of the caller's polls", {
        requestParams: { path: pollIdPath, query: checkinReadQuerySchema },
        responses: v2Responses(
          { status: 200, description: "`{data: poll}`.", schema: pollDataV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true },
        ),
      }),
    },
    "/v2/polls/{pollId}/participation": {
      get: op("Polls", "listPollParticipation", "Participation per broadcast, newest first", {
        requestParams: { path: pollIdPath, query: participationQuerySchema },
        responses: v2Responses(
          { status: 200, description: "List envelope of poll participation entries.", schema: pollParticipationListV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true },
        ),
      }),
    },
    "/v2/polls/{pollId}/votes": {
      get: op("Polls", "getPollVotes", "Poll results of the latest broadcast, or of every broadcast in a range", {
        requestParams: { path: pollIdPath, query: votesQuerySchema },
        responses: v2Responses(
          { status: 200, description: "`{data: poll results}`.", schema: pollResultsDataV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true },
        ),
      }),
      post: op("Polls", "castVote", "Vote on the current broadcast of a poll (v2 extension)", {
        description:
          "For recipients of the poll's current broadcast (404 for anyone else). `choices` name options by their text; " +
          "`text` answers open-ended questions. Voting again while the poll is open replaces the vote on the questions named.",
        requestParams: { path: pollIdPath, ...v2WriteHeaders },
        requestBody: { required: true, content: json(voteCreateBodySchema) },
        responses: {
          ...v2Responses(
            { status: 200, description: "`{data: vote}`: the recorded vote.", schema: voteDataV2Schema },
            { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
            true,
          ),
          409: {
            description: "POLL_CLOSED: the broadcast closed (or the poll is paused); IDEMPOTENCY_KEY_IN_USE: retry after `Retry-After`.",
            content: json(v2ErrorSchema(["POLL_CLOSED", "IDEMPOTENCY_KEY_IN_USE"])),
          },
          422: {
            description:
              "UNKNOWN_CHOICE: no such option (and the question takes no own options); TOO_MANY_CHOICES: the question allows one; " +
              "MISMATCHED_IDEMPOTENCY_BODY.",
            content: json(v2ErrorSchema(["UNKNOWN_CHOICE", "TOO_MANY_CHOICES", "MISMATCHED_IDEMPOTENCY_BODY"])),
          },
        },
      }),
    },

    // ---------------------------------------------------------------- current: reports
    "/v2/reports": {
      get: op("Reports", "listReports", "List submitted reports of active standups the caller can see", {
        description: "The window [since, until) defaults to the last 7 days and cannot exceed 90 days.",
        requestParams: { query: reportListQuerySchema },
        responses: v2Responses(
          { status: 200, description: "List envelope of reports.", schema: reportListV2Schema },
          { 400: ["INVALID_PARAMETER"] },
        ),
      }),
      post: op("Reports", "submitReport", "Submit a report to one of the caller's active standups", {
        description: "Every standup question must be answered in one call. The report is broadcast to the standup's channel.",
        requestParams: v2WriteHeaders,
        requestBody: { required: true, content: json(reportCreateBodySchema) },
        responses: v2Responses(
          { status: 200, description: "`{data: report}`.", schema: reportDataV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
          true,
        ),
      }),
    },
    "/v2/reports/{reportId}": {
      get: op("Reports", "getReport", "Get one readable report", {
        requestParams: { path: reportIdPath },
        responses: v2Responses({ status: 200, description: "`{data: report}`.", schema: reportDataV2Schema }, { 404: true }),
      }),
      patch: op("Reports", "updateReport", "Replace some answers of a report the caller authored", {
        description: "If the report was broadcast, the broadcast message is updated.",
        requestParams: { path: reportIdPath, ...v2WriteHeaders },
        requestBody: { required: true, content: json(reportUpdateBodySchema) },
        responses: v2Responses(
          { status: 200, description: "`{data: report}`.", schema: reportDataV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
          true,
        ),
      }),
      delete: op("Reports", "deleteReport", "Discard a report the caller authored", {
        description: "Removes the broadcast message if one was posted.",
        requestParams: { path: reportIdPath, ...v2WriteHeaders },
        responses: v2Responses(
          { status: 200, description: "`{success: true}`.", schema: successV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
          true,
        ),
      }),
    },

    // ---------------------------------------------------------------- current: standups
    "/v2/standups": {
      get: op("Standups", "listStandups", "List active and paused standups visible to the caller", {
        requestParams: { query: checkinListQuerySchema },
        responses: v2Responses(
          { status: 200, description: "List envelope of standups.", schema: standupListV2Schema },
          { 400: ["INVALID_PARAMETER"] },
        ),
      }),
      post: op("Standups", "createStandup", "Create a non-confidential standup", {
        description:
          "Members come from `users` if given, otherwise from `sync_channel`, falling back to `broadcast_channel`. " +
          "The response always carries `questions`.",
        requestParams: { query: checkinReadQuerySchema, ...v2WriteHeaders },
        requestBody: { required: true, content: json(standupCreateBodySchema) },
        responses: v2Responses(
          { status: 201, description: "`{data: standup}`.", schema: standupDataV2Schema },
          { 400: ["INVALID_PARAMETER", "CHANNEL_NOT_FOUND", "USER_NOT_FOUND"], 422: true },
          true,
        ),
      }),
    },
    "/v2/standups/{standupId}": {
      get: op("Standups", "getStandup", "Get one visible standup", {
        requestParams: { path: standupIdPath, query: checkinReadQuerySchema },
        responses: v2Responses(
          { status: 200, description: "`{data: standup}`.", schema: standupDataV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true },
        ),
      }),
    },
    "/v2/standups/{standupId}/participation": {
      get: op("Standups", "listStandupParticipation", "Participation per occurrence, newest first", {
        requestParams: { path: standupIdPath, query: participationQuerySchema },
        responses: v2Responses(
          { status: 200, description: "List envelope of standup participation entries.", schema: standupParticipationListV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true },
        ),
      }),
    },
    "/v2/standups/{standupId}/summaries": {
      get: op("Standups", "listStandupSummaries", "Occurrence summaries, newest first (extension)", {
        description:
          "Summary of each closed occurrence: blockers, who is blocked, recurring themes, mood (multiple-choice counts), " +
          "participation, and an overview when a language model is configured. Anonymous reports are never attributed.",
        requestParams: { path: standupIdPath, query: summaryListQuerySchema },
        responses: v2Responses(
          { status: 200, description: "List envelope of occurrence summaries.", schema: summaryListV2Schema },
          { 400: ["INVALID_PARAMETER"], 404: true },
        ),
      }),
    },

    // ---------------------------------------------------------------- legacy v1
    "/v1/polls": {
      get: op("Legacy polls (v1)", "listPollsV1", "Polls the caller participates in or created", {
        responses: v1Responses("Array of v1 polls.", z.array(pollV1Schema)),
      }),
      post: op("Legacy polls (v1)", "createPollV1", "Create a one-time poll in a channel", {
        description: "Current channel members are invited; the caller becomes the creator. `channel` may carry a leading '#'.",
        requestBody: { required: true, content: json(zPollCreate) },
        responses: v1Responses("The v1 poll.", pollV1Schema, [400]),
      }),
    },
    "/v1/polls/{id}": {
      get: op("Legacy polls (v1)", "getPollV1", "Get a poll of the team accessible to the caller", {
        requestParams: { path: v1IdPath("Poll") },
        responses: v1Responses("The v1 poll.", pollV1Schema, [404]),
      }),
    },
    "/v1/polls/{id}/votes": {
      get: op("Legacy polls (v1)", "getPollVotesV1", "Poll results over a date range", {
        requestParams: { path: v1IdPath("Poll"), query: v1PollVotesQuery },
        responses: v1Responses("v1 poll results.", pollResultsV1Schema, [400, 404]),
      }),
    },
    "/v1/reports/": {
      get: op("Legacy reports (v1)", "listReportsV1", "List submitted reports, newest first", {
        requestParams: { query: v1ReportListQuery },
        responses: v1Responses("Array of v1 reports.", z.array(reportListItemV1Schema), [400]),
      }),
      post: op("Legacy reports (v1)", "submitReportV1", "Submit the caller's report", {
        description:
          "The standup must exist, be active and include the caller as participant or creator. " +
          '`answers` maps question ids to `{"text": "..."}` (or a plain string).',
        requestBody: { required: true, content: json(zReportCreate) },
        responses: v1Responses("The v1 report (create form).", reportCreatedV1Schema, [400, 404]),
      }),
    },
    "/v1/standups/": {
      get: op("Legacy standups (v1)", "listStandupsV1", "List the caller's standups", {
        description:
          "Draft or restricted standups are hidden unless the caller is the creator; `admin=true` lists every standup for team admins.",
        requestParams: { query: v1StandupListQuerySchema },
        responses: v1Responses("Array of v1 standups.", z.array(standupV1Schema), [400]),
      }),
      post: op("Legacy standups (v1)", "createStandupV1", "Create a standup", {
        description:
          "Participants come from `users`, or from the channel when `sync_channel_members` is true. " +
          "`questions` default to three standard questions; `wait_time` null or -1 means no automatic asking.",
        requestBody: { required: true, content: json(v1StandupCreateBody) },
        responses: v1Responses("The v1 standup (`wait_time` -1 for no automatic asking).", standupV1Schema, [400]),
      }),
    },
    "/v1/standups/{id}": {
      get: op("Legacy standups (v1)", "getStandupV1", "Get a standup the caller participates in or created", {
        requestParams: { path: v1IdPath("Standup") },
        responses: v1Responses("The v1 standup.", standupV1Schema, [404]),
      }),
      patch: op("Legacy standups (v1)", "updateStandupV1", "Change the given properties of a standup", {
        description: "Only properties present are changed. Needs the creator or a team admin (else 401).",
        requestParams: { path: v1IdPath("Standup") },
        requestBody: { required: true, content: json(zStandupPartial) },
        responses: v1Responses("The v1 standup.", standupV1Schema, [400, 404]),
      }),
      put: op("Legacy standups (v1)", "replaceStandupV1", "Replace the configuration of a standup", {
        description: "`questions` default to three standard questions when omitted. Needs the creator or a team admin (else 401).",
        requestParams: { path: v1IdPath("Standup") },
        requestBody: { required: true, content: json(v1StandupCreateBody) },
        responses: v1Responses("The v1 standup.", standupV1Schema, [400, 404]),
      }),
      delete: op("Legacy standups (v1)", "deleteStandupV1", "Delete (archive) a standup", {
        description: "Needs the creator or a team admin (else 401).",
        requestParams: { path: v1IdPath("Standup") },
        responses: v1Responses("The deleted v1 standup.", standupV1Schema, [404]),
      }),
    },
    "/v1/standups/{id}/duplicate": {
      post: op("Legacy standups (v1)", "duplicateStandupV1", "Duplicate a standup", {
        description: "Fields given override the copied configuration. Confidential standups cannot be duplicated (422).",
        requestParams: { path: v1IdPath("Standup") },
        requestBody: { content: json(zStandupPartial) },
        responses: v1Responses("The new v1 standup.", standupV1Schema, [400, 404, 422]),
      }),
    },
    "/v1/standups/{id}/start": {
      post: op("Legacy standups (v1)", "startStandupV1", "Start a standup now", {
        description:
          "Runs for every member, or only for the given `users` / `user_ids` / `emails`. The body may be absent. " +
          "Drafts cannot be started (422).",
        requestParams: { path: v1IdPath("Standup") },
        requestBody: { content: json(zStart) },
        responses: v1Responses('The JSON string "ok".', startedV1Schema, [400, 404, 422]),
      }),
    },
  };
}

/** Descriptions of query parameters (the request schemas carry the validation, this the prose). */
function describeParameter(path: string, name: string): string | undefined {
  const participation = path.endsWith("/participation");
  switch (name) {
    case "state":
      return "Comma-separated subset of `active`, `paused`. Default: both.";
    case "is_anonymous":
      return "`true` or `false`.";
    case "broadcast_channel":
      return "Channel id.";
    case "created_since":
      return "Created at or after (inclusive). ISO 8601 or YYYY-MM-DD.";
    case "created_until":
      return "Created before (exclusive). ISO 8601 or YYYY-MM-DD.";
    case "cursor":
      return "Opaque cursor from `next_cursor`; replay it with the same filters that produced it, otherwise 400.";
    case "limit":
      return path.startsWith("/v2/") ? `Page size 1..100, default ${participation ? 30 : 25}.` : undefined;
    case "include":
      return "Comma-separated subset of `questions`, `member_username`, `member_realname`, `member_email`. An unknown value gives 400.";
    case "since":
      return path === "/v2/reports"
        ? "Inclusive lower bound, ISO 8601 or YYYY-MM-DD. Default: now minus 7 days."
        : "Inclusive lower bound, ISO 8601 or YYYY-MM-DD.";
    case "until":
      return path.endsWith("/votes") || path === "/v2/reports"
        ? "Exclusive upper bound, ISO 8601 or YYYY-MM-DD. Default: now."
        : "Exclusive upper bound, ISO 8601 or YYYY-MM-DD.";
    case "standup_id":
      return "Only reports of this standup.";
    case "user_id":
      return path === "/v2/reports"
        ? "Chat-style user id of the author. Filtering by another user's id excludes reports from anonymous standups."
        : undefined;
    case "view":
      return "`summary` omits the `answers` block; default `full`.";
    case "admin":
      return "`true`/`1` (or a bare `?admin`): team admins get every standup of the team.";
    default:
      return undefined;
  }
}

type ParameterLike = { in?: string; name?: string; description?: string };

/** Adds prose descriptions to query parameters that have none. */
function describeParameters(doc: OpenApiDocument): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ["get", "post", "put", "patch", "delete"] as const) {
      const operation = item?.[method];
      for (const parameter of (operation?.parameters ?? []) as ParameterLike[]) {
        if (parameter.in !== "query" || parameter.description || !parameter.name) continue;
        const description = describeParameter(path, parameter.name);
        if (description) parameter.description = description;
      }
    }
  }
}

/** Builds the OpenAPI 3.1 document (uncached; see `getOpenApiDocument`). */
export function buildOpenApiDocument(): OpenApiDocument {
  const doc = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Team Check-in Service API",
      version: "1.0.0",
      description:
        "JSON API for standups, polls, reports, users and teams. `/v2/` endpoints are current (envelope `{data, next_cursor, has_more}`, " +
        "cursor pagination, `include` expansion, structured errors, `Idempotency-Key` on writes); `/v1/` endpoints are legacy " +
        "(bare JSON, `{error: string}` errors), except `/v1/me`, `/v1/me/teams`, `/v1/me/standups` and `/v1/teams/`, which are current. " +
        "Every path is served with and without a trailing slash.",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    tags: OPENAPI_TAGS.map((t) => ({ ...t })),
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "API key (`api_…`) in the Authorization header, raw (`Authorization: api_…`) or as `Bearer api_…`.",
        },
      },
    },
    paths: { ...buildPaths(), ...webhookPaths({ op, v2Responses, json, writeHeaders: v2WriteHeaders }) },
  });
  describeParameters(doc);
  return addLimitsToDocument(doc);
}

let cached: OpenApiDocument | undefined;

/** The OpenAPI document, built once per process. */
export function getOpenApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}
