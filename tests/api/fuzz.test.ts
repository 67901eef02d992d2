/**
 * Property-based fuzz test of the whole API (issue 13), generated from the OpenAPI document
 * (lib/openapi/document.ts) with fast-check: every documented operation is called in-process
 * through its real route handler, against the real test database, with path ids (existing,
 * invisible, nonsense), query values and JSON bodies derived from the document's schemas and
 * mixed with hostile values (huge and negative numbers, year-0001 dates, NUL, unicode, junk JSON),
 * with and without a valid API key and Idempotency-Key.
 *
 * Fails on any 5xx, any non-JSON body, or a 2xx body that does not validate against the
 * operation's response schema in the document (Ajv, JSON Schema 2020-12). Seeded: FUZZ_SEED
 * (default 1322) and FUZZ_RUNS (default 2000) reproduce a run; a failure prints its seed and path.
 */
import Ajv2020 from "ajv/dist/2020";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOpenApiDocument } from "@/app/v2/openapi.json/routes";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, createTestUser, type TestTeam } from "@/tests/fixtures";

type Json = Record<string, unknown>;
type Schema = Json & { $ref?: string; type?: string | string[]; enum?: unknown[]; properties?: Record<string, Schema> };
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Operation = { method: string; path: string; op: Json; file: string };

const SEED = Number(process.env.FUZZ_SEED ?? 1322);
/** FUZZ_REPORT_ONLY=1: count problems over the whole run instead of stopping at the first (for figures). */
const REPORT_ONLY = process.env.FUZZ_REPORT_ONLY === "1";
const problems = { "5xx": 0, "non-JSON": 0, "2xx body violates the document": 0 };
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

const doc = getOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Schema> };
};
const routeModules = import.meta.glob<Record<string, Handler>>("/app/v[12]/**/route.ts");

let A: TestTeam;
let keys: string[] = [];
const ids: Record<string, number[]> = { standup: [], poll: [], report: [], question: [], other: [] };
const statuses = new Map<number, number>();

beforeAll(async () => {
  A = await createTestTeam({ members: 3 });
  const B = await createTestTeam({ members: 1 });
  // Ten keys of one admin: the fuzz stays under the per-key rate limit (600/min) of each.
  const extra = await Promise.all(Array.from({ length: 9 }, () => createTestUser(A.id, { isAdmin: true })));
  keys = [A.admin.key, ...extra.map((u) => u.key), A.users[1].key];
  const standup = await createTestCheckin(A, { name: "Fuzz standup", members: A.users });
  const poll = await createTestCheckin(A, { kind: "poll", name: "Fuzz poll", questions: [{ text: "Q", choices: ["a", "b"] }] });
  const hidden = await createTestCheckin(B, { name: "Other team" });
  await createTestOccurrence(standup, "2026-01-05", A.users);
  await createTestOccurrence(poll, "2026-01-05", A.users);
  const report = await createTestReport(standup, A.users[1]);
  ids.standup = [standup.id, hidden.id];
  ids.poll = [poll.id];
  ids.report = [(report as { id: number }).id];
  ids.question = [...standup.questions.map((q) => q.id), ...poll.questions.map((q) => q.id)];
  ids.other = [hidden.id];
});

afterAll(() => {
  const line = [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
  console.log(`fuzz: ${[...statuses.values()].reduce((a, b) => a + b, 0)} requests (seed ${SEED}); statuses ${line}`);
  if (REPORT_ONLY) console.log(`fuzz problems: ${JSON.stringify(problems)}`);
});

function resolve(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && s.$ref; i++) s = doc.components.schemas[s.$ref.replace("#/components/schemas/", "")] ?? {};
  return s;
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const file = `/app${path.replace(/\/$/, "").replace(/\{(\w+)\}/g, "[$1]")}/route.ts`;
      if (!routeModules[file]) throw new Error(`no route file ${file} for ${method.toUpperCase()} ${path}`);
      out.push({ method: method.toUpperCase(), path, op, file });
    }
  }
  return out;
}

// ------------------------------------------------------------------ value generators

