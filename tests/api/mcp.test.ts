/**
 * The MCP server (issue 48, "An MCP server for assistants") through the SDK's own client
 * (`Client` + `StreamableHTTPClientTransport`) against a real HTTP server in front of app/mcp/route.ts,
 * on the real test database: every tool against seeded data, a member's key sees exactly what
 * GET /v2/reports shows them, anonymous reports without authors, post_report broadcasts like any
 * report and replays its idempotency key (also against POST /v2/reports), a bad key is a 401.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "@/app/mcp/route";
import { GET as pollVotesRoute } from "@/app/v2/polls/[pollId]/votes/route";
import { GET as listReportsRoute, POST as postReportRoute } from "@/app/v2/reports/route";
import { db } from "@/lib/db";
import { listBlockers } from "@/lib/domain/blockers";
import { createTestCheckin, createTestOccurrence, createTestReport, type StandardTeams, standardTeams } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { type RouteServer, startRouteServer } from "@/tests/route-server";

type Checkin = Awaited<ReturnType<typeof createTestCheckin>>;
type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

let server: RouteServer;
let { A, B, admin, m0, m1, m2 } = {} as StandardTeams;
let daily: Checkin;
let anon: Checkin;
let anonFew: Checkin;
let hidden: Checkin;
let poll: Checkin;
const clients: Client[] = [];

/** A connected SDK client sending `authorization` (default: `Bearer <key>`). */
async function connect(key: string, authorization = `Bearer ${key}`): Promise<Client> {
  const client = new Client({ name: "checkin-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization } } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** Calls a tool and returns its result (text content parsed as JSON in `body`). */
async function tool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  const text = result.content[0].text;
  return { text, body: JSON.parse(text), isError: result.isError === true };
}

const everyDay = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const today = new Date().toISOString().slice(0, 10);
const window = { since: new Date(Date.now() - 86_400_000).toISOString(), until: new Date(Date.now() + 3_600_000).toISOString() };

beforeAll(async () => {
  server = await startRouteServer({ "/mcp": mcpRoute });
  ({ A, B, admin, m0, m1, m2 } = await standardTeams({ members: 3 }));
  daily = await createTestCheckin(A, { name: "Daily", members: [admin, m0, m1], channel: A.channels[0], days: everyDay });
  await db.question.update({ where: { id: daily.questions[2].id }, data: { is_blocker: true } });
  anon = await createTestCheckin(A, { name: "Anon", members: [admin, m0, m1], is_anonymous: true, days: everyDay });
  hidden = await createTestCheckin(A, { name: "Hidden", members: [admin, m1], days: everyDay });
  const occurrence = await createTestOccurrence(daily, today, [admin, m0, m1]);
  await createTestReport(daily, m1, { occurrence_id: occurrence.id, answers: ["Shipped the API", "Docs", "Waiting on review from ops"] });
  // Three authors: at the team's anonymity threshold (k = 3), so the API shows them, without authors.
  for (const u of [admin, m1, m2]) await createTestReport(anon, u, { answers: ["secret one", "secret two", "none"] });
  // One author: below k, so the API suppresses it (and so must the MCP server).
  anonFew = await createTestCheckin(A, { name: "AnonFew", members: [admin, m0, m1], is_anonymous: true, days: everyDay });
  await createTestReport(anonFew, m1, { answers: ["lonely", "secret", "none"] });
  await createTestReport(hidden, m1, { answers: ["hidden work", "more", "none"] });
  const otherTeam = await createTestCheckin(B, { name: "Elsewhere" });
  await createTestReport(otherTeam, B.users[1] ?? B.admin);
  poll = await createTestCheckin(A, {
    kind: "poll",
    name: "Lunch",
    owner: admin,
    members: [admin, m0, m1],
    questions: [{ text: "Drink?", choices: ["Coffee", "Tea"] }],
  });
  await createTestOccurrence(poll, today, [admin, m0, m1]);
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.close();
});

describe("MCP server (POST /mcp)", () => {
  it("offers the tools and the reports resource template", async () => {
    const client = await connect(m0.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "get_participation",
        "get_poll_results",
        "get_standup",
        "list_blockers",
        "list_polls",
        "list_reports",
        "list_standups",
        "post_report",
        "vote",
      ].sort(),
    );
    const post = tools.find((t) => t.name === "post_report");
    expect(post?.inputSchema.required).toEqual(expect.arrayContaining(["standup_id", "answers"]));
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["checkin://standups/{standup_id}/reports"]);
  });

  it("lists and gets standups and polls as the API does, and hides others' standups", async () => {
    const client = await connect(m0.key);
    const standups = await tool(client, "list_standups");
    const names = standups.body.data.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(["Daily", "Anon"]));
    expect(names).not.toContain("Hidden");
    expect(names).not.toContain("Elsewhere");
    const one = await tool(client, "get_standup", { standup_id: daily.id });
    expect(one.body.data.questions.map((q: { id: number }) => q.id)).toEqual(daily.questions.map((q) => q.id));
    const none = await tool(client, "get_standup", { standup_id: hidden.id });
    expect(none.isError).toBe(true);
    expect(none.body.error.code).toBe("NOT_FOUND");
    const bad = await tool(client, "list_standups", { created_since: "yesterday-ish" });
    expect(bad.isError).toBe(true);
    expect(bad.body.error.code).toBe("INVALID_PARAMETER");
    const mistyped = (await client.callTool({ name: "get_standup", arguments: { standup_id: "abc" } })) as ToolResult;
    expect(mistyped.isError).toBe(true);
    expect(mistyped.content[0].text).toMatch(/Input validation error.*standup_id/s);
    const polls = await tool(await connect(admin.key), "list_polls");
    expect(polls.body.data.map((p: { name: string }) => p.name)).toEqual(["Lunch"]);
  });

  it("list_reports answers exactly what GET /v2/reports shows the same key (nothing more)", async () => {
    const client = await connect(m0.key);
    const viaMcp = await tool(client, "list_reports", window);
    const viaApi = await call(listReportsRoute, { path: `/v2/reports?${new URLSearchParams(window)}`, key: m0.key });
    expect(viaApi.status).toBe(200);
    expect(viaMcp.text).toBe(viaApi.text);
    const standupIds = new Set(viaMcp.body.data.map((r: { standup_id: number }) => r.standup_id));
    expect([...standupIds].sort()).toEqual([daily.id, anon.id].sort());
    const filtered = await tool(client, "list_reports", { ...window, standup_id: daily.id, view: "summary" });
    const filteredApi = await call(listReportsRoute, {
      path: `/v2/reports?${new URLSearchParams({ ...window, standup_id: String(daily.id), view: "summary" })}`,
      key: m0.key,
    });
    expect(filtered.text).toBe(filteredApi.text);
  });

  it("anonymous reports carry no author and suppressed ones stay suppressed, in the tool and in the resource", async () => {
    const client = await connect(m0.key);
    const { body, text } = await tool(client, "list_reports", { standup_id: anon.id });
    expect(body.data).toHaveLength(3);
    for (const r of body.data) expect(r.user_id).toBeNull();
    for (const u of [admin, m1, m2]) expect(text).not.toContain(u.chat_id);
    expect((await tool(client, "list_reports", { standup_id: anonFew.id })).body.data).toEqual([]);
    const resource = await client.readResource({ uri: `checkin://standups/${anon.id}/reports` });
    const content = resource.contents[0] as { text: string };
    expect(content.text).toBe(text);
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain(`checkin://standups/${daily.id}/reports`);
    expect(uris).not.toContain(`checkin://standups/${hidden.id}/reports`);
  });

  it("post_report submits and broadcasts like POST /v2/reports; its idempotency key replays, also over REST", async () => {
    const client = await connect(m0.key);
    const answers = daily.questions.map((q, i) => ({ question_id: q.id, text: `mcp answer ${i}` }));
    const first = await tool(client, "post_report", { standup_id: daily.id, answers, idempotency_key: "mcp-key-1" });
    expect(first.isError).toBe(false);
    const id = first.body.data.id;
    expect(first.body.data).toMatchObject({ standup_id: daily.id, user_id: m0.chat_id });
    const messages = await db.chatMessage.findMany({ where: { report_id: id } });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ kind: "report", channel_id: A.channels[0].id });
    const again = await tool(client, "post_report", { standup_id: daily.id, answers, idempotency_key: "mcp-key-1" });
    expect(again.text).toBe(first.text);
    const rest = await call(postReportRoute, {
      method: "POST",
      path: "/v2/reports",
      key: m0.key,
      body: { standup_id: daily.id, answers },
      headers: { "idempotency-key": "mcp-key-1" },
    });
    expect(rest.headers.get("idempotent-replayed")).toBe("true");
    expect(rest.text).toBe(first.text);
    const mismatch = await tool(client, "post_report", {
      standup_id: daily.id,
      answers: answers.slice(0, 1),
      idempotency_key: "mcp-key-1",
    });
    expect(mismatch.isError).toBe(true);
    expect(mismatch.body.error.code).toBe("MISMATCHED_IDEMPOTENCY_BODY");
    expect(await db.report.count({ where: { checkin_id: daily.id, user_id: m0.id } })).toBe(1);
    expect(await db.chatMessage.count({ where: { report_id: id } })).toBe(1);
  });

  it("vote, get_poll_results and get_participation answer as the API", async () => {
    const client = await connect(m1.key);
    const vote = await tool(client, "vote", { poll_id: poll.id, answers: [{ question_id: poll.questions[0].id, choices: ["Tea"] }] });
    expect(vote.isError).toBe(false);
    expect(vote.body.data.poll_id).toBe(poll.id);
    // Results are the owner's (as GET /v2/polls/{id}/votes: NOT_FOUND for anyone else).
    expect((await tool(client, "get_poll_results", { poll_id: poll.id })).body.error.code).toBe("NOT_FOUND");
    const owner = await connect(admin.key);
    const results = await tool(owner, "get_poll_results", { poll_id: poll.id });
    const viaApi = await call(pollVotesRoute, { path: `/v2/polls/${poll.id}/votes`, key: admin.key, params: { pollId: String(poll.id) } });
    expect(results.text).toBe(viaApi.text);
    const tea = results.body.data.instances[0].questions[0].choices.find((c: { text: string }) => c.text === "Tea");
    expect(tea.votes).toBe(1);
    const participation = await tool(client, "get_participation", { standup_id: daily.id });
    expect(participation.body.data[0]).toMatchObject({ date: today });
    expect(participation.body.data[0].responded).toBeGreaterThanOrEqual(1);
    const both = await tool(client, "get_participation", { standup_id: daily.id, poll_id: poll.id });
    expect(both.body.error.code).toBe("INVALID_PARAMETER");
    const pollParticipation = await tool(owner, "get_participation", { poll_id: poll.id });
    expect(pollParticipation.body.data[0].responded).toBe(1);
  });

  it("list_blockers lists blocking answers of visible standups with their author", async () => {
    const client = await connect(m0.key);
    const { body } = await tool(client, "list_blockers", { user_id: m1.chat_id });
    const mine = body.data.filter((b: { standup_id: number }) => b.standup_id === daily.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ text: "Waiting on review from ops", author: { id: m1.chat_id }, latest: true });
  });

  it("list_blockers keeps to the API's visibility, also for an admin (the dashboard shows admins more)", async () => {
    const teamOnly = await createTestCheckin(A, { name: "Pair", owner: m1, members: [m1, m2], days: everyDay });
    await db.question.update({ where: { id: teamOnly.questions[2].id }, data: { is_blocker: true } });
    await createTestReport(teamOnly, m2, { answers: ["a", "b", "Blocked by the pair's build"] });
    const viaMcp = await tool(await connect(admin.key), "list_blockers", { status: "all" });
    expect(viaMcp.body.data.map((b: { standup_id: number }) => b.standup_id)).not.toContain(teamOnly.id);
    const viaApi = await call(listReportsRoute, { path: `/v2/reports?standup_id=${teamOnly.id}`, key: admin.key });
    expect(viaApi.body.data).toEqual([]);
    const dashboard = await listBlockers(admin.actor, { status: "all" });
    expect(dashboard.map((b) => b.standupId)).toContain(teamOnly.id);
  });

  it("a bad or missing key is a 401 (also with the raw key form accepted)", async () => {
    await expect(connect("api_not-a-real-key")).rejects.toMatchObject({ code: 401 });
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const missing = await fetch(`${server.url}/mcp`, { method: "POST", headers, body: JSON.stringify(init) });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await missing.json()).error.code).toBe("UNAUTHORIZED");
    const raw = await connect(admin.key, admin.key);
    expect((await tool(raw, "list_polls")).body.data).toHaveLength(1);
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: `Bearer ${m0.key}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  });
});
