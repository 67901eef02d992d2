/**
 * What issue 13 adds to every operation of the OpenAPI document, applied to the assembled document
 * (so it holds however the operations are declared): the rate-limit headers (`RateLimit-Policy`,
 * `RateLimit`) on every response, and the statuses the HTTP plumbing can answer on any operation —
 * 429 RATE_LIMITED (with `Retry-After`), 503 SERVICE_UNAVAILABLE (with `Retry-After`), 413
 * PAYLOAD_TOO_LARGE on operations with a body, and (issue 40) 400 INVALID_PARAMETER for malformed
 * percent-encoding on every operation whose path has a parameter (the one part of a path a client
 * fills in: `/v2/standups/%FF` is that operation's request, refused before it runs;
 * `malformedPathError`) — in the version's error shape; plus a paragraph on the limits in
 * `info.description`. Values come from the running configuration (lib/env.ts).
 */
import { ratePolicies } from "@/lib/api/rate-limit";
import { limitSettings } from "@/lib/env";

type Json = Record<string, unknown>;
type Doc = { info: { description?: string }; paths?: object };

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

function v2Error(code: string): Json {
  return {
    "application/json": {
      schema: {
        type: "object",
        required: ["error"],
        properties: {
          error: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "string", enum: [code] }, message: { type: "string" } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    },
  };
}

const V1_ERROR = { "application/json": { schema: { $ref: "#/components/schemas/ErrorV1" } } };

const RETRY_AFTER = { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } };

/** What the 400 of a malformed path says (the message is lib/api/route.ts `refusal`'s). */
const MALFORMED_PATH = "Malformed percent-encoding in the path";

type Response = { description?: string; content?: Json; headers?: Json };

/**
 * Declares on `responses` the 400 a malformed path parameter answers: a new 400, or the existing
 * one with its prose extended and, in v2, INVALID_PARAMETER among its codes.
 */
export function malformedPathError(responses: Record<string, Response>, v1: boolean): void {
  const existing = responses["400"];
  if (!existing) {
    responses["400"] = {
      description: `${MALFORMED_PATH}: ${v1 ? "400" : "INVALID_PARAMETER"}.`,
      content: v1 ? V1_ERROR : v2Error("INVALID_PARAMETER"),
    };
    return;
  }
  existing.description = `${existing.description ?? ""} ${MALFORMED_PATH} also answers 400${v1 ? "" : " INVALID_PARAMETER"}.`.trim();
  const schema = (existing.content?.["application/json"] as { schema?: Json } | undefined)?.schema;
  const codes = (schema?.properties as { error?: { properties?: { code?: { enum?: string[] } } } } | undefined)?.error?.properties?.code
    ?.enum;
  if (codes && !codes.includes("INVALID_PARAMETER")) codes.unshift("INVALID_PARAMETER");
}

/** Adds the limit statuses and headers to every operation of `doc` (mutates and returns it). */
export function addLimitsToDocument<D extends Doc>(doc: D): D {
  const { apiKey, anonymous } = ratePolicies();
  const bodyLimit = limitSettings().bodyLimitBytes;
  const rateHeaders = {
    "RateLimit-Policy": {
      description: `Rate-limit policy (IETF draft-ietf-httpapi-ratelimit-headers), e.g. \`"api-key";q=${apiKey.points};w=${apiKey.windowSeconds}\`.`,
      schema: { type: "string" },
    },
    RateLimit: {
      description: 'Requests left in the current window and seconds until it resets, e.g. `"api-key";r=599;t=42`.',
      schema: { type: "string" },
    },
  };
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, unknown> | undefined>)) {
    const v1 = path.startsWith("/v1/") && !/^\/v1\/(me|teams)/.test(path);
    for (const method of METHODS) {
      const operation = item?.[method] as { responses?: Record<string, Json>; requestBody?: unknown } | undefined;
      if (!operation?.responses) continue;
      // The preload refuses every /v1 path in the v1 shape (/v1/me and /v1/teams have no parameter).
      if (path.includes("{")) malformedPathError(operation.responses, path.startsWith("/v1/"));
      for (const response of Object.values(operation.responses)) {
        response.headers = { ...((response.headers as Json) ?? {}), ...rateHeaders };
      }
      const error = (code: string) => (v1 ? V1_ERROR : v2Error(code));
      operation.responses["429"] ??= {
        description: `Rate limit exceeded (${apiKey.points} requests per ${apiKey.windowSeconds} s per API key; ${anonymous.points} per minute per client address without a valid key): RATE_LIMITED.`,
        headers: { "Retry-After": RETRY_AFTER, ...rateHeaders },
        content: error("RATE_LIMITED"),
      };
      operation.responses["503"] ??= {
        description: "The database is unavailable: SERVICE_UNAVAILABLE. Retry after `Retry-After` seconds.",
        headers: { "Retry-After": RETRY_AFTER },
        content: error("SERVICE_UNAVAILABLE"),
      };
      if (operation.requestBody) {
        operation.responses["413"] ??= {
          description: `Request body larger than ${bodyLimit} bytes: PAYLOAD_TOO_LARGE.`,
          content: error("PAYLOAD_TOO_LARGE"),
        };
      }
    }
  }
  doc.info.description =
    `${doc.info.description ?? ""}\n\n**Limits.** Each API key may make ${apiKey.points} requests per ${apiKey.windowSeconds} s; requests without a valid key are limited to ${anonymous.points} per minute per client address. Every response carries \`RateLimit-Policy\` and \`RateLimit\`; over the limit the answer is 429 with \`Retry-After\`. Request bodies are limited to ${bodyLimit} bytes (413). Text fields have size limits (e.g. 20,000 characters per answer, 200 per name, 50 questions, 50 choices, 1,000 users), answered with 400 INVALID_PARAMETER naming the field. Methods a path does not serve answer 405 (v2) or 404 (v1) with a JSON body, and malformed percent-encoding in a path 400; a database outage answers 503 with \`Retry-After\`.`.trim();
  return doc;
}