const hostileStrings = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "%FF",
  "0001-01-01T00:00:00Z",
  "0001-01-01T00:00:00+14:00",
  "-62135596801",
  "99999999999999999999",
  "1e400",
  "NaN",
  "-1",
  "0",
  "2026-02-30",
  "275760-09-13T00:00:00Z",
  "true",
  "a,b,,c",
  "💥".repeat(50),
  "x".repeat(5000),
  "<script>alert(1)</script>",
  "'; DROP TABLE reports; --",
);
const anyString = fc.oneof(
  { weight: 3, arbitrary: hostileStrings },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
);
const anyInteger = fc.oneof(
  fc.integer({ min: -3, max: 300 }),
  fc.constantFrom(0, -1, 2147483647, 2147483648, -2147483649, Number.MAX_SAFE_INTEGER, 1e300),
);

function idFor(name: string): fc.Arbitrary<number> {
  const pool = /poll/i.test(name)
    ? ids.poll
    : /report/i.test(name)
      ? ids.report
      : /question/i.test(name)
        ? ids.question
        : /standup/i.test(name) || name === "id"
          ? [...ids.standup, ...ids.poll]
          : ids.other;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: anyInteger });
}

function isDateName(name: string): boolean {
  return /since|until|after|before|^from$|^to$|date|_at$/.test(name);
}

const dateValue = fc.oneof(
  fc
    .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc
    .date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.integer({ min: -70_000_000_000, max: 300_000_000_000 }).map(String),
  hostileStrings,
);

/** A string value for a query or path parameter named `name` with schema `schema`. */
function paramValue(name: string, schema: Schema): fc.Arbitrary<string> {
  const s = resolve(schema);
  const options: fc.Arbitrary<string>[] = [anyString];
  if (Array.isArray(s.enum)) options.push(fc.constantFrom(...s.enum.map(String)));
  if (s.type === "integer" || s.type === "number" || /_id$|^id$|Id$/.test(name)) options.push(idFor(name).map(String));
  if (s.type === "boolean") options.push(fc.constantFrom("true", "false", "1", "0", "yes"));
  if (isDateName(name)) options.push(dateValue);
  if (name === "limit") options.push(fc.integer({ min: -5, max: 150 }).map(String));
  if (name === "include" || name === "state")
    options.push(fc.constantFrom("questions", "members", "questions,members", "active,paused", "draft"));
  return fc.oneof(...options);
}

/** A JSON value shaped like `schema` (every property optional, values sometimes hostile). */
function valueFor(schema: Schema | undefined, name: string, depth: number): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const hostile = fc.oneof(anyString, anyInteger, fc.constant(null), fc.boolean(), fc.constant([]), fc.constant({}));
  if (depth > 4) return hostile;
  const variants = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  let shaped: fc.Arbitrary<unknown>;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  if (variants?.length) shaped = fc.oneof(...variants.map((v) => valueFor(v, name, depth + 1)));
  else if (Array.isArray(s.enum)) shaped = fc.constantFrom(...s.enum);
  else if (type === "object" || s.properties) {
    const props = Object.entries(s.properties ?? {});
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, v] of props) record[k] = valueFor(v, k, depth + 1);
    shaped = fc.record(record, { requiredKeys: [] });
  } else if (type === "array") shaped = fc.array(valueFor(s.items as Schema, name, depth + 1), { maxLength: 4 });
  else if (type === "integer" || type === "number") shaped = /_id$|^id$/.test(name) ? idFor(name) : anyInteger;
  else if (type === "boolean") shaped = fc.boolean();
  else if (type === "string") shaped = isDateName(name) ? dateValue : /channel/.test(name) ? fc.constantFrom(...channelRefs()) : anyString;
  else shaped = hostile;
  return fc.oneof({ weight: 5, arbitrary: shaped }, { weight: 1, arbitrary: hostile });
}

function channelRefs(): string[] {
  return A ? [A.channels[0].chat_id, A.channels[0].name, `#${A.channels[1].name}`, "C_NOPE"] : ["C_NOPE"];
}

type FuzzRequest = {
  operation: Operation;
  params: Record<string, string>;
  query: Array<[string, string]>;
  body: string | undefined;
  auth: "valid" | "member" | "none" | "junk";
  keyIndex: number;
  idempotencyKey: string | undefined;
};

