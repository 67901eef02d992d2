/**
 * The OpenAPI document (lib/openapi/document.ts) and GET /v2/openapi.json:
 * - structure: OpenAPI 3.1, info/servers/security as specified, every `$ref` resolves, every
 *   operation has an id, a tag, a summary, a 2xx response and only declared path parameters,
 *   v2 writes take `Idempotency-Key`;
 * - coverage: every method a route file under app/v1 and app/v2 serves is an operation and vice
 *   versa (a method "serves" when, called without an API key, it answers something other than the
 *   404/405 of the not-served stubs);
 * - truth: real responses of the route handlers on fixture data parse with the response schemas
 *   beside the serializers (lib/api/v1, lib/api/v2), whose objects are strict — an undocumented or a missing field is
 *   an issue. Known serializer/spec mismatches are listed in KNOWN_DEVIATIONS, each one asserted,
 *   so a new drift and a fixed serializer both fail here.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as v1Unknown from "@/app/v1/[[...path]]/route";
import { GET as meRoute } from "@/app/v1/me/route";
import { GET as myStandupsRoute } from "@/app/v1/me/standups/route";
import { GET as myTeamsRoute } from "@/app/v1/me/teams/route";
import { GET as pollV1Route } from "@/app/v1/polls/[id]/route";
import { GET as pollVotesV1Route } from "@/app/v1/polls/[id]/votes/route";
import { POST as createPollV1Route, GET as pollsV1Route } from "@/app/v1/polls/route";
import { GET as reportsV1Route, POST as submitReportV1Route } from "@/app/v1/reports/route";
import { POST as duplicateV1Route } from "@/app/v1/standups/[id]/duplicate/route";
import {
  DELETE as deleteStandupV1Route,
  PATCH as patchStandupV1Route,
  PUT as putStandupV1Route,
  GET as standupV1Route,
} from "@/app/v1/standups/[id]/route";
import { POST as startV1Route } from "@/app/v1/standups/[id]/start/route";
import { POST as createStandupV1Route, GET as standupsV1Route } from "@/app/v1/standups/route";
import { GET as teamsRoute } from "@/app/v1/teams/route";
import * as v2Unknown from "@/app/v2/[[...path]]/route";
import { POST as configApplyRoute } from "@/app/v2/config/apply/route";
import { POST as configPlanRoute } from "@/app/v2/config/plan/route";
import { GET as configRoute } from "@/app/v2/config/route";
import { OPTIONS as openApiOptions, GET as openApiRoute } from "@/app/v2/openapi.json/route";
import { buildOpenApiDocument, getOpenApiDocument } from "@/app/v2/openapi.json/routes";
import { GET as pollParticipationRoute } from "@/app/v2/polls/[pollId]/participation/route";
import { GET as pollRoute } from "@/app/v2/polls/[pollId]/route";
import { POST as castVoteRoute, GET as votesRoute } from "@/app/v2/polls/[pollId]/votes/route";
import { POST as createPollRoute, GET as pollsRoute } from "@/app/v2/polls/route";
import { GET as privacyGetRoute, PATCH as privacyPatchRoute } from "@/app/v2/privacy/route";
import { DELETE as deleteReportRoute, PATCH as patchReportRoute, GET as reportRoute } from "@/app/v2/reports/[reportId]/route";
import { GET as reportsRoute, POST as submitReportRoute } from "@/app/v2/reports/route";
import { GET as standupParticipationRoute } from "@/app/v2/standups/[standupId]/participation/route";
import { GET as standupRoute } from "@/app/v2/standups/[standupId]/route";
import { GET as standupSummariesRoute } from "@/app/v2/standups/[standupId]/summaries/route";
import { POST as createStandupRoute, GET as standupsRoute } from "@/app/v2/standups/route";
import { GET as webhookDeliveriesRoute } from "@/app/v2/webhooks/[webhookId]/deliveries/route";
import { DELETE as deleteWebhookRoute, PATCH as patchWebhookRoute, GET as webhookRoute } from "@/app/v2/webhooks/[webhookId]/route";
import { POST as testWebhookRoute } from "@/app/v2/webhooks/[webhookId]/test/route";
import { POST as createWebhookRoute, GET as webhooksRoute } from "@/app/v2/webhooks/route";
import { successV2Schema } from "@/lib/api/envelope";
import { REFUSED_HEADER } from "@/lib/api/route";
import { pollResultsV1Schema, pollV1Schema } from "@/lib/api/v1/polls";
import { reportCreatedV1Schema, reportListItemV1Schema } from "@/lib/api/v1/reports";
import { standupV1Schema, startedV1Schema } from "@/lib/api/v1/standups";
import { meV1Schema, myTeamsV1Schema, teamV1Schema } from "@/lib/api/v1/users";
import { configAppliedDataV2Schema, configDataV2Schema, configPlanDataV2Schema } from "@/lib/api/v2/config";
import { pollParticipationListV2Schema, standupParticipationListV2Schema } from "@/lib/api/v2/participation";
import { pollDataV2Schema, pollListV2Schema } from "@/lib/api/v2/polls";
import { privacyDataV2Schema } from "@/lib/api/v2/privacy";
import { reportDataV2Schema, reportListV2Schema } from "@/lib/api/v2/reports";
import { standupDataV2Schema, standupListV2Schema } from "@/lib/api/v2/standups";
import { summaryListV2Schema } from "@/lib/api/v2/summaries";
import { voteDataV2Schema } from "@/lib/api/v2/vote-writes";
import { pollResultsDataV2Schema } from "@/lib/api/v2/votes";
import { webhookCreatedV2Schema, webhookDeliveryV2Schema, webhookV2Schema } from "@/lib/api/v2/webhooks";
import { db } from "@/lib/db";
import { buildOccurrenceSummary } from "@/lib/domain/summaries";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestCategorization, createTestVote } from "@/tests/poll-fixtures";

type Json = Record<string, unknown>;
type Operation = { operationId?: string; tags?: string[]; summary?: string; parameters?: Json[]; responses?: Record<string, Json> };

const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
const doc = getOpenApiDocument() as unknown as Json & { paths: Record<string, Record<string, Operation>> };

function operations(): Array<{ method: string; path: string; operation: Operation }> {
  const out: Array<{ method: string; path: string; operation: Operation }> = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) if (item[method]) out.push({ method, path: p, operation: item[method] });
  }
  return out;
}

/** Resolves a local JSON pointer (`#/components/schemas/X`) in the document. */
function resolvePointer(ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) collectRefs(v, out);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

