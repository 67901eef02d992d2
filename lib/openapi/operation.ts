/**
 * How a route declares one operation for the OpenAPI document: a compact `OperationDoc` (tag,
 * id, summary, request schemas, the success response schema, the error statuses it answers),
 * turned into a zod-openapi operation by `toOperation`. The schemas are the ones the route uses to
 * parse requests and that sit beside its serializer — nothing is restated here.
 */
import type { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponsesObject } from "zod-openapi";
import { errorV1Schema, type V2ErrorCode, v2ErrorSchema } from "@/lib/api/errors";
import { idempotencyHeader } from "@/lib/api/idempotency";
import type { PathId } from "@/lib/api/query";
import { WEBHOOKS_TAG } from "@/lib/openapi/webhooks";

/** Tags, in the order the docs page shows them. */
export const OPENAPI_TAGS = [
  { name: "Standups", description: "Current (v2) standups and their participation." },
  { name: "Polls", description: "Current (v2) polls, their votes and participation. A poll is visible only to its creator." },
  { name: "Reports", description: "Current (v2) reports: a member's submitted answers to a standup." },
  WEBHOOKS_TAG,
  { name: "Privacy", description: "The team's anonymity threshold and retention (a v2 extension, issue 45)." },
  {
    name: "Configuration",
    description: "Check-ins as code (a v2 extension, issue 43): the team's standups, polls, holidays and webhooks as one document.",
  },
  { name: "Users and teams", description: "The current-classed v1 endpoints: the caller, their team and standups." },
  { name: "Legacy standups (v1)", description: "Legacy endpoints, bare JSON, kept for backwards compatibility." },
  { name: "Legacy polls (v1)", description: "Legacy endpoints, bare JSON, kept for backwards compatibility." },
  { name: "Legacy reports (v1)", description: "Legacy endpoints, bare JSON, kept for backwards compatibility." },
] as const;

export type Tag = (typeof OPENAPI_TAGS)[number]["name"];

type RequestParams = NonNullable<ZodOpenApiOperationObject["requestParams"]>;

/** Codes an operation answers with a status besides the ones every v2 write answers, and the prose that explains all of them. */
export type MoreCodes = { codes: [V2ErrorCode, ...V2ErrorCode[]]; description: string };

/**
 * v2 error statuses of one operation besides 401 (spec §4.2, §7). 409 (writes answer
 * IDEMPOTENCY_KEY_IN_USE anyway) and 422 (MISMATCHED_IDEMPOTENCY_BODY) may name more codes.
 */
export type V2Errors = { 400?: [V2ErrorCode, ...V2ErrorCode[]]; 404?: true; 409?: MoreCodes; 422?: true | MoreCodes };

/** v1 error statuses of one operation besides 401 (compatibility.md: 400, 401, 404 or 422). */
export type V1Errors = Array<400 | 404 | 422>;

/** One operation as a route declares it. */
export type OperationDoc = {
  tag: Tag;
  /** Unique operation id, e.g. "listStandups". */
  id: string;
  summary: string;
  description?: string;
  /** The numeric id in the path, e.g. `standupIdPath` (parsed for `run` handlers). */
  path?: PathId;
  /** The query schema: documented, and parsed for `run` handlers. */
  query?: z.ZodType;
  /** A query documented only (the route parses it by hand, e.g. the tolerant v1 parsers). */
  documentedQuery?: z.ZodType;
  /** Request body; `required` defaults to true. */
  body?: { schema: z.ZodType; required?: boolean };
  /** The success response: status (default 200), prose and schema. */
  response: { status?: 200 | 201 | 202; description: string; schema: z.ZodType };
  /** Error statuses besides 401 (which every operation answers). */
  errors?: V2Errors | V1Errors;
};

const JSON_TYPE = "application/json";
const json = (schema: z.ZodType) => ({ [JSON_TYPE]: { schema } });

/** v1 error statuses (compatibility.md: `{"error": "..."}` with 400, 401, 404 or 422). */
const V1_ERROR_TEXT: Record<400 | 401 | 404 | 422, string> = {
  400: "Invalid parameter or body field (also an unknown channel or user).",
  401: "Missing or unknown API key, or the caller may not change this standup.",
  404: "Not found or not visible to the caller.",
  422: "The operation cannot be done on this resource.",
};

