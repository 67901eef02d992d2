/**
 * The MCP server end to end (issue 48): the SDK's own Streamable HTTP client against the production
 * server (BASE_URL/mcp, through the server preload), as the demo member: it reads a standup and
 * posts a report that is broadcast like any other (the v1 report list shows its message's `slack_ts`,
 * the REST list shows the report); a bad key is a 401, GET is a 405, both with the API headers.
 * Writes only on a standup the spec creates (the demo admin's views stay unchanged).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { bearerAuth, demoDataBeforeEach, newIdempotencyKey, rawAuth, uniqueSuffix } from "./helpers";

const demo = demoDataBeforeEach();
const base = () => process.env.BASE_URL ?? "http://localhost:3000";

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

test("an MCP client reads a standup and posts a report that is broadcast like any other", async ({ request }) => {
  const created = await request.post("/v2/standups", {
    headers: { ...bearerAuth(demo.keys.member.key), "Idempotency-Key": newIdempotencyKey() },
    data: {
      name: `E2E MCP ${uniqueSuffix()}`,
      questions: [{ text: "What did you finish?" }, { text: "What is next?" }],
      days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
      time: "09:00",
      broadcast_channel: demo.ids.channel.id,
      users: [demo.keys.member.user_id],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const standupId = ((await created.json()) as { data: { id: number } }).data.id;

  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", base()), { requestInit: { headers: bearerAuth(demo.keys.member.key) } }),
  );
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(result.isError ?? false, `${name}: ${result.content[0].text}`).toBe(false);
      return JSON.parse(result.content[0].text);
    };
    const standup = (await call("get_standup", { standup_id: standupId })).data as { questions: { id: number }[] };
    const answers = standup.questions.map((q, i) => ({ question_id: q.id, text: `Posted by an assistant ${i}` }));
    const report = (await call("post_report", { standup_id: standupId, answers, idempotency_key: newIdempotencyKey() })).data;
    expect(report).toMatchObject({ standup_id: standupId, user_id: demo.keys.member.user_id });

    const listed = await call("list_reports", { standup_id: standupId });
    expect(listed.data.map((r: { id: number }) => r.id)).toEqual([report.id]);
    const rest = await request.get(`/v2/reports?standup_id=${standupId}`, { headers: bearerAuth(demo.keys.member.key) });
    expect(((await rest.json()) as { data: { id: number }[] }).data.map((r) => r.id)).toEqual([report.id]);
    // Broadcast: the report's chat message, as for a report posted through the API or the form.
    const v1 = await request.get(`/v1/reports/?standup_id=${standupId}`, { headers: rawAuth(demo.keys.member.key) });
    const [v1Report] = (await v1.json()) as { id: number; slack_ts: string | null }[];
    expect(v1Report.id).toBe(report.id);
    expect(v1Report.slack_ts).toEqual(expect.any(String));
  } finally {
    await client.close();
  }
});

test("POST /mcp without a valid key is a 401 and GET /mcp a 405, with the API headers", async ({ request }) => {
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
  };
  const res = await request.post("/mcp", {
    headers: { Authorization: "Bearer api_wrong", Accept: "application/json, text/event-stream" },
    data: init,
  });
  expect(res.status()).toBe(401);
  expect(res.headers()["www-authenticate"]).toMatch(/^Bearer/);
  expect(res.headers()["cache-control"]).toBe("no-store");
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
  const get = await request.get("/mcp", { headers: bearerAuth(demo.keys.member.key) });
  expect(get.status()).toBe(405);
  expect(get.headers()["content-security-policy"], "no page headers: the proxy does not run on /mcp").toBeUndefined();
});
