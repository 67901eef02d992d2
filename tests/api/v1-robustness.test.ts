/**
 * Robustness sweep of the legacy (v1) write and read endpoints (compatibility.md Transport: v1
 * errors are `{"error": "<message>"}` with 400, 401, 404 or 422): wrong JSON types, nulls, huge
 * numbers, unicode, arrays for strings, empty and malformed bodies, odd query values and path ids
 * must all give a clean 200 or one of those statuses — never a 500 — and a path served with a
 * method it does not support answers 404 with the v1 body rather than a bodiless 405.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as pollOne from "@/app/v1/polls/[id]/route";
import * as pollVotes from "@/app/v1/polls/[id]/votes/route";
import * as polls from "@/app/v1/polls/route";
import * as reports from "@/app/v1/reports/route";
import * as duplicate from "@/app/v1/standups/[id]/duplicate/route";
import * as one from "@/app/v1/standups/[id]/route";
import * as start from "@/app/v1/standups/[id]/start/route";
import * as collection from "@/app/v1/standups/route";
import * as teams from "@/app/v1/teams/route";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

let A: TestTeam;
let s: Awaited<ReturnType<typeof createTestCheckin>>;

beforeAll(async () => {
  A = await createTestTeam({ members: 2 });
  s = await createTestCheckin(A, { name: "Probe", owner: A.admin });
});

const weird: unknown[] = [
  null,
  1,
  "x",
  [],
  true,
  {},
  { name: null },
  { name: 1 },
  { name: ["a"] },
  { name: "é🎉".repeat(300) },
  { name: "n", channel: null },
  { name: "n", channel: 5 },
  { channel: ["x"] },
  { time: null },
  { time: "25:99" },
  { time: 1e300 },
  { time: -5 },
  { time: "99:99:99" },
  { time: [] },
  { timezone: null },
  { timezone: 5 },
  { timezone: "Mars/Base" },
  { wait_time: "abc" },
  { wait_time: 1e300 },
  { wait_time: [] },
  { wait_time: {} },
  { days: null },
  { days: [1, 2] },
  { days: "" },
  { days: [] },
  { days: [null] },
  { days: {} },
  { questions: "q" },
  { questions: [null] },
  { questions: [1] },
  { questions: [{ question: 5 }] },
  { questions: [{}] },
  { questions: {} },
  { users: "U1" },
  { users: [null] },
  { users: [1e300] },
  { users: [99999999999] },
  { users: [-1] },
  { users: [2147483647] },
  { users: ["nobody"] },
  { users: [{}] },
  { users: [[1]] },
  { sync_channel_members: "maybe" },
  { sync_channel_members: null },
  { sync_channel_members: false },
  { personalised: null },
  { personalised: "x" },
  { sync_channel: 5 },
  { sync_channel: "nochannel" },
  { emails: "a@b" },
  { emails: [null] },
  { emails: [5] },
  { emails: ["nobody@x.y"] },
  { user_ids: [1.5] },
  { standup_id: null },
  { standup_id: "abc" },
  { standup_id: 1e300 },
  { standup_id: 99999999999 },
  { standup_id: -1 },
  { standup_id: 1.5 },
  { standup_id: [1] },
  { standup_id: 1, answers: null },
  { standup_id: 1, answers: [] },
  { standup_id: 1, answers: "x" },
  { standup_id: 1, answers: { a: "x" } },
  { standup_id: 1, answers: { "1": null } },
  { standup_id: 1, answers: { "1": { text: null } } },
  { standup_id: 1, answers: { "99999999999": "x" } },
  { question: null, name: "x", channel: "c", choices: ["a", "b"], duration: 5 },
  { name: "p", channel: "nochan", question: "q", choices: ["a", "b"], duration: 5 },
  { name: "p", channel: "c", question: "q", choices: "a,b", duration: 5 },
  { name: "p", channel: "c", question: "q", choices: [1, 2], duration: 5 },
  { name: "p", channel: "c", question: "q", choices: ["a", "b"], duration: 1e300 },
  { name: "p", channel: "c", question: "q", choices: ["a", "b"], duration: "x" },
  { name: "p", channel: "c", question: "q", choices: ["a", "b"], duration: null },
];

const raws = ["", "   ", "not json", "[", "null", '"str"', "123", '{"a":'];

// biome-ignore lint/suspicious/noExplicitAny: route handlers take differently typed params
type H = (r: Request, c: { params: Promise<any> }) => Promise<Response>;
function targets(): Array<{ name: string; h: H; method: string; path: string; params?: Record<string, string> }> {
  const id = String(s.id);
  return [
    { name: "POST standups", h: collection.POST, method: "POST", path: "/v1/standups/" },
    { name: "PATCH standup", h: one.PATCH, method: "PATCH", path: `/v1/standups/${id}`, params: { id } },
    { name: "PUT standup", h: one.PUT, method: "PUT", path: `/v1/standups/${id}`, params: { id } },
    { name: "duplicate", h: duplicate.POST, method: "POST", path: `/v1/standups/${id}/duplicate`, params: { id } },
    { name: "start", h: start.POST, method: "POST", path: `/v1/standups/${id}/start`, params: { id } },
    { name: "POST reports", h: reports.POST, method: "POST", path: "/v1/reports/" },
    { name: "POST polls", h: polls.POST, method: "POST", path: "/v1/polls" },
  ];
}

/** The handler a route module exports for `method`, if any. */
const handlerOf = (mod: object, method: string) => (mod as unknown as Record<string, H | undefined>)[method];

