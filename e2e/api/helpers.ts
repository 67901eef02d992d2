/**
 * Shared helpers of the HTTP-level API specs (e2e/api/transport.spec.ts, e2e/api/flows.spec.ts).
 * They run against the real production server started by scripts/e2e.ts (BASE_URL) on fresh demo
 * data; the demo API keys come from $CHECKIN_DATA_DIR/demo-credentials.json. Ids are discovered
 * through the API, never hard-coded.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, type APIResponse, expect, test } from "@playwright/test";

export type DemoKey = { email: string; key: string; user_id: string; team_id: number; name: string };
export type DemoKeys = { admin: DemoKey; member: DemoKey; other: DemoKey };

/** The demo API keys the seed wrote (admin, ordinary member, member of the second team). */
export function demoKeys(): DemoKeys {
  const dir = process.env.CHECKIN_DATA_DIR ?? path.join(process.cwd(), ".data");
  const creds = JSON.parse(fs.readFileSync(path.join(dir, "demo-credentials.json"), "utf8")) as {
    api_keys: Record<string, DemoKey>;
  };
  const { admin, member, other_team_member: other } = creds.api_keys;
  if (!admin?.key || !member?.key || !other?.key)
    throw new Error(`demo-credentials.json in ${dir} lacks api_keys.admin/member/other_team_member`);
  return { admin, member, other };
}

/** `Authorization: <raw key>` (the form existing clients send). */
export const rawAuth = (key: string): Record<string, string> => ({ Authorization: key });
/** `Authorization: Bearer <key>`. */
export const bearerAuth = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });

/** A fresh UUID v4 for `Idempotency-Key` (what clients send, compatibility.md v2). */
export const newIdempotencyKey = (): string => randomUUID();

/** A short unique suffix for names created by a test. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 46656).toString(36)}`;
}

/** Asserts the transport headers every API response carries: JSON content type and open CORS. */
export function expectApiHeaders(res: APIResponse, what = res.url()): void {
  const headers = res.headers();
  expect(headers["content-type"] ?? "(none)", `Content-Type of ${what} (status ${res.status()})`).toMatch(/^application\/json\b/i);
  expect(headers["access-control-allow-origin"] ?? "(none)", `Access-Control-Allow-Origin of ${what}`).toBe("*");
}

/** Asserts the response is not a redirect (status 3xx or a Location header). */
export function expectNoRedirect(res: APIResponse, what = res.url()): void {
  const location = res.headers().location;
  const status = res.status();
  expect(status >= 300 && status < 400, `${what} redirected: ${status} (Location: ${location ?? "none"})`).toBe(false);
  expect(location, `${what} has a Location header`).toBeUndefined();
}

