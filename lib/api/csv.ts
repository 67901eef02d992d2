/**
 * CSV export endpoints (dashboard, issue 16): authentication by dashboard session or API key (the
 * same `Authorization` header as the API), errors in the v2 error shape, and a streamed
 * `text/csv` body written page by page from a `CsvExport` (lib/domain/exports.ts).
 * The file opens in spreadsheets: UTF-8 with a byte-order mark, CRLF line ends, RFC 4180 quoting,
 * and cells starting with = + - @ prefixed with a quote (csv-stringify's `escape_formulas`) so a
 * spreadsheet never runs an answer as a formula.
 */
import { errorResponse, toErrorResponse } from "@/lib/api/errors";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { getSessionUser, sessionActor } from "@/lib/auth/session";
import { toCsv } from "@/lib/csv";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { CsvExport } from "@/lib/domain/exports";

/** A streamed CSV download of `exp` named `filename`. */
export function csvResponse(filename: string, exp: CsvExport): Response {
  const encoder = new TextEncoder();
  const iterator = exp.rows[Symbol.asyncIterator]();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${toCsv([exp.header])}`));
        return;
      }
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(toCsv(next.value)));
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** The caller of an export: the dashboard session, else an API key in `Authorization`. */
async function exportActor(request: Request): Promise<Actor | null> {
  if (request.headers.get("authorization")) return authenticateApiKey(db, request.headers.get("authorization"));
  const user = await getSessionUser();
  // With its role: a manager's exports read what the manager's pages show (issue 41).
  return user ? sessionActor(user) : null;
}

/**
 * Wraps a CSV export route: authenticates (401 JSON when neither a session nor a valid key), runs
 * `handler`, and maps domain/validation errors to the v2 error shape (400/404) before streaming starts.
 */
export function csvRoute<P = Record<string, never>>(handler: (args: { url: URL; actor: Actor; params: P }) => Promise<Response>) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      const actor = await exportActor(request);
      if (!actor)
        return errorResponse("v2", 401, "UNAUTHORIZED", "Sign in to the dashboard or send an API key in the Authorization header");
      const params = (context?.params ? await context.params : {}) as P;
      return await handler({ url: new URL(request.url), actor, params });
    } catch (err) {
      return toErrorResponse("v2", err);
    }
  };
}
