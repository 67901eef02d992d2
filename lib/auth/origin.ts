/**
 * The public origin links in e-mails and one-time link dialogs point at: `PUBLIC_URL` when set, else
 * the request's `X-Forwarded-Proto`/`X-Forwarded-Host` or `Host` (for server actions and pages).
 */
import { headers } from "next/headers";
import { clientIp } from "@/lib/api/rate-limit";
import { port, publicUrl } from "@/lib/env";

/** e.g. `http://localhost:3000` (no trailing slash). */
export async function requestOrigin(): Promise<string> {
  const configured = publicUrl();
  if (configured) return configured;
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? `localhost:${port()}`;
  const proto = h.get("x-forwarded-proto") ?? "http";
  return `${proto.split(",")[0]?.trim()}://${host.split(",")[0]?.trim()}`;
}

/** The client IP of the current server action or page request (see `clientIp`). */
export async function requestClientIp(): Promise<string> {
  return clientIp({ headers: await headers() });
}