describe("v1 robustness", () => {
  it("answers every odd body with 200 or a v1 error (400/401/404/422), never 500", async () => {
    const bad: string[] = [];
    for (const t of targets()) {
      for (const b of weird) {
        const body =
          b && typeof b === "object" && !Array.isArray(b) && (b as Record<string, unknown>).channel === "c"
            ? { ...(b as Record<string, unknown>), channel: A.channels[0].name }
            : b;
        const r = await call(t.h, { method: t.method, path: t.path, key: A.admin.key, rawBody: JSON.stringify(body), params: t.params });
        if (![200, 400, 401, 404, 422].includes(r.status) || (r.status !== 200 && typeof r.body?.error !== "string"))
          bad.push(`${t.name} ${JSON.stringify(body).slice(0, 80)} -> ${r.status} ${r.text.slice(0, 200)}`);
      }
      for (const raw of raws) {
        const r = await call(t.h, { method: t.method, path: t.path, key: A.admin.key, rawBody: raw, params: t.params });
        if (![200, 400, 401, 404, 422].includes(r.status)) bad.push(`${t.name} raw ${raw} -> ${r.status} ${r.text.slice(0, 200)}`);
      }
    }
    expect(bad).toEqual([]);
  }, 120000);
  it("answers odd query values with 200 or 400 and odd path ids with 404", async () => {
    const bad: string[] = [];
    const qs = [
      "limit=0",
      "limit=101",
      "limit=abc",
      "limit=1e2",
      "limit=99999999999999999999",
      "standup_id=abc",
      "standup_id=99999999999",
      "user_id=%F0%9F%8E%89",
      "user_id=",
      `user_id=${"x".repeat(100)}`,
      "after=abc",
      "after=1e20",
      "after=99999999999999999999",
      "before=-1",
      "after=1704067200.5",
      "question_ids=a",
      "question_ids=1,,2",
      "question_ids[]=99999999999",
      "html=maybe",
      "html=",
      "html=TRUE",
      "after=1704067200&before=1",
      "user_id=0",
      "user_ids=1,U1",
      "user_id=9999999999",
      "user_id=2147483648",
      "standup_id=9999999999",
      "question_ids=9999999999",
    ];
    for (const q of qs) {
      const r = await call(reports.GET, { path: `/v1/reports/?${q}`, key: A.admin.key });
      if (![200, 400].includes(r.status)) bad.push(`reports ${q} -> ${r.status} ${r.text}`);
    }
    for (const q of [
      "from=abc",
      "to=2026-02-30",
      "from=2026-01-01&to=2025-01-01",
      "from=99999-01-01",
      "from=2026-01-01T00:00:00",
      "to=0001-01-01",
    ]) {
      const r = await call(pollVotes.GET, { path: `/v1/polls/1/votes?${q}`, key: A.admin.key, params: { id: "1" } });
      if (![404, 400].includes(r.status)) bad.push(`votes ${q} -> ${r.status} ${r.text}`);
    }
    for (const id of ["abc", "0", "-1", "99999999999", "1.5", "%20", "🎉"]) {
      for (const [h, m] of [
        [one.GET, "GET"],
        [one.DELETE, "DELETE"],
        [pollOne.GET, "GET"],
        [pollVotes.GET, "GET"],
      ] as const) {
        const r = await call(h as H, { method: m, path: `/v1/x/${id}`, key: A.admin.key, params: { id } });
        if (r.status !== 404) bad.push(`id ${id} ${m} -> ${r.status} ${r.text}`);
      }
    }
    for (const q of ["admin=maybe", "admin=", "admin=1", "admin=TRUE"]) {
      const r = await call(collection.GET, { path: `/v1/standups/?${q}`, key: A.admin.key });

      if (![200, 400].includes(r.status)) bad.push(`standups ${q} -> ${r.status}`);
    }
    expect(bad).toEqual([]);
  }, 120000);
  it("answers a method a v1 path does not serve with 404 {error}, not a bodiless 405", async () => {
    const id = String(s.id);
    const cases: Array<[H | undefined, string, string]> = [
      [handlerOf(reports, "DELETE"), "DELETE", "/v1/reports/"],
      [handlerOf(reports, "PUT"), "PUT", "/v1/reports/"],
      [handlerOf(collection, "DELETE"), "DELETE", "/v1/standups/"],
      [handlerOf(one, "POST"), "POST", `/v1/standups/${id}`],
      [handlerOf(start, "GET"), "GET", `/v1/standups/${id}/start`],
      [handlerOf(duplicate, "GET"), "GET", `/v1/standups/${id}/duplicate`],
      [handlerOf(polls, "DELETE"), "DELETE", "/v1/polls"],
      [handlerOf(pollOne, "DELETE"), "DELETE", "/v1/polls/1"],
      [handlerOf(pollVotes, "POST"), "POST", "/v1/polls/1/votes"],
      [handlerOf(teams, "POST"), "POST", "/v1/teams/"],
    ];
    for (const [h, method, path] of cases) {
      expect(h, `${method} ${path}`).toBeTypeOf("function");
      const r = await call(h as H, { method, path, key: A.admin.key, params: { id } });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body).toEqual({ error: "Not found" });
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });
  it('replies the JSON string "ok" to start for every body form, absent and null included', async () => {
    const member = A.users[1];
    const fresh = await createTestCheckin(A, { name: "Start forms", owner: A.admin, members: [A.admin, member] });
    const id = String(fresh.id);
    const forms: Array<{ body?: unknown; rawBody?: string }> = [
      {},
      { rawBody: "" },
      { rawBody: "null" },
      { body: {} },
      { body: { users: null } },
      { body: { user_ids: null } },
      { body: { emails: null } },
      { body: { users: null, emails: null } },
      { body: { users: [] } },
      { body: { users: [member.id] } },
      { body: { users: [String(member.id)] } },
      { body: { users: [member.chat_id] } },
      { body: { user_ids: [member.id] } },
      { body: { emails: [member.email.toUpperCase()] } },
    ];
    for (const form of forms) {
      const r = await call(start.POST, { method: "POST", path: `/v1/standups/${id}/start`, key: A.admin.key, params: { id }, ...form });
      expect(r.status, JSON.stringify(form)).toBe(200);
      expect(r.text).toBe('"ok"');
      expect(r.body).toBe("ok");
    }
  });
});
