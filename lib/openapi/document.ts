/**
 * The OpenAPI 3.1 document of the public API, generated with zod-openapi's `createDocument` from
 * the operations the route files declare through `apiPath` (lib/api/route.ts): each names its
 * request schemas (the ones the route parses with) and its response schema (the one beside its
 * serializer, lib/api/v1|v2) — no hand-written list of routes or shapes that can drift. The route
 * index app/v2/openapi.json/routes.ts loads every route module, so every declaration is registered,
 * and re-exports this module's functions: callers import them from there. Served at
 * GET /v2/openapi.json and rendered by app/docs/page.tsx. Paths are those of api-spec.md §4.2 and
 * §4.3 (`/v1/reports/` with its slash; every path is also served without it).
 *
 * tests/api/openapi.test.ts checks that every route file is documented and that real responses
 * parse with the response schemas.
 */
import { createDocument } from "zod-openapi";
import { OPENAPI_TAGS, webhookDocHelpers } from "@/lib/openapi/operation";
import { registeredPaths } from "@/lib/openapi/registry";
import { webhookPaths } from "@/lib/openapi/webhooks";

export { OPENAPI_TAGS } from "@/lib/openapi/operation";

import { addLimitsToDocument } from "@/lib/openapi/limits";

/** The document type `createDocument` returns. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

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

/**
 * Builds the OpenAPI 3.1 document (uncached; see `getOpenApiDocument`).
 * @throws Error when no route module is loaded yet (import through app/v2/openapi.json/routes.ts).
 */
export function buildOpenApiDocument(): OpenApiDocument {
  if (Object.keys(registeredPaths()).length === 0) {
    throw new Error("no API route is registered: read the document through app/v2/openapi.json/routes.ts");
  }
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
    paths: { ...registeredPaths(), ...webhookPaths(webhookDocHelpers) },
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