describe("OpenAPI document structure", () => {
  it("is OpenAPI 3.1 with the specified info, servers and API key security", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ version: "1.0.0" });
    expect(doc.servers).toEqual([{ url: "/" }]);
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect((doc.components as Json).securitySchemes).toMatchObject({ apiKey: { type: "apiKey", in: "header", name: "Authorization" } });
    // Plain JSON, stable between builds.
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(doc));
  });

  it("resolves every $ref", () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((ref) => resolvePointer(ref) === undefined)).toEqual([]);
  });

  it("gives every operation an id, a known tag, a summary, a 2xx response with a JSON schema, and described responses", () => {
    const tags = new Set((doc.tags as Array<{ name: string }>).map((t) => t.name));
    const ids = new Set<string>();
    for (const { method, path: p, operation } of operations()) {
      const where = `${method.toUpperCase()} ${p}`;
      expect(operation.operationId, where).toBeTruthy();
      expect(ids.has(operation.operationId as string), `duplicate operationId at ${where}`).toBe(false);
      ids.add(operation.operationId as string);
      expect(operation.tags?.length, where).toBe(1);
      expect(tags.has(operation.tags?.[0] as string), where).toBe(true);
      expect(operation.summary, where).toBeTruthy();
      const responses = operation.responses ?? {};
      const success = Object.keys(responses).filter((s) => /^2\d\d$/.test(s));
      expect(success.length, where).toBe(1);
      expect((responses[success[0]].content as Json)?.["application/json"], where).toBeTruthy();
      expect(responses["401"], `${where} documents 401`).toBeTruthy();
      for (const [status, response] of Object.entries(responses)) expect(response.description, `${where} ${status}`).toBeTruthy();
    }
  });

  it("declares exactly the path parameters of each path template", () => {
    for (const { method, path: p, operation } of operations()) {
      const template = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (operation.parameters ?? [])
        .filter((x) => x.in === "path")
        .map((x) => {
          expect(x.required, `${method} ${p} ${String(x.name)}`).toBe(true);
          return x.name as string;
        })
        .sort();
      expect(declared, `${method.toUpperCase()} ${p}`).toEqual(template);
    }
  });

  it("documents Idempotency-Key on every v2 write and the v2 error codes of spec §4.2", () => {
    for (const { method, path: p, operation } of operations()) {
      if (!p.startsWith("/v2/") || method === "get") continue;
      const header = (operation.parameters ?? []).find((x) => x.in === "header" && x.name === "Idempotency-Key");
      expect(header, `${method.toUpperCase()} ${p}`).toBeTruthy();
      expect(operation.responses?.["409"], `${method.toUpperCase()} ${p} 409`).toBeTruthy();
    }
    const codes = (p: string, method: string, status: string) =>
      (resolveSchema(doc.paths[p][method].responses?.[status]) as { properties: { error: { properties: { code: { enum: string[] } } } } })
        .properties.error.properties.code.enum;
    expect(codes("/v2/standups", "post", "400")).toEqual(["INVALID_PARAMETER", "CHANNEL_NOT_FOUND", "USER_NOT_FOUND"]);
    expect(codes("/v2/polls", "post", "400")).toEqual(["INVALID_PARAMETER", "CHANNEL_NOT_FOUND"]);
    expect(codes("/v2/polls", "post", "422")).toEqual(["MISMATCHED_IDEMPOTENCY_BODY"]);
    expect(codes("/v2/reports/{reportId}", "get", "404")).toEqual(["NOT_FOUND"]);
    expect(codes("/v2/reports", "get", "401")).toEqual(["UNAUTHORIZED"]);
  });
});

