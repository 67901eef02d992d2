/**
 * GET /metrics — Prometheus metrics of this server process (issue 44; lib/metrics/registry.ts).
 * Requires `Authorization: Bearer $METRICS_TOKEN`: 404 while METRICS_TOKEN is unset (the endpoint
 * does not exist), 401 with a wrong or missing token. Not rate limited (README "Health and metrics").
 */
import { timingSafeEqual } from "node:crypto";
import { metricsToken } from "@/lib/env";
import { scrape } from "@/lib/metrics/registry";

export const dynamic = "force-dynamic";

const HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function GET(request: Request): Promise<Response> {
  const token = metricsToken();
  if (!token) return Response.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404, headers: HEADERS });
  const header = request.headers.get("authorization") ?? "";
  const given = /^Bearer\s+(.+)$/i.exec(header.trim())?.[1] ?? "";
  if (!sameToken(given, token)) {
    return Response.json(
      { error: { code: "UNAUTHORIZED", message: "Send Authorization: Bearer <METRICS_TOKEN>" } },
      { status: 401, headers: { ...HEADERS, "WWW-Authenticate": 'Bearer realm="metrics"' } },
    );
  }
  const { body, contentType } = await scrape();
  return new Response(body, { headers: { ...HEADERS, "Content-Type": contentType } });
}