function v1Responses(doc: OperationDoc): ZodOpenApiResponsesObject {
  const errors = (doc.errors ?? []) as V1Errors;
  const responses: ZodOpenApiResponsesObject = { 200: { description: doc.response.description, content: json(doc.response.schema) } };
  for (const status of [400, 401, 404, 422] as const) {
    if (status === 401 || errors.includes(status))
      responses[`${status}`] = { description: V1_ERROR_TEXT[status], content: json(errorV1Schema) };
  }
  return responses;
}

/**
 * Responses of a v2 operation: the success, its spec error codes, 401 UNAUTHORIZED, and for
 * writes 409 IDEMPOTENCY_KEY_IN_USE (with `Retry-After`).
 */
function v2Responses(doc: OperationDoc, write: boolean): ZodOpenApiResponsesObject {
  const errors = (doc.errors ?? {}) as V2Errors;
  const responses: ZodOpenApiResponsesObject = {
    [String(doc.response.status ?? 200)]: { description: doc.response.description, content: json(doc.response.schema) },
  };
  if (errors[400])
    responses["400"] = { description: `Invalid request: ${errors[400].join(", ")}.`, content: json(v2ErrorSchema(errors[400])) };
  responses["401"] = { description: "Missing or unknown API key: UNAUTHORIZED.", content: json(v2ErrorSchema(["UNAUTHORIZED"])) };
  if (errors[404]) {
    responses["404"] = {
      description: "NOT_FOUND: the resource does not exist or is not visible to the caller.",
      content: json(v2ErrorSchema(["NOT_FOUND"])),
    };
  }
  const more409 = errors[409];
  if (write) {
    responses["409"] = {
      description:
        more409?.description ??
        "IDEMPOTENCY_KEY_IN_USE: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds.",
      headers: { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } } },
      content: json(v2ErrorSchema([...(more409?.codes ?? []), "IDEMPOTENCY_KEY_IN_USE"])),
    };
  } else if (more409) {
    responses["409"] = { description: more409.description, content: json(v2ErrorSchema(more409.codes)) };
  }
  const more422 = errors[422] === true ? undefined : errors[422];
  if (errors[422]) {
    responses["422"] = {
      description: more422?.description ?? "MISMATCHED_IDEMPOTENCY_BODY: the Idempotency-Key was used with a different request.",
      content: json(v2ErrorSchema([...(more422?.codes ?? []), "MISMATCHED_IDEMPOTENCY_BODY"])),
    };
  }
  return responses;
}

/**
 * The zod-openapi operation of `doc` served at `method` of a path of `version`. v2 writes (every
 * method but GET) take `Idempotency-Key` and document 409.
 */
export function toOperation(version: "v1" | "v2", method: string, doc: OperationDoc): ZodOpenApiOperationObject {
  const write = version === "v2" && method !== "GET";
  const requestParams: ZodOpenApiOperationObject["requestParams"] = {};
  if (doc.path) requestParams.path = doc.path.schema;
  const query = doc.query ?? doc.documentedQuery;
  if (query) requestParams.query = query as RequestParams["query"];
  if (write) requestParams.header = idempotencyHeader;
  return {
    tags: [doc.tag],
    operationId: doc.id,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    ...(Object.keys(requestParams).length ? { requestParams } : {}),
    ...(doc.body ? { requestBody: { ...(doc.body.required === false ? {} : { required: true }), content: json(doc.body.schema) } } : {}),
    responses: version === "v2" ? v2Responses(doc, write) : v1Responses(doc),
  };
}

/**
 * The helpers lib/openapi/webhooks.ts still describes its paths with (issue 9 wrote them before
 * `apiPath`): the same responses as `toOperation` builds. TODO(webhooks): declare the /v2/webhooks
 * routes with `apiPath` and drop this.
 */
export const webhookDocHelpers = {
  op: (tag: "Webhooks", id: string, summary: string, rest: Omit<ZodOpenApiOperationObject, "tags" | "operationId" | "summary">) =>
    ({ tags: [tag], operationId: id, summary, ...rest }) satisfies ZodOpenApiOperationObject,
  v2Responses: (success: { status: 200 | 201 | 202; description: string; schema: z.ZodType }, errors: V2Errors, write = false) =>
    v2Responses({ tag: "Webhooks", id: "", summary: "", response: success, errors }, write),
  json,
  writeHeaders: { header: idempotencyHeader },
};
