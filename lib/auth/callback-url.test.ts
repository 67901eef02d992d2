/** Open-redirect guard of the sign-in page (issue 13): only same-origin paths survive. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeCallbackPath, safeRedirectUrl } from "@/lib/auth/callback-url";

describe("safeCallbackPath", () => {
  it.each([
    ["/\\evil.example/", "/overview"],
    ["/%5Cevil.example/", "/%5Cevil.example/"], // still encoded: a path on our origin
    ["//evil.example/", "/overview"],
    ["///evil.example", "/overview"],
    ["/\tevil", "/overview"],
    ["https://evil.example/", "/overview"],
    ["javascript:alert(1)", "/overview"],
    ["evil.example", "/overview"],
    ["", "/overview"],
    // dot segments that normalise to a scheme-relative `//host` (issue 40)
    ["/..//evil.example", "/overview"],
    ["/.//evil.example", "/overview"],
    ["/a/..//evil.example/x", "/overview"],
    ["/%2e%2e//evil.example", "/overview"],
    ["/%2E//evil.example", "/overview"],
    ["/./../..//evil.example?x=1", "/overview"],
    ["/reports/../standups", "/standups"],
    ["/standups/3?tab=x#top", "/standups/3?tab=x#top"],
    ["/reports", "/reports"],
  ])("%j → %j", (input, expected) => {
    expect(safeCallbackPath(input)).toBe(expected);
  });
});

describe("safeRedirectUrl (next-auth redirect callback)", () => {
  const base = "http://localhost:3000";
  it("keeps same-origin URLs and paths, refuses other hosts", () => {
    expect(safeRedirectUrl("/standups", base)).toBe("http://localhost:3000/standups");
    expect(safeRedirectUrl("http://localhost:3000/reports?x=1", base)).toBe("http://localhost:3000/reports?x=1");
    expect(safeRedirectUrl("http://evil.example/", base)).toBe("http://localhost:3000/overview");
    expect(safeRedirectUrl("/\\evil.example/", base)).toBe("http://localhost:3000/overview");
    expect(safeRedirectUrl("//evil.example/", base)).toBe("http://localhost:3000/overview");
    expect(safeRedirectUrl("/..//evil.example", base)).toBe("http://localhost:3000/overview");
    expect(safeRedirectUrl("/.//evil.example", base)).toBe("http://localhost:3000/overview");
    expect(safeRedirectUrl("http://localhost:3000/..//evil.example", base)).toBe("http://localhost:3000/overview");
  });
});

describe("safeCallbackPath (property)", () => {
  it("whatever it is given, the result is read by a browser as a path on the same origin", () => {
    const pieces = ["/", "//", ".", "..", "%2e", "%2E", "%2f", "\\", "%5c", "evil.example", "a", "?", "#", "@", ":", "%00", " "];
    const piece = fc.constantFrom(...pieces);
    const input = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 12 }).map((p) => `/${p.join("")}`),
    );
    fc.assert(
      fc.property(input, (value) => {
        const out = safeCallbackPath(value);
        expect(out.startsWith("/") && !out.startsWith("//") && !out.includes("\\")).toBe(true);
        for (const base of ["http://localhost:3000", "https://checkin.example/sub/"]) {
          expect(new URL(out, base).origin).toBe(new URL(base).origin);
        }
      }),
      { seed: 40, numRuns: 5000 },
    );
  });
});
