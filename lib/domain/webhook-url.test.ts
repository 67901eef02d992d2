/**
 * The webhook URL policy (lib/domain/webhook-url.ts) on IP literals, no DNS: IPv6 forms that embed
 * an IPv4 address (issue 40) — IPv4-mapped is judged as its IPv4 address, every other embedding
 * form (IPv4-compatible, IPv4-translated, NAT64, 6to4, Teredo) is refused whatever it embeds.
 */
import { describe, expect, it } from "vitest";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";

const problem = (url: string) => webhookUrlProblem(url, { allowPrivate: false });

describe("webhookUrlProblem on IPv4-embedding IPv6 addresses", () => {
  it.each([
    ["IPv4-compatible loopback", "http://[::127.0.0.1]/", /IPv4-compatible: ::7f00:1/],
    ["IPv4-compatible private", "http://[::10.0.0.1]/hook", /IPv4-compatible/],
    ["IPv4-compatible metadata", "http://[::169.254.169.254]/", /IPv4-compatible/],
    ["IPv4-compatible public", "http://[::8.8.8.8]/", /IPv4-compatible/],
    ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/", /loopback address/],
    ["IPv4-mapped private", "http://[::ffff:10.0.0.1]/", /private address/],
    ["IPv4-translated", "http://[::ffff:0:127.0.0.1]/", /IPv4-translated/],
    ["NAT64 loopback", "http://[64:ff9b::127.0.0.1]/", /NAT64: 64:ff9b::7f00:1/],
    ["NAT64 public", "http://[64:ff9b::8.8.8.8]/", /NAT64/],
    ["NAT64 local-use", "http://[64:ff9b:1::10.0.0.1]/", /NAT64 local-use/],
    ["6to4 loopback", "http://[2002:7f00:1::]/", /6to4/],
    ["6to4 public", "http://[2002:808:808::1]/", /6to4/],
    ["Teredo", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", /Teredo/],
  ])("refuses %s (%s)", async (_name, url, reason) => {
    expect(await problem(url)).toMatch(reason);
  });

  it("keeps the other classes and accepts public addresses, IPv4-mapped ones included", async () => {
    expect(await problem("http://[::1]/")).toMatch(/loopback address/);
    expect(await problem("http://[::]/")).toMatch(/unspecified address/);
    expect(await problem("http://[::ffff:8.8.8.8]/")).toBeNull();
    expect(await problem("http://8.8.8.8/")).toBeNull();
    expect(await problem("http://[2606:4700:4700::1111]/")).toBeNull();
    expect(await webhookUrlProblem("http://[::127.0.0.1]/", { allowPrivate: true })).toBeNull();
  });
});
