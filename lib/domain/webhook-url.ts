/**
 * Webhook URL policy (issue 9): only http(s) URLs without credentials; the host must not resolve
 * to loopback, private, link-local (cloud metadata 169.254.169.254), unique-local, multicast or
 * unspecified addresses unless `WEBHOOKS_ALLOW_PRIVATE=true` (tests, on-prem receivers). Address
 * classes come from `ipaddr.js`. Checked when an endpoint is saved and again before each delivery
 * (a name may start resolving elsewhere later).
 *
 * IPv6 addresses that embed an IPv4 address (issue 40): an IPv4-mapped address (`::ffff:a.b.c.d`,
 * what a resolver may answer for an IPv4 host) is judged as its IPv4 address; every other
 * embedding form is refused whatever it embeds: IPv4-compatible (`::a.b.c.d`, deprecated, e.g.
 * `[::127.0.0.1]`), IPv4-translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`),
 * 6to4 (`2002::/16`) and Teredo (`2001::/32`): each can reach an IPv4 host (a loopback or private
 * one included) through a translator or tunnel.
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
    const problem = addressProblem(ipaddr.parse(a), a);
    if (problem) return problem;
  }
  return null;
}

/** The IPv6 ranges (besides IPv4-mapped) whose addresses embed an IPv4 address, by name. */
const IPV4_EMBEDDING: ReadonlyArray<[string, [ipaddr.IPv6, number]]> = [
  ["IPv4-compatible", ipaddr.IPv6.parseCIDR("::/96")],
  ["IPv4-translated", ipaddr.IPv6.parseCIDR("::ffff:0:0:0/96")],
  ["NAT64", ipaddr.IPv6.parseCIDR("64:ff9b::/96")],
  ["NAT64 local-use", ipaddr.IPv6.parseCIDR("64:ff9b:1::/48")],
  ["6to4", ipaddr.IPv6.parseCIDR("2002::/16")],
  ["Teredo", ipaddr.IPv6.parseCIDR("2001::/32")],
];

/** Why the address `text` (parsed: `addr`) may not receive webhooks, or null when it may. */
function addressProblem(addr: ipaddr.IPv4 | ipaddr.IPv6, text: string): string | null {
  const allow = "set WEBHOOKS_ALLOW_PRIVATE=true to allow it";
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return addressProblem(v6.toIPv4Address(), text);
    const range = v6.range();
    // `::` and `::1` lie in ::/96 too: they keep their own names (unspecified, loopback).
    const embedding = range === "unspecified" || range === "loopback" ? undefined : IPV4_EMBEDDING.find(([, cidr]) => v6.match(cidr));
    if (embedding) return `resolves to an IPv6 address embedding an IPv4 address (${embedding[0]}: ${text}); ${allow}`;
  }
  const range = addr.range();
  return range === "unicast" ? null : `resolves to a ${range} address (${text}); ${allow}`;
}