/** Parses a JSON body, failing with the start of the body when it is not JSON. */
export async function jsonOf(res: APIResponse, what = res.url()): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} (status ${res.status()}) did not answer JSON: ${text.slice(0, 200)}`);
  }
}

/**
 * A body made comparable between two requests: `next_cursor` strings are replaced by a marker,
 * since cursors of the default-window lists (GET /v2/reports) embed the "now" of their request.
 */
export function comparable(body: unknown): unknown {
  if (body && typeof body === "object" && !Array.isArray(body) && "next_cursor" in body) {
    const b = body as Record<string, unknown>;
    return { ...b, next_cursor: typeof b.next_cursor === "string" ? "<cursor>" : b.next_cursor };
  }
  return body;
}

/** Ids of the demo data, discovered through the API (see `discoverIds`). */
export type DemoIds = {
  /** A non-anonymous active standup the admin and the member both belong to (GET /v2/standups). */
  standupId: number;
  /** Its broadcast channel. */
  channel: { id: string; name: string };
  /** A submitted report of that standup visible to the admin (GET /v2/reports). */
  reportId: number;
  /** A poll the admin takes part in (GET /v1/polls). */
  v1PollId: number;
  /** A poll the admin created (GET /v2/polls; one is created when there is none). */
  v2PollId: number;
};

type V2Standup = {
  id: number;
  state: string;
  is_anonymous: boolean;
  broadcast_channel: { id: string; name: string } | null;
  members?: { id: string }[];
};

/** Fixed key: both Playwright workers creating the transport poll get the same poll (one write). */
const TRANSPORT_POLL_KEY = "7a0e2f4c-5b1d-4e3a-9c8f-e2e0000a0001";

async function getOk(request: APIRequestContext, url: string, key: string): Promise<unknown> {
  const res = await request.get(url, { headers: rawAuth(key), maxRedirects: 0 });
  expect(res.status(), `GET ${url} while discovering the demo data: ${(await res.text()).slice(0, 200)}`).toBe(200);
  return res.json();
}

/**
 * Discovers the demo ids the transport checks use, as the admin: a standup shared with the member
 * (from GET /v2/standups with include=member_email), one of its reports (GET /v2/reports), a poll
 * the admin takes part in (GET /v1/polls) and a poll the admin created (GET /v2/polls; created
 * with POST /v2/polls and a fixed Idempotency-Key when the seed has none for the admin).
 */
export async function discoverIds(request: APIRequestContext, keys: DemoKeys): Promise<DemoIds> {
  const standups = ((await getOk(request, "/v2/standups?limit=100", keys.admin.key)) as { data: V2Standup[] }).data;
  const memberStandups = ((await getOk(request, "/v2/standups?limit=100", keys.member.key)) as { data: V2Standup[] }).data;
  const shared = standups.filter(
    (s) => s.state === "active" && !s.is_anonymous && s.broadcast_channel && memberStandups.some((m) => m.id === s.id),
  );
  expect(shared.length, "an active, non-anonymous demo standup shared by the admin and the member").toBeGreaterThan(0);
  let standup = shared[0];
  let reportId: number | undefined;
  for (const s of shared) {
    const reports = (await getOk(request, `/v2/reports?standup_id=${s.id}&limit=1&view=summary`, keys.admin.key)) as {
      data: { id: number }[];
    };
    if (reports.data.length > 0) {
      standup = s;
      reportId = reports.data[0].id;
      break;
    }
  }
  expect(reportId, "a submitted report of the last 7 days in a shared standup (GET /v2/reports)").toBeDefined();

  const v1Polls = (await getOk(request, "/v1/polls", keys.admin.key)) as { id: number }[];
  expect(v1Polls.length, "a poll the demo admin takes part in (GET /v1/polls)").toBeGreaterThan(0);

  let v2Polls = ((await getOk(request, "/v2/polls", keys.admin.key)) as { data: { id: number }[] }).data;
  if (v2Polls.length === 0) {
    await createTransportPoll(request, keys, standup.broadcast_channel?.id as string);
    v2Polls = ((await getOk(request, "/v2/polls", keys.admin.key)) as { data: { id: number }[] }).data;
  }
  expect(v2Polls.length, "a poll created by the demo admin (GET /v2/polls)").toBeGreaterThan(0);

  return {
    standupId: standup.id,
    channel: standup.broadcast_channel as { id: string; name: string },
    reportId: reportId as number,
    v1PollId: v1Polls[0].id,
    v2PollId: v2Polls[0].id,
  };
}

async function createTransportPoll(request: APIRequestContext, keys: DemoKeys, channelId: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const res = await request.post("/v2/polls", {
      headers: { ...rawAuth(keys.admin.key), "Idempotency-Key": TRANSPORT_POLL_KEY },
      data: { name: "E2E transport poll", question: "Which transport?", choices: ["HTTP/1.1", "HTTP/2"], broadcast_channel: channelId },
      maxRedirects: 0,
    });
    if (res.status() === 409) {
      // The other worker's identical request is still running (IDEMPOTENCY_KEY_IN_USE).
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers()["retry-after"] ?? 1)));
      continue;
    }
    expect(res.status(), `POST /v2/polls (creating the admin's poll): ${(await res.text()).slice(0, 200)}`).toBe(201);
    return;
  }
  throw new Error("POST /v2/polls kept answering 409 IDEMPOTENCY_KEY_IN_USE");
}

/**
 * The current and legacy read paths of the API (compatibility.md Transport), without trailing
 * slash, as templates: `{standup}`, `{report}`, `{v1poll}`, `{v2poll}` are replaced by
 * `resolvePath` with the discovered ids (test titles are built before discovery runs).
 */
export const API_PATHS = [
  "/v1/me",
  "/v1/me/teams",
  "/v1/me/standups",
  "/v1/teams",
  "/v1/standups",
  "/v1/standups/{standup}",
  "/v1/reports",
  "/v1/polls",
  "/v1/polls/{v1poll}",
  "/v1/polls/{v1poll}/votes",
  "/v2/standups",
  "/v2/standups/{standup}",
  "/v2/standups/{standup}/participation",
  "/v2/standups/{standup}/summaries",
  "/v2/reports",
  "/v2/reports/{report}",
  "/v2/polls",
  "/v2/polls/{v2poll}",
  "/v2/polls/{v2poll}/participation",
  "/v2/polls/{v2poll}/votes",
] as const;

/** A path template of `API_PATHS` with the discovered ids filled in. */
export function resolvePath(template: string, ids: DemoIds): string {
  return template
    .replace("{standup}", String(ids.standupId))
    .replace("{report}", String(ids.reportId))
    .replace("{v1poll}", String(ids.v1PollId))
    .replace("{v2poll}", String(ids.v2PollId));
}

let discovered: DemoIds | undefined;

/** `discoverIds`, run once per Playwright worker (the result is plain data, kept between tests). */
export async function demoIds(request: APIRequestContext, keys: DemoKeys): Promise<DemoIds> {
  discovered ??= await discoverIds(request, keys);
  return discovered;
}

/**
 * Registers a `test.beforeEach` (in the calling spec file) that loads the demo API keys (`demoKeys`)
 * and ids (`demoIds`), and returns the object it fills: read `demo.keys` / `demo.ids` inside tests.
 */
export function demoDataBeforeEach(): { keys: DemoKeys; ids: DemoIds } {
  const demo = {} as { keys: DemoKeys; ids: DemoIds };
  test.beforeEach(async ({ request }) => {
    demo.keys = demoKeys();
    demo.ids = await demoIds(request, demo.keys);
  });
  return demo;
}

/** The version of an API path ("v1" covers the current /v1/me… endpoints too). */
export const versionOf = (p: string): "v1" | "v2" => (p.startsWith("/v2") ? "v2" : "v1");