describe("malformed percent-encoding in the path (issue 40)", () => {
  /** True when the server preload refuses `url` as malformed (lib/runtime/next-preload.cjs `decodesCleanly`). */
  const refused = (url: string) => {
    try {
      decodeURIComponent(url.split(/[?#]/, 1)[0]);
      return false;
    } catch {
      return true;
    }
  };

  it("every operation a malformed path can name declares the 400 its refusal answers", async () => {
    let reachable = 0;
    for (const { method, path: p, operation } of operations()) {
      const where = `${method.toUpperCase()} ${p}`;
      // A client fills in only the path parameters: with one malformed, the request is still this operation's.
      if (!refused(p.replace(/\{[^}]+\}/g, "%FF"))) {
        expect(p, where).not.toContain("{");
        continue;
      }
      reachable++;
      const v1 = p.startsWith("/v1/");
      const catchAll = (v1 ? v1Unknown : v2Unknown) as unknown as Record<string, Parameters<typeof call>[0]>;
      const answer = await call(catchAll[method.toUpperCase()], {
        method: method.toUpperCase(),
        path: `/${v1 ? "v1" : "v2"}/_refused`,
        headers: { [REFUSED_HEADER]: "malformed-path" },
      });
      expect(answer.status, where).toBe(400);
      const declared = operation.responses?.["400"];
      expect(declared, `${where} declares 400`).toBeTruthy();
      expect(declared?.description, where).toMatch(/Malformed percent-encoding in the path/);
      const schema = resolveSchema(declared) as { properties: { error: { properties: { code: { enum: string[] } } } } };
      if (v1) {
        expect(schema, where).toEqual(resolvePointer("#/components/schemas/ErrorV1"));
        expect(answer.body, where).toEqual({ error: "Malformed percent-encoding in the path" });
      } else {
        expect(schema.properties.error.properties.code.enum, where).toContain(answer.body.error.code);
        expect(answer.body, where).toEqual({ error: { code: "INVALID_PARAMETER", message: "Malformed percent-encoding in the path" } });
      }
    }
    expect(reachable).toBeGreaterThanOrEqual(20);
  });
});

function resolveSchema(response: Json | undefined): unknown {
  const schema = ((response?.content as Json)?.["application/json"] as Json)?.schema as Json;
  return typeof schema?.$ref === "string" ? resolvePointer(schema.$ref) : schema;
}

// ---------------------------------------------------------------------------------------------
// coverage of the route files

const APP = path.resolve(import.meta.dirname, "../../app");

/** Route files under app/v1 and app/v2 with their URL path (`[id]` → `{id}`), minus the catch-alls, openapi.json and config.schema.json. */
function routeFiles(): Array<{ file: string; urlPath: string }> {
  const out: Array<{ file: string; urlPath: string }> = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (
          entry.name.startsWith("[[...") ||
          (segments.length === 1 && segments[0] === "v2" && ["openapi.json", "config.schema.json"].includes(entry.name))
        )
          continue;
        walk(path.join(dir, entry.name), [...segments, entry.name.replace(/^\[(\w+)\]$/, "{$1}")]);
      } else if (entry.name === "route.ts") {
        out.push({ file: path.join(dir, entry.name), urlPath: `/${segments.join("/")}` });
      }
    }
  };
  for (const version of ["v1", "v2"]) walk(path.join(APP, version), [version]);
  return out;
}

const withoutSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);

describe("OpenAPI coverage of app/v1 and app/v2", () => {
  it("documents every method every route file serves, and nothing else", async () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(20);
    const served: string[] = [];
    for (const { file, urlPath } of files) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of HTTP_METHODS) {
        const handler = mod[method.toUpperCase()];
        if (typeof handler !== "function") continue;
        // Not-served methods answer 404 (v1) or 405 (v2) before authentication; served ones need the key (401).
        const request = new Request(`http://localhost${urlPath}`, { method: method.toUpperCase() });
        const response = (await handler(request, { params: Promise.resolve({}) })) as Response;
        if (response.status === 404 || response.status === 405) continue;
        expect(response.status, `${method.toUpperCase()} ${urlPath} without a key`).toBe(401);
        served.push(`${method.toUpperCase()} ${urlPath}`);
      }
    }
    const documented = operations().map(({ method, path: p }) => `${method.toUpperCase()} ${withoutSlash(p)}`);
    expect(served.length).toBeGreaterThanOrEqual(30);
    expect([...documented].sort()).toEqual([...served].sort());
  });
});

// ---------------------------------------------------------------------------------------------
// GET /v2/openapi.json

describe("GET /v2/openapi.json", () => {
  it("serves the document publicly as JSON with CORS", async () => {
    const r = await call(openApiRoute, { path: "/v2/openapi.json" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.body).toEqual(JSON.parse(JSON.stringify(doc)));
    const again = await call(openApiRoute, { path: "/v2/openapi.json" });
    expect(again.text).toBe(r.text);
    const preflight = openApiOptions();
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });
});

// ---------------------------------------------------------------------------------------------
// real responses against the response schemas

/**
 * Issues of a real response against its strict schema: `path: message` with array indices as `*`,
 * deduplicated. Unrecognized keys are listed one per key.
 */
function schemaIssues(schema: z.ZodType, body: unknown): string[] {
  const r = schema.safeParse(body);
  if (r.success) return [];
  const out = new Set<string>();
  for (const issue of r.error.issues) {
    const where = issue.path.map((p) => (typeof p === "number" ? "*" : String(p))).join(".") || "(root)";
    if (issue.code === "unrecognized_keys") for (const key of issue.keys) out.add(`${where}: unrecognized key "${key}"`);
    else out.add(`${where}: ${issue.message}`);
  }
  return [...out].sort();
}

/**
 * Serializer fields that api-spec.md and compatibility.md do not name (reported, not fixed here:
 * the serializers belong to lib/api/v1). Remove an entry when the serializer or the spec changes.
 */
const KNOWN_DEVIATIONS: Record<string, string[]> = {};

let A: TestTeam;
let admin: TestUser;
let m0: TestUser;
let m1: TestUser;
let standup: Awaited<ReturnType<typeof createTestCheckin>>;
let anonStandup: Awaited<ReturnType<typeof createTestCheckin>>;
let spareStandup: Awaited<ReturnType<typeof createTestCheckin>>;
let quietStandup: Awaited<ReturnType<typeof createTestCheckin>>;
let poll: Awaited<ReturnType<typeof createTestCheckin>>;
let reportId: number;
let otherReportId: number;

beforeAll(async () => {
  A = await createTestTeam({ members: 2 });
  [admin, m0, m1] = A.users;
  standup = await createTestCheckin(A, {
    name: "Daily",
    questions: [{ text: "Yesterday?" }, { text: "Mood?", choices: ["good", "bad"] }],
  });
  anonStandup = await createTestCheckin(A, { name: "Anonymous", is_anonymous: true });
  spareStandup = await createTestCheckin(A, { name: "Spare", owner: admin });
  quietStandup = await createTestCheckin(A, { name: "Quiet", channel: null });
  const occurrence = await createTestOccurrence(standup, new Date().toISOString().slice(0, 10), [admin, m0, m1]);
  reportId = (await createTestReport(standup, m0, { occurrence_id: occurrence.id })).id;
  otherReportId = (await createTestReport(standup, m1)).id;
  await createTestReport(anonStandup, m0); // m0's own: readable by m0 below the anonymity threshold (issue 45)

  poll = await createTestCheckin(A, {
    kind: "poll",
    owner: m0,
    name: "Lunch",
    questions: [
      { text: "Where?", choices: ["pizza", "sushi"] },
      { text: "Ideas?", answer_type: "open_ended" },
    ],
  });
  const instance = await createTestOccurrence(poll, "2026-03-15", [admin, m0, m1]);
  const vote = (user: TestUser, q: number, v: { choice?: string; text?: string; categories?: string[] }) =>
    createTestVote(poll, instance.id, user, q, v);
  await vote(m0, 0, { choice: "pizza" });
  await vote(m1, 0, { choice: "sushi" });
  await vote(m0, 1, { text: "tacos", categories: ["food"] });
  await createTestCategorization(poll, instance.id, 1, [{ name: "food", count: 1 }]);
});

type Case = {
  name: string;
  request: () => Promise<{ status: number; body: unknown }>;
  schema: z.ZodType;
  /** Extra check that the response exercised the interesting parts. */
  check?: (body: never) => void;
};

/** A GET case without path parameters, authenticated with the key `key()` returns at run time. */
const get = (handler: Parameters<typeof call>[0], key: () => string, p: string) => () => call(handler, { path: p, key: key() });

let hookId = "";

type Handler = Parameters<typeof call>[0];

/**
 * A GET case of one resource as m0: `${collection}/${id()}${suffix}`, with `param` = id as the path
 * parameter (the id is read when the case runs: the fixtures are made in beforeAll).
 */
const getById =
  (handler: Handler, collection: string, param: string, id: () => number | string, suffix = "") =>
  () =>
    call(handler, { path: `${collection}/${id()}${suffix}`, key: m0.key, params: { [param]: String(id()) } });

/** A v1 case as the admin on the spare standup: `method` to /v1/standups/{id}`${suffix}`, with `body` if given. */
const onSpareStandup =
  (handler: Handler, method: string, suffix = "", body?: unknown) =>
  () =>
    call(handler, {
      method,
      path: `/v1/standups/${spareStandup.id}${suffix}`,
      key: admin.key,
      params: { id: String(spareStandup.id) },
      body,
    });

/** A v2 case as the admin on the webhook the "POST /v2/webhooks" case created: `method` to /v2/webhooks/{id}`${suffix}`. */
const onWebhook =
  (handler: Handler, method: string, suffix = "", body?: unknown) =>
  () =>
    call(handler, { method, path: `/v2/webhooks/${hookId}${suffix}`, key: admin.key, params: { webhookId: hookId }, body });
process.env.WEBHOOKS_ALLOW_PRIVATE = "true"; // the webhook cases use the loopback's discard port, never a public address

const cases: Case[] = [
  {
    name: "GET /v2/standups",
    request: () => call(standupsRoute, { path: "/v2/standups?include=questions,member_email", key: m0.key }),
    schema: standupListV2Schema,
    check: (body: { data: Array<{ questions?: unknown[]; members: Array<{ email?: string }> }> }) => {
      expect(body.data.length).toBeGreaterThanOrEqual(2);
      expect(body.data.every((s) => s.questions?.length && s.members.every((m) => m.email))).toBe(true);
    },
  },
  {
    name: "GET /v2/standups/{standupId}",
    request: getById(standupRoute, "/v2/standups", "standupId", () => standup.id),
    schema: standupDataV2Schema,
  },
  {
    name: "GET /v2/standups/{standupId}/participation",
    request: getById(standupParticipationRoute, "/v2/standups", "standupId", () => standup.id, "/participation"),
    schema: standupParticipationListV2Schema,
    check: (body: { data: unknown[] }) => expect(body.data.length).toBeGreaterThanOrEqual(1),
  },
  {
    name: "GET /v2/standups/{standupId}/summaries",
    request: async () => {
      const occurrence = await db.occurrence.findFirstOrThrow({ where: { checkin_id: standup.id } });
      await buildOccurrenceSummary(occurrence.id, null);
      return getById(standupSummariesRoute, "/v2/standups", "standupId", () => standup.id, "/summaries")();
    },
    schema: summaryListV2Schema,
    check: (body: { data: unknown[] }) => expect(body.data.length).toBe(1),
  },
  {
    name: "GET /v2/polls",
    request: () => call(pollsRoute, { path: "/v2/polls?include=questions,member_username,member_realname", key: m0.key }),
    schema: pollListV2Schema,
    check: (body: { data: unknown[] }) => expect(body.data.length).toBe(1),
  },
  { name: "GET /v2/polls/{pollId}", request: getById(pollRoute, "/v2/polls", "pollId", () => poll.id), schema: pollDataV2Schema },
  {
    name: "GET /v2/polls/{pollId}/votes",
    request: getById(votesRoute, "/v2/polls", "pollId", () => poll.id, "/votes"),
    schema: pollResultsDataV2Schema,
    check: (body: { data: { instances: Array<{ questions: Array<{ answer_type: string }> }> } }) =>
      expect(body.data.instances[0].questions.map((q) => q.answer_type)).toEqual(["multiple_choice", "open_ended"]),
  },
  {
    name: "GET /v2/polls/{pollId}/participation",
    request: getById(pollParticipationRoute, "/v2/polls", "pollId", () => poll.id, "/participation"),
    schema: pollParticipationListV2Schema,
    check: (body: { data: unknown[] }) => expect(body.data.length).toBe(1),
  },
  {
    name: "POST /v2/polls/{pollId}/votes",
    request: () =>
      call(castVoteRoute, {
        method: "POST",
        path: `/v2/polls/${poll.id}/votes`,
        key: m1.key,
        params: { pollId: String(poll.id) },
        body: {
          answers: [
            { question_id: poll.questions[0].id, choices: ["sushi"] },
            { question_id: poll.questions[1].id, text: "a salad bar" },
          ],
        },
      }),
    schema: voteDataV2Schema,
  },
  {
    name: "GET /v2/reports",
    request: () => call(reportsRoute, { path: "/v2/reports", key: m0.key }),
    schema: reportListV2Schema,
    check: (body: { data: Array<{ user_id: string | null; answers?: unknown[] }> }) => {
      expect(body.data.length).toBe(3);
      expect(body.data.some((r) => r.user_id === null)).toBe(true);
      expect(body.data.every((r) => r.answers?.length)).toBe(true);
    },
  },
  {
    name: "GET /v2/reports?view=summary",
    request: () => call(reportsRoute, { path: "/v2/reports?view=summary", key: m0.key }),
    schema: reportListV2Schema,
  },
  {
    name: "GET /v2/reports/{reportId}",
    request: getById(reportRoute, "/v2/reports", "reportId", () => reportId),
    schema: reportDataV2Schema,
  },
  { name: "GET /v1/me", request: get(meRoute, () => m0.key, "/v1/me"), schema: meV1Schema },
  { name: "GET /v1/me/teams", request: get(myTeamsRoute, () => m0.key, "/v1/me/teams"), schema: myTeamsV1Schema },
  { name: "GET /v1/me/standups", request: get(myStandupsRoute, () => m0.key, "/v1/me/standups"), schema: z.array(standupV1Schema) },
  { name: "GET /v1/teams/", request: get(teamsRoute, () => m0.key, "/v1/teams/"), schema: teamV1Schema },
  {
    name: "GET /v1/standups/",
    request: get(standupsV1Route, () => m0.key, "/v1/standups/"),
    schema: z.array(standupV1Schema),
    check: (body: unknown[]) => expect(body.length).toBeGreaterThanOrEqual(2),
  },
  { name: "GET /v1/standups/{id}", request: getById(standupV1Route, "/v1/standups", "id", () => standup.id), schema: standupV1Schema },
  {
    name: "GET /v1/reports/",
    request: get(reportsV1Route, () => m0.key, "/v1/reports/"),
    schema: z.array(reportListItemV1Schema),
    check: (body: Array<{ member?: unknown }>) => {
      expect(body.length).toBe(3);
      expect(body.filter((r) => r.member === undefined).length).toBe(1);
    },
  },
  {
    name: "POST /v1/reports/",
    request: () =>
      call(submitReportV1Route, {
        method: "POST",
        path: "/v1/reports/",
        key: admin.key,
        // A multiple-choice answer is one of the question's choices (issue 41).
        body: {
          standup_id: standup.id,
          answers: Object.fromEntries(standup.questions.map((q) => [String(q.id), { text: q.choices.length ? q.choices[0] : "done" }])),
        },
      }),
    schema: reportCreatedV1Schema,
  },
  {
    name: "POST /v1/reports/ (standup without a broadcast channel)",
    request: () =>
      call(submitReportV1Route, {
        method: "POST",
        path: "/v1/reports/",
        key: m1.key,
        body: { standup_id: quietStandup.id, answers: Object.fromEntries(quietStandup.questions.map((q) => [String(q.id), "ok"])) },
      }),
    schema: reportCreatedV1Schema,
  },
  {
    name: "GET /v1/polls",
    request: get(pollsV1Route, () => m0.key, "/v1/polls"),
    schema: z.array(pollV1Schema),
    check: (body: unknown[]) => expect(body.length).toBe(1),
  },
  { name: "GET /v1/polls/{id}", request: getById(pollV1Route, "/v1/polls", "id", () => poll.id), schema: pollV1Schema },
  {
    name: "GET /v1/polls/{id}/votes",
    request: getById(pollVotesV1Route, "/v1/polls", "id", () => poll.id, "/votes"),
    schema: pollResultsV1Schema,
    check: (body: { instances: unknown[] }) => expect(body.instances.length).toBe(1),
  },
  // writes last: they change what the reads above return
  {
    name: "POST /v2/standups",
    request: () =>
      call(createStandupRoute, {
        method: "POST",
        path: "/v2/standups",
        key: m0.key,
        body: {
          name: "Weekly",
          questions: [{ text: "Plans?" }, { text: "Mood?", choices: ["good", "bad"] }],
          days: ["Mon"],
          time: "10:00",
          broadcast_channel: A.channels[0].chat_id,
        },
      }),
    schema: standupDataV2Schema,
  },
  {
    name: "POST /v2/polls",
    request: () =>
      call(createPollRoute, {
        method: "POST",
        path: "/v2/polls",
        key: m0.key,
        headers: { "idempotency-key": "3c0e8f3a-6d0b-4b7e-9a51-0f6f3d0c2b11" },
        body: { name: "Coffee", question: "Which?", choices: ["tea", "coffee"], broadcast_channel: A.channels[0].chat_id, duration: 60 },
      }),
    schema: pollDataV2Schema,
  },
  {
    name: "POST /v2/reports",
    request: () =>
      call(submitReportRoute, {
        method: "POST",
        path: "/v2/reports",
        key: m0.key,
        body: { standup_id: anonStandup.id, answers: anonStandup.questions.map((q) => ({ question_id: q.id, text: "fine" })) },
      }),
    schema: reportDataV2Schema,
  },
  {
    name: "PATCH /v2/reports/{reportId}",
    request: () =>
      call(patchReportRoute, {
        method: "PATCH",
        path: `/v2/reports/${reportId}`,
        key: m0.key,
        params: { reportId: String(reportId) },
        body: { answers: [{ question_id: standup.questions[0].id, text: "edited" }] },
      }),
    schema: reportDataV2Schema,
  },
  {
    name: "DELETE /v2/reports/{reportId}",
    request: () =>
      call(deleteReportRoute, {
        method: "DELETE",
        path: `/v2/reports/${otherReportId}`,
        key: m1.key,
        params: { reportId: String(otherReportId) },
      }),
    schema: successV2Schema,
  },
  {
    name: "POST /v1/standups/",
    request: () =>
      call(createStandupV1Route, {
        method: "POST",
        path: "/v1/standups/",
        key: admin.key,
        body: { name: "Retro", channel: A.channels[0].name, time: "16:00:00", timezone: "UTC", days: ["Fri"], sync_channel_members: true },
      }),
    schema: standupV1Schema,
  },
  {
    name: "PATCH /v1/standups/{id}",
    request: onSpareStandup(patchStandupV1Route, "PATCH", "", { name: "Spare (renamed)", wait_time: 15 }),
    schema: standupV1Schema,
  },
  {
    name: "PUT /v1/standups/{id}",
    request: () =>
      onSpareStandup(putStandupV1Route, "PUT", "", {
        name: "Spare",
        channel: A.channels[0].name,
        time: "0930",
        timezone: "UTC",
        wait_time: null,
        days: ["Mon", "Wed"],
        users: [admin.id, m0.id],
        sync_channel_members: false,
      })(),
    schema: standupV1Schema,
  },
  {
    name: "POST /v1/standups/{id}/duplicate",
    request: onSpareStandup(duplicateV1Route, "POST", "/duplicate", { name: "Spare copy" }),
    schema: standupV1Schema,
  },
  { name: "POST /v1/standups/{id}/start", request: onSpareStandup(startV1Route, "POST", "/start"), schema: startedV1Schema },
  { name: "DELETE /v1/standups/{id}", request: onSpareStandup(deleteStandupV1Route, "DELETE"), schema: standupV1Schema },
  {
    name: "POST /v1/polls",
    request: () =>
      call(createPollV1Route, {
        method: "POST",
        path: "/v1/polls",
        key: m0.key,
        body: { name: "Tea", channel: `#${A.channels[0].name}`, question: "Green?", choices: ["yes", "no"], duration: 30 },
      }),
    schema: pollV1Schema,
  },
  // privacy settings (issue 45)
  { name: "GET /v2/privacy", request: get(privacyGetRoute, () => m0.key, "/v2/privacy"), schema: privacyDataV2Schema },
  {
    name: "PATCH /v2/privacy",
    request: () => call(privacyPatchRoute, { method: "PATCH", path: "/v2/privacy", key: admin.key, body: { anonymity_threshold: 3 } }),
    schema: privacyDataV2Schema,
  },
  // check-ins as code (issue 43)
  { name: "GET /v2/config", request: get(configRoute, () => admin.key, "/v2/config"), schema: configDataV2Schema },
  {
    name: "POST /v2/config/plan",
    request: () =>
      call(configPlanRoute, {
        method: "POST",
        path: "/v2/config/plan",
        key: admin.key,
        body: { document: { holidays: [{ date: "2031-01-01", name: "Day" }] } },
      }),
    schema: configPlanDataV2Schema,
  },
  {
    name: "POST /v2/config/apply",
    request: () =>
      call(configApplyRoute, {
        method: "POST",
        path: "/v2/config/apply",
        key: admin.key,
        body: { document: { holidays: [{ date: "2031-01-01", name: "Day" }] } },
      }),
    schema: configAppliedDataV2Schema,
  },
  // webhooks (issue 9): created first, then read, changed, tested and removed
  {
    name: "POST /v2/webhooks",
    request: () =>
      call(createWebhookRoute, {
        method: "POST",
        path: "/v2/webhooks",
        key: admin.key,
        body: { url: "http://127.0.0.1:9/hooks", events: ["report.submitted"] },
      }),
    schema: webhookCreatedV2Schema,
    check: (body: { data: { id: number } }) => {
      hookId = String(body.data.id);
    },
  },
  {
    name: "GET /v2/webhooks",
    request: () => call(webhooksRoute, { path: "/v2/webhooks", key: admin.key }),
    schema: z.strictObject({ data: z.array(webhookV2Schema), next_cursor: z.string().nullable(), has_more: z.boolean() }),
  },
  { name: "GET /v2/webhooks/{webhookId}", request: onWebhook(webhookRoute, "GET"), schema: z.strictObject({ data: webhookV2Schema }) },
  {
    name: "PATCH /v2/webhooks/{webhookId}",
    request: onWebhook(patchWebhookRoute, "PATCH", "", { description: "renamed" }),
    schema: z.strictObject({ data: webhookV2Schema }),
  },
  {
    name: "POST /v2/webhooks/{webhookId}/test",
    request: onWebhook(testWebhookRoute, "POST", "/test"),
    schema: z.strictObject({ data: z.strictObject({ delivery_id: z.number(), message_id: z.string() }) }),
  },
  {
    name: "GET /v2/webhooks/{webhookId}/deliveries",
    request: onWebhook(webhookDeliveriesRoute, "GET", "/deliveries"),
    schema: z.strictObject({ data: z.array(webhookDeliveryV2Schema), next_cursor: z.null(), has_more: z.boolean() }),
  },
  { name: "DELETE /v2/webhooks/{webhookId}", request: onWebhook(deleteWebhookRoute, "DELETE"), schema: successV2Schema },
];

describe("real responses match the documented response schemas (strict)", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", async (name, c) => {
    const r = await c.request();
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    expect(schemaIssues(c.schema, r.body)).toEqual(KNOWN_DEVIATIONS[name] ?? []);
    c.check?.(r.body as never);
  });

  it("covers every operation of the document", () => {
    const checked = new Set(cases.map((c) => c.name.replace(/\?.*$/, "")));
    const wanted = operations().map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(wanted.filter((w) => !checked.has(w))).toEqual([]);
  });
});
