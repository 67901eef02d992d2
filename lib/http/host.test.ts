/** Host header check of issue 40 (empty or malformed Host / X-Forwarded-Host → 400, not 500). */
import { describe, expect, it } from "vitest";
import { hasValidHost, isValidHost } from "@/lib/http/host";

describe("isValidHost", () => {
  it.each(["localhost", "localhost:3000", "127.0.0.1:8080", "[::1]:3000", "checkin.example.com", "xn--bcher-kva.example"])(
    "%s is valid",
    (host) => expect(isValidHost(host)).toBe(true),
  );
  it.each(["", " ", "a b", "a.example, b.example", "a/b", "user@host", "host:99999", "host:port", "a\\b", "?", "#x", "[::1"])(
    "%j is refused",
    (host) => expect(isValidHost(host)).toBe(false),
  );
});

describe("hasValidHost", () => {
  it("checks X-Forwarded-Host too when present", () => {
    expect(hasValidHost(new Headers({ host: "localhost:3000" }))).toBe(true);
    expect(hasValidHost(new Headers({ host: "localhost:3000", "x-forwarded-host": "checkin.example" }))).toBe(true);
    expect(hasValidHost(new Headers({ host: "localhost:3000", "x-forwarded-host": "" }))).toBe(false);
    expect(hasValidHost(new Headers({ host: "" }))).toBe(false);
    expect(hasValidHost(new Headers({}))).toBe(false);
  });
});
