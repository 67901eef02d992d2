/**
 * GET /readyz — readiness (issue 44): 200 when the database answers, its migrations are current
 * and a running job worker beats; else 503 with `failed` naming the checks that failed
 * (lib/http/health.ts). Unauthenticated, not rate limited (README "Health and metrics").
 */
import { readiness } from "@/lib/http/health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const r = await readiness();
  return Response.json(
    { status: r.ready ? "ready" : "not ready", failed: r.failed, checks: r.checks },
    { status: r.ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
