/**
 * proxy.ts's matcher (issue 44): the probes /healthz, /readyz and /metrics skip the page proxy
 * (no nonce, CSP or cookies: cheap and plain), and so does the MCP endpoint /mcp (issue 48), while
 * pages still pass through it.
 */
import { describe, expect, it } from "vitest";
import { config } from "@/proxy";

const source = config.matcher[0].source;
const runsProxy = (pathname: string) => new RegExp(`^${source}$`).test(pathname);

describe("proxy matcher", () => {
  it("skips the probes and the API, not the pages", () => {
    for (const p of ["/healthz", "/readyz", "/metrics", "/v2/standups", "/api/auth/session", "/mcp"]) expect(runsProxy(p)).toBe(false);
    for (const p of ["/", "/sign-in", "/standups/3", "/settings/system"]) expect(runsProxy(p)).toBe(true);
  });
});
