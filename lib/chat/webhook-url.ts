/**
 * Webhook URL policy (issue 9): only http(s) URLs without credentials; the host must not resolve
 * to loopback, private, link-local (cloud metadata 169.254.169.254), unique-local, multicast or
 * unspecified addresses unless `WEBHOOKS_ALLOW_PRIVATE=true` (tests, on-prem receivers). Address
 * classes come from `ipaddr.js`. Checked when an endpoint is saved and again before each delivery
 * (a name may start resolving elsewhere later).
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** Why a URL is refused, or null when it is acceptable. Never throws. */
export async function webhookUrlProblem(raw: string, opts: { allowPrivate: boolean }): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute http or https URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must use http or https";
  if (url.username || url.password) return "must not contain credentials";
  if (raw.length > 2000) return "must be at most 2000 characters";
  if (opts.allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return `host ${host} does not resolve`;
  }
  for (const a of addresses) {
    let addr = ipaddr.parse(a);
    if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
    const range = addr.range();
    if (range !== "unicast") return `resolves to a ${range} address (${a}); set WEBHOOKS_ALLOW_PRIVATE=true to allow it`;
  }
  return null;
}
