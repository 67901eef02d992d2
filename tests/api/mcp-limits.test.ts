/**
 * The MCP endpoint's limits are the API's (issue 48): requests to POST /mcp count against the API
 * key's quota together with REST calls (one limit, RATE_LIMIT_API_PER_MINUTE), carry the
 * `RateLimit` headers, and a body above API_BODY_LIMIT_BYTES is a 413 like on /v2. Limits are
 * lowered through the environment of this test file's own process.
 */
process.env.RATE_LIMIT_API_PER_MINUTE = "6";
process.env.API_BODY_LIMIT_BYTES = "4096";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "@/app/mcp/route";
import { GET as listReportsRoute } from "@/app/v2/reports/route";
import { createTestTeam, createTestUser, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { type RouteServer, startRouteServer } from "@/tests/route-server";

let server: RouteServer;
let team: TestTeam;
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const ping = (key: string, body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })) =>
  fetch(`${server.url}/mcp`, { method: "POST", headers: { ...headers, authorization: `Bearer ${key}` }, body });

beforeAll(async () => {
  server = await startRouteServer({ "/mcp": mcpRoute });
  team = await createTestTeam({ members: 1 });
});

afterAll(async () => {
  await server?.close();
});

describe("MCP limits", () => {
  it("shares the API key's rate limit with the REST API", async () => {
    const user = await createTestUser(team.id, { name: "Limited" });
    for (let i = 0; i < 3; i++) expect((await call(listReportsRoute, { path: "/v2/reports", key: user.key })).status).toBe(200);
    const first = await ping(user.key);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit")).toMatch(/;r=2;/);
    const client = new Client({ name: "limits", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${user.key}` } },
    });
    // initialize + notifications/initialized: requests 5 and 6 of 6.
    await client.connect(transport);
    await expect(client.listTools()).rejects.toMatchObject({ code: 429 });
    expect((await call(listReportsRoute, { path: "/v2/reports", key: user.key })).status).toBe(429);
    await client.close();
  });

  it("refuses a body above API_BODY_LIMIT_BYTES with 413, and malformed JSON with 400", async () => {
    const user = await createTestUser(team.id, { name: "Big" });
    const big = await ping(user.key, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(5000) } }));
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    const bad = await ping(user.key, "{not json");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("INVALID_PARAMETER");
  });
});
