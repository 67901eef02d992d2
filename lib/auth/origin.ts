/**
 * Request facts for server actions and pages. Links are never built from the request: the origin of
 * every e-mailed or shown link is `linkBaseUrl()` (lib/env.ts: PUBLIC_URL, else this service's own
 * address), so a forged `Host`, `Origin` or `X-Forwarded-Host` cannot redirect a reset link
 * (issue 40 item 4).
 */
import { headers } from "next/headers";
import { clientIp } from "@/lib/api/rate-limit";

/** The client IP of the current server action or page request (see `clientIp`). */
export async function requestClientIp(): Promise<string> {
  return clientIp({ headers: await headers() });
}
