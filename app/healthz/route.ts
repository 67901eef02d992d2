/**
 * GET /healthz — liveness (issue 44): 200 `{"status":"ok",...}` while the process serves; never
 * touches the database. Unauthenticated, not rate limited (README "Health and metrics").
 */
import { liveness } from "@/lib/http/health";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(liveness(), { headers: { "Cache-Control": "no-store" } });
}