function requestArb(ops: Operation[]): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...ops).chain((operation) => {
    const parameters = ((operation.op.parameters ?? []) as Array<{ in: string; name: string; schema?: Schema }>).filter(Boolean);
    const pathParams = parameters.filter((p) => p.in === "path");
    const queryParams = parameters.filter((p) => p.in === "query");
    const params: Record<string, fc.Arbitrary<string>> = {};
    for (const p of pathParams)
      params[p.name] = fc.oneof({ weight: 4, arbitrary: idFor(p.name).map(String) }, { weight: 1, arbitrary: anyString });
    const query = fc.array(
      fc.oneof(
        {
          weight: 6,
          arbitrary: queryParams.length
            ? fc.constantFrom(...queryParams).chain((p) => paramValue(p.name, p.schema ?? {}).map((v) => [p.name, v] as [string, string]))
            : fc.constant(["x", "1"] as [string, string]),
        },
        { weight: 1, arbitrary: fc.tuple(anyString, anyString) },
      ),
      { maxLength: 4 },
    );
    const bodySchema = (operation.op.requestBody as Json | undefined)?.content as Record<string, { schema?: Schema }> | undefined;
    const body = bodySchema
      ? fc.oneof(
          { weight: 6, arbitrary: valueFor(bodySchema["application/json"]?.schema, "body", 0).map((v) => JSON.stringify(v)) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
          { weight: 1, arbitrary: fc.constantFrom("{", "", "null", "[]", '{"a":', "\u0000", "{}".repeat(40)) },
        )
      : fc.constant(undefined);
    return fc.record({
      operation: fc.constant(operation),
      params: fc.record(params),
      query,
      body,
      auth: fc.constantFrom("valid", "valid", "valid", "valid", "member", "none", "junk"),
      keyIndex: fc.nat({ max: 9 }),
      idempotencyKey: fc.option(fc.oneof(fc.uuid(), anyString), { nil: undefined, freq: 3 }),
    }) as fc.Arbitrary<FuzzRequest>;
  });
}

// ------------------------------------------------------------------ checks

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

function validatorFor(operation: Operation, status: number) {
  const id = `${operation.method} ${operation.path} ${status}`;
  let validate = validators.get(id);
  if (!validate) {
    const responses = operation.op.responses as Record<string, Json>;
    const response = (responses[String(status)] ?? responses[`${String(status)[0]}XX`]) as Json | undefined;
    const schema = (response?.content as Record<string, { schema?: Schema }> | undefined)?.["application/json"]?.schema;
    if (!schema) throw new Error(`${id}: status ${status} is not documented`);
    validate = ajv.compile({ ...schema, components: doc.components });
    validators.set(id, validate);
  }
  return validate;
}

async function send(r: FuzzRequest): Promise<{ status: number; text: string; contentType: string }> {
  const { operation } = r;
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(r.params[name] ?? ""));
  const url = new URL(`http://localhost${path}`);
  for (const [k, v] of r.query) url.searchParams.append(k, v);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (r.auth === "valid") headers.authorization = keys[r.keyIndex];
  if (r.auth === "member") headers.authorization = keys[10];
  if (r.auth === "junk") headers.authorization = "Bearer api_nope";
  if (r.idempotencyKey !== undefined && /^[\x20-\x7e]*$/.test(r.idempotencyKey)) headers["idempotency-key"] = r.idempotencyKey;
  const method = operation.method;
  const request = new Request(url, { method, headers, body: method === "GET" || method === "DELETE" ? undefined : r.body });
  const mod = await routeModules[operation.file]();
  const response = await mod[method](request, { params: Promise.resolve(r.params) });
  return { status: response.status, text: await response.text(), contentType: response.headers.get("content-type") ?? "" };
}

describe("API fuzz (generated from the OpenAPI document)", () => {
  it(`${RUNS} requests: no 5xx, JSON bodies only, 2xx bodies match the document`, async () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(25);
    await fc.assert(
      fc.asyncProperty(requestArb(ops), async (r) => {
        const res = await send(r);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const where = `${r.operation.method} ${r.operation.path} → ${res.status}: ${res.text.slice(0, 300)}`;
        const problem = (kind: keyof typeof problems, message: string) => {
          problems[kind]++;
          if (!REPORT_ONLY) throw new Error(message);
        };
        if (res.status >= 500) return problem("5xx", `5xx: ${where}`);
        let body: unknown;
        try {
          if (!/^application\/json/.test(res.contentType)) throw new Error("content type");
          body = JSON.parse(res.text);
        } catch {
          return problem("non-JSON", `not JSON (${res.contentType}): ${where}`);
        }
        if (res.status >= 200 && res.status < 300) {
          const validate = validatorFor(r.operation, res.status);
          if (!validate(body))
            problem("2xx body violates the document", `2xx body violates the document (${ajv.errorsText(validate.errors)}): ${where}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 300_000);
});
