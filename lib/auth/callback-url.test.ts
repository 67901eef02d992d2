/** Open-redirect guard of the sign-in page (issue 13): only same-origin paths survive. */
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
  });
});
