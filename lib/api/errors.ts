/**
 * HTTP mapping of errors (spec §7 for v2; compatibility.md for v1).
 * v2 body: `{ "error": { "code", "message" } }`; v1 body: `{ "error": "<message>" }`.
 */
import { z } from "zod";
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/api/unavailable";
import { DomainError, type DomainErrorCode } from "@/lib/domain/errors";

export type ApiVersion = "v1" | "v2";

export type ApiErrorCode =
  | DomainErrorCode
  | "UNAUTHORIZED"
  | "MISMATCHED_IDEMPOTENCY_BODY"
  | "IDEMPOTENCY_KEY_IN_USE"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL_ERROR";

/** An error with an explicit HTTP status, thrown by the HTTP plumbing (not the domain). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Status per domain code. v1 answers 401 for edits the caller may not make (issue #4). */
const STATUS: Record<ApiVersion, Record<DomainErrorCode, number>> = {
  v2: {
    NOT_FOUND: 404,
    INVALID_PARAMETER: 400,
    CHANNEL_NOT_FOUND: 400,
    USER_NOT_FOUND: 400,
    FORBIDDEN: 404,
    UNPROCESSABLE: 422,
    CONFLICT: 409,
  },
  v1: {
    NOT_FOUND: 404,
    INVALID_PARAMETER: 400,
    CHANNEL_NOT_FOUND: 400,
    USER_NOT_FOUND: 400,
    FORBIDDEN: 401,
    UNPROCESSABLE: 422,
    CONFLICT: 422,
  },
};

/** Headers every API response carries (compatibility.md Transport). */
export const API_HEADERS: Record<string, string> = {
  "Content-Type": "application/json; charset=utf-8",
  "Access-Control-Allow-Origin": "*",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};

/** A JSON response with the API headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return jsonText(JSON.stringify(body), status, headers);
}

/**
 * A JSON response whose body is already serialized (`text` must be valid JSON, e.g. built in SQL:
 * lib/api/v2/reports.ts `reportWirePage`), with the API headers.
 */
export function jsonText(text: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...API_HEADERS, ...headers } });
}

/** Builds the error response of a version for a status, code and message. */
export function errorResponse(
  version: ApiVersion,
  status: number,
  code: ApiErrorCode,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body = version === "v2" ? { error: { code, message } } : { error: message };
  return json(body, status, headers);
}

/**
 * Maps anything thrown by a handler to a response: ApiError and DomainError by their tables, a
 * lost or refused database connection to 503 with `Retry-After`; other errors are logged and
 * become 500.
 */
export function toErrorResponse(version: ApiVersion, err: unknown): Response {
  if (err instanceof ApiError) return errorResponse(version, err.status, err.code, err.message, err.headers);
  if (err instanceof DomainError) {
    const code = (version === "v2" && err.code === "FORBIDDEN" ? "NOT_FOUND" : (err.detailCode ?? err.code)) as ApiErrorCode;
    const message = version === "v2" && err.code === "FORBIDDEN" ? "Resource not found" : err.message;
    return errorResponse(version, STATUS[version][err.code], code, message);
  }
  if (isDatabaseUnavailable(err)) {
    console.error("[api] database unavailable:", (err as Error)?.message ?? err);
    return errorResponse(version, 503, "SERVICE_UNAVAILABLE", "The database is unavailable; retry shortly", {
      "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
  }
  console.error("[api] unhandled error", err);
  return errorResponse(version, 500, "INTERNAL_ERROR", "Internal server error");
}

/** Every error code a v2 endpoint answers (spec §7, compatibility.md 401, the service's 405/409/500). */
export const V2_ERROR_CODES = [
  "INVALID_PARAMETER",
  "CHANNEL_NOT_FOUND",
  "USER_NOT_FOUND",
  "NOT_FOUND",
  "MISMATCHED_IDEMPOTENCY_BODY",
  "UNAUTHORIZED",
  "METHOD_NOT_ALLOWED",
  "IDEMPOTENCY_KEY_IN_USE",
  "INTERNAL_ERROR",
  "POLL_CLOSED",
  "UNKNOWN_CHOICE",
  "TOO_MANY_CHOICES",
] as const;

export type V2ErrorCode = (typeof V2_ERROR_CODES)[number];

/** v2 structured error (spec §7) restricted to `codes`. */
export function v2ErrorSchema(codes: readonly [V2ErrorCode, ...V2ErrorCode[]]) {
  return z.strictObject({
    error: z.strictObject({
      code: z.enum(codes),
      message: z.string().meta({ description: "Human-readable explanation." }),
    }),
  });
}

/** v1 error body (compatibility.md): `{"error": "<human message>"}`. */
export const errorV1Schema = z.strictObject({ error: z.string().meta({ example: "Not found" }) }).meta({ id: "ErrorV1" });
