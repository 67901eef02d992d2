/**
 * HTTP transport of the API over the real production server (scripts/e2e.ts), what the route-level
 * integration tests (tests/api) cannot see: Next's routing, redirects and headers on the wire.
 * compatibility.md "Transport", spec §1/§5/§7/§9, issue 2 and issue 4:
 * - every current and legacy path answers the same with and without a trailing slash, and never
 *   redirects (`maxRedirects: 0`); write endpoints too (invalid bodies / missing ids, nothing written);
 * - repeated slashes reach the same resource (a redirect to the collapsed path is acceptable);
 * - `Authorization: <key>` and `Authorization: Bearer <key>`, header name in any case;
 * - 401 bodies: v1 exactly `{"error":"Unauthorized"}`, v2 `{"error":{"code":"UNAUTHORIZED","message":…}}`;
 * - unknown paths under /v1 and /v2 answer a JSON 404, never Next's HTML page;
 * - `Content-Type: application/json` and `Access-Control-Allow-Origin: *` on API responses, and a
 *   working CORS preflight;
 * - a v2 write replayed with the same `Idempotency-Key` answers the same status and body with
 *   `Idempotent-Replayed: true`.
 * Ids come from the demo data through the API (helpers.ts `demoIds`).
 */
import { type APIRequestContext, type APIResponse, expect, test } from "@playwright/test";
import {
  API_PATHS,
  bearerAuth,
  comparable,
  demoDataBeforeEach,
  expectApiHeaders,
  expectNoRedirect,
  jsonOf,
  newIdempotencyKey,
  rawAuth,
  resolvePath,
  uniqueSuffix,
  versionOf,
} from "./helpers";

const demo = demoDataBeforeEach();

/** GET without following redirects. */
const get = (request: APIRequestContext, url: string, headers: Record<string, string> = {}) =>
  request.get(url, { headers, maxRedirects: 0 });

/** The exact 401 body of a version (compatibility.md Transport). */
async function expectUnauthorized(res: APIResponse, version: "v1" | "v2", what: string): Promise<void> {
  expect(res.status(), `${what}: status`).toBe(401);
  expectApiHeaders(res, what);
  const body = await jsonOf(res, what);
  if (version === "v1") {
    expect(body, `${what}: v1 401 body`).toEqual({ error: "Unauthorized" });
  } else {
    expect(body, `${what}: v2 401 body`).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    expect((body as { error: { message: string } }).error.message.length, `${what}: v2 401 message`).toBeGreaterThan(0);
  }
}

/** The JSON 404 of a version: v1 `{"error": "<message>"}`, v2 `{"error": {"code": "NOT_FOUND", …}}`. */
async function expectJsonNotFound(res: APIResponse, version: "v1" | "v2", what: string): Promise<void> {
  expect(res.status(), `${what}: status`).toBe(404);
  expectApiHeaders(res, what);
  const body = await jsonOf(res, what);
  if (version === "v1") expect(body, `${what}: v1 error body`).toEqual({ error: expect.any(String) });
  else expect(body, `${what}: v2 error body`).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
}

test.describe("trailing slash: same answer with and without, never a redirect", () => {
  for (const template of API_PATHS) {
    test(`GET ${template} and ${template}/`, async ({ request }) => {
      const path = resolvePath(template, demo.ids);
      const fetchBoth = async () => {
        const [bare, slashed] = [
          await get(request, path, rawAuth(demo.keys.admin.key)),
          await get(request, `${path}/`, rawAuth(demo.keys.admin.key)),
        ];
        for (const [res, url] of [
          [bare, path],
          [slashed, `${path}/`],
        ] as const) {
          expectNoRedirect(res, `GET ${url}`);
          expect(res.status(), `GET ${url}: ${(await res.text()).slice(0, 200)}`).toBe(200);
          expectApiHeaders(res, `GET ${url}`);
        }
        return [comparable(await jsonOf(bare)), comparable(await jsonOf(slashed))];
      };
      let [a, b] = await fetchBoth();
      // Other specs write concurrently (the ui specs create and edit the admin's standups and
      // reports; the scheduler runs too): a few retries tell a collection that moved between the
      // two requests from a real difference between the two paths.
      for (let attempt = 0; attempt < 3 && JSON.stringify(a) !== JSON.stringify(b); attempt++) [a, b] = await fetchBoth();
      expect(b, `GET ${path}/ answers the same body as GET ${path}`).toEqual(a);
    });
  }
});

test.describe("trailing slash on write endpoints: same answer, never a redirect", () => {
  // Invalid bodies and missing ids: the handler answers without writing anything.
  const writes: { method: "POST" | "PATCH" | "PUT" | "DELETE"; path: string; status: number }[] = [
    { method: "POST", path: "/v1/standups", status: 400 },
    { method: "POST", path: "/v1/reports", status: 400 },
    { method: "POST", path: "/v1/polls", status: 400 },
    { method: "PATCH", path: "/v1/standups/999999999", status: 404 },
    { method: "PUT", path: "/v1/standups/999999999", status: 400 }, // body validated first
    { method: "DELETE", path: "/v1/standups/999999999", status: 404 },
    { method: "POST", path: "/v1/standups/999999999/start", status: 404 },
    { method: "POST", path: "/v1/standups/999999999/duplicate", status: 404 },
    { method: "POST", path: "/v2/standups", status: 400 },
    { method: "POST", path: "/v2/reports", status: 400 },
    { method: "POST", path: "/v2/polls", status: 400 },
    { method: "PATCH", path: "/v2/reports/999999999", status: 404 },
    { method: "DELETE", path: "/v2/reports/999999999", status: 404 },
  ];
  for (const w of writes) {
    test(`${w.method} ${w.path} and ${w.path}/`, async ({ request }) => {
      const answers: unknown[] = [];
      for (const url of [w.path, `${w.path}/`]) {
        const res = await request.fetch(url, {
          method: w.method,
          headers: rawAuth(demo.keys.member.key),
          maxRedirects: 0,
          ...(w.method === "DELETE"
            ? {}
            : { data: w.method === "PATCH" && url.startsWith("/v2") ? { answers: [{ question_id: 1, text: "x" }] } : {} }),
        });
        expectNoRedirect(res, `${w.method} ${url}`);
        expect(res.status(), `${w.method} ${url}: ${(await res.text()).slice(0, 200)}`).toBe(w.status);
        expectApiHeaders(res, `${w.method} ${url}`);
        answers.push(await jsonOf(res, `${w.method} ${url}`));
      }
      expect(answers[1], `${w.method} ${w.path}/ answers the same body as ${w.method} ${w.path}`).toEqual(answers[0]);
    });
  }
});

test.describe("401 without a valid key, on both path forms", () => {
  for (const template of API_PATHS) {
    test(`GET ${template}[/] without a key or with an unknown key`, async ({ request }) => {
      const path = resolvePath(template, demo.ids);
      const version = versionOf(path);
      for (const url of [path, `${path}/`]) {
        const none = await get(request, url);
        expectNoRedirect(none, `GET ${url} (no key)`);
        await expectUnauthorized(none, version, `GET ${url} without Authorization`);
        await expectUnauthorized(
          await get(request, url, rawAuth("api_unknownKey0000000000000000000000000000000")),
          version,
          `GET ${url} with an unknown raw key`,
        );
        await expectUnauthorized(
          await get(request, url, bearerAuth("api_unknownKey0000000000000000000000000000000")),
          version,
          `GET ${url} with an unknown Bearer key`,
        );
      }
    });
  }
});

test.describe("repeated slashes reach the same resource", () => {
  const cases: { doubled: string; canonical: string }[] = [
    { doubled: "/v1/standups//{standup}", canonical: "/v1/standups/{standup}" },
    { doubled: "/v1/standups//{standup}/", canonical: "/v1/standups/{standup}" },
    { doubled: "/v2/standups//{standup}", canonical: "/v2/standups/{standup}" },
    { doubled: "/v2//reports/{report}", canonical: "/v2/reports/{report}" },
    { doubled: "/v1//me", canonical: "/v1/me" },
    { doubled: "//v1/polls/{v1poll}", canonical: "/v1/polls/{v1poll}" },
  ];
  for (const { doubled, canonical } of cases) {
    test(`GET ${doubled}`, async ({ request, baseURL }) => {
      const url = `${(baseURL ?? "").replace(/\/$/, "")}${resolvePath(doubled, demo.ids)}`; // absolute: "//v1/…" alone would be protocol-relative
      const expected = await get(request, resolvePath(canonical, demo.ids), rawAuth(demo.keys.admin.key));
      expect(expected.status()).toBe(200);

      // Without following: either the resource itself or a redirect to the collapsed path.
      const direct = await get(request, url, rawAuth(demo.keys.admin.key));
      if (direct.status() >= 300 && direct.status() < 400) {
        expect([301, 302, 307, 308], `GET ${doubled}: redirect status`).toContain(direct.status());
        const location = new URL(direct.headers().location ?? "", url);
        expect(location.pathname.replace(/\/$/, ""), `GET ${doubled}: Location`).toBe(resolvePath(canonical, demo.ids));
      } else {
        expect(direct.status(), `GET ${doubled}`).toBe(200);
      }

      // Following (what clients do), with the key still sent.
      const followed = await request.get(url, { headers: rawAuth(demo.keys.admin.key) });
      expect(followed.status(), `GET ${doubled} (following redirects): ${(await followed.text()).slice(0, 200)}`).toBe(200);
      expectApiHeaders(followed, `GET ${doubled}`);
      expect(comparable(await jsonOf(followed))).toEqual(comparable(await expected.json()));
    });
  }
});

test.describe("repeated slashes on writes reach the same handler", () => {
  // Invalid bodies: reaching the handler shows as its 400, and nothing is written.
  for (const [doubled, version] of [
    ["/v2//standups", "v2"],
    ["/v2/reports//", "v2"],
    ["//v1/reports/", "v1"],
    ["/v1//polls", "v1"],
  ] as const) {
    test(`POST ${doubled} (following the redirect) answers the handler's 400`, async ({ request, baseURL }) => {
      const url = `${(baseURL ?? "").replace(/\/$/, "")}${doubled}`;
      const res = await request.post(url, { headers: rawAuth(demo.keys.member.key), data: {} });
      expect(res.status(), `POST ${doubled}: ${(await res.text()).slice(0, 200)}`).toBe(400);
      expectApiHeaders(res, `POST ${doubled}`);
      const body = await jsonOf(res, `POST ${doubled}`);
      if (version === "v1") expect(body).toEqual({ error: expect.any(String) });
      else expect(body).toEqual({ error: { code: "INVALID_PARAMETER", message: expect.any(String) } });
    });
  }
});

test.describe("Authorization header forms", () => {
  const forms: { name: string; headers: (key: string) => Record<string, string> }[] = [
    { name: "Authorization: <key>", headers: (k) => ({ Authorization: k }) },
    { name: "Authorization: Bearer <key>", headers: (k) => ({ Authorization: `Bearer ${k}` }) },
    { name: "authorization: <key> (lower-case name)", headers: (k) => ({ authorization: k }) },
    { name: "AUTHORIZATION: Bearer <key> (upper-case name)", headers: (k) => ({ AUTHORIZATION: `Bearer ${k}` }) },
    { name: "Authorization: bearer <key> (lower-case scheme)", headers: (k) => ({ Authorization: `bearer ${k}` }) },
  ];
  for (const form of forms) {
    test(form.name, async ({ request }) => {
      for (const [who, key] of [
        ["admin", demo.keys.admin],
        ["member", demo.keys.member],
        ["other_team_member", demo.keys.other],
      ] as const) {
        const me = await get(request, "/v1/me", form.headers(key.key));
        expect(me.status(), `GET /v1/me as ${who}`).toBe(200);
        expectApiHeaders(me);
        const body = (await me.json()) as { user: { id: string; email: string }; team: { id: number } };
        expect(body.user.id, `GET /v1/me as ${who}: the key's user`).toBe(key.user_id);
        expect(body.team.id, `GET /v1/me as ${who}: the key's team`).toBe(key.team_id);
      }
      // The key also scopes the team (spec §5): another team's standup is not visible.
      const foreign = await get(request, `/v2/standups/${demo.ids.standupId}`, form.headers(demo.keys.other.key));
      expect(foreign.status(), `GET /v2/standups/${demo.ids.standupId} with the other team's key`).toBe(404);
      const v2 = await get(request, "/v2/standups/", form.headers(demo.keys.admin.key));
      expect(v2.status(), "GET /v2/standups/").toBe(200);
      expect(((await v2.json()) as { data: { id: number }[] }).data.map((s) => s.id)).toContain(demo.ids.standupId);
    });
  }

  test("malformed Authorization values are 401", async ({ request }) => {
    for (const value of ["Bearer", "Bearer ", "Basic dXNlcjpwYXNz", `Token ${demo.keys.admin.key}`, `${demo.keys.admin.key}x`]) {
      await expectUnauthorized(await get(request, "/v1/me/", { Authorization: value }), "v1", `GET /v1/me/ with Authorization: ${value}`);
      await expectUnauthorized(
        await get(request, "/v2/reports/", { Authorization: value }),
        "v2",
        `GET /v2/reports/ with Authorization: ${value}`,
      );
    }
  });
});

test.describe("unknown paths answer a JSON 404", () => {
  const unknown = [
    "/v1/nope",
    "/v1/nope/",
    "/v1/standups/{standup}/nope",
    "/v1/reports/nope/deeper/",
    "/v2/nope",
    "/v2/nope/",
    "/v2/standups/{standup}/nope",
    "/v2/reports/{report}/nope/deeper/",
  ];
  for (const template of unknown) {
    test(`GET/POST/DELETE ${template}`, async ({ request }) => {
      const path = resolvePath(template, demo.ids);
      const version = versionOf(path);
      for (const method of ["GET", "POST", "DELETE"] as const) {
        const res = await request.fetch(path, {
          method,
          headers: rawAuth(demo.keys.admin.key),
          maxRedirects: 0,
          ...(method === "POST" ? { data: {} } : {}),
        });
        await expectJsonNotFound(res, version, `${method} ${path} (with a key)`);
      }
      // Without a key: a JSON answer in the version's error shape (404, or 401 if auth runs first).
      const anon = await get(request, path);
      expect([401, 404], `GET ${path} without a key`).toContain(anon.status());
      if (anon.status() === 404) await expectJsonNotFound(anon, version, `GET ${path} without a key`);
      else await expectUnauthorized(anon, version, `GET ${path} without a key`);
    });
  }

  test("resources that do not exist answer a JSON 404", async ({ request }) => {
    for (const path of [
      "/v1/standups/999999999",
      "/v1/standups/999999999/",
      "/v1/polls/999999999/votes",
      "/v2/standups/999999999",
      "/v2/reports/999999999/",
      "/v2/polls/999999999/participation",
    ]) {
      await expectJsonNotFound(await get(request, path, rawAuth(demo.keys.admin.key)), versionOf(path), `GET ${path}`);
    }
  });

  test("the API roots /v1, /v1/, /v2, /v2/ answer a JSON 404, not an HTML page", async ({ request }) => {
    // One line per path, so that a failure lists every offending path at once.
    const seen: string[] = [];
    for (const path of ["/v1", "/v1/", "/v2", "/v2/"]) {
      const res = await get(request, path, rawAuth(demo.keys.admin.key));
      const text = await res.text();
      let shape = "not JSON";
      try {
        const body = JSON.parse(text);
        shape =
          versionOf(path) === "v1"
            ? typeof body.error === "string"
              ? "v1 error"
              : "other JSON"
            : body.error?.code === "NOT_FOUND"
              ? "v2 NOT_FOUND"
              : "other JSON";
      } catch {}
      seen.push(`GET ${path}: ${res.status()} ${res.headers()["content-type"]?.split(";")[0] ?? "(no type)"} ${shape}`);
    }
    expect(seen).toEqual([
      "GET /v1: 404 application/json v1 error",
      "GET /v1/: 404 application/json v1 error",
      "GET /v2: 404 application/json v2 NOT_FOUND",
      "GET /v2/: 404 application/json v2 NOT_FOUND",
    ]);
  });
});

test.describe("JSON and CORS headers", () => {
  test("on successes, 400s, 401s and 404s of both versions", async ({ request }) => {
    const checks: { path: string; headers: Record<string, string>; status: number }[] = [
      { path: "/v1/me", headers: rawAuth(demo.keys.member.key), status: 200 },
      { path: "/v2/reports/", headers: bearerAuth(demo.keys.member.key), status: 200 },
      { path: "/v2/reports?since=not-a-date", headers: rawAuth(demo.keys.member.key), status: 400 },
      { path: "/v2/standups?include=nope", headers: rawAuth(demo.keys.member.key), status: 400 },
      { path: "/v1/reports/", headers: {}, status: 401 },
      { path: "/v2/polls/", headers: {}, status: 401 },
      { path: "/v1/standups/999999999", headers: rawAuth(demo.keys.member.key), status: 404 },
      { path: "/v2/nope", headers: rawAuth(demo.keys.member.key), status: 404 },
    ];
    for (const c of checks) {
      const res = await get(request, c.path, c.headers);
      expect(res.status(), `GET ${c.path}`).toBe(c.status);
      expectApiHeaders(res, `GET ${c.path}`);
      await jsonOf(res, `GET ${c.path}`);
    }
    const v1Bad = await request.post("/v1/reports/", { headers: rawAuth(demo.keys.member.key), data: {}, maxRedirects: 0 });
    expect(v1Bad.status(), "POST /v1/reports/ with an empty body").toBe(400);
    expectApiHeaders(v1Bad, "POST /v1/reports/ with an empty body");
    expect(await jsonOf(v1Bad)).toEqual({ error: expect.any(String) });
    const v2Bad = await request.post("/v2/reports", { headers: rawAuth(demo.keys.member.key), data: {}, maxRedirects: 0 });
    expect(v2Bad.status(), "POST /v2/reports with an empty body").toBe(400);
    expectApiHeaders(v2Bad, "POST /v2/reports with an empty body");
    expect(await jsonOf(v2Bad)).toEqual({ error: { code: "INVALID_PARAMETER", message: expect.any(String) } });
  });

  test("a cross-origin request gets Access-Control-Allow-Origin: *", async ({ request }) => {
    const res = await get(request, "/v2/standups", { ...rawAuth(demo.keys.member.key), Origin: "https://dashboard.example.org" });
    expect(res.status()).toBe(200);
    expectApiHeaders(res);
  });

  // v2 answers 405 METHOD_NOT_ALLOWED with an Allow header; v1 answers 404 {"error"} because
  // compatibility.md limits v1 error statuses to 400, 401, 404 and 422.
  test("an unsupported method on a known API path answers JSON with CORS", async ({ request }) => {
    // One line per request, so that a failure lists every offending request at once.
    const seen: string[] = [];
    for (const [method, path] of [
      ["PUT", "/v2/standups"],
      ["DELETE", "/v1/me"],
      ["PATCH", "/v1/teams/"],
    ] as const) {
      const res = await request.fetch(path, { method, headers: rawAuth(demo.keys.admin.key), maxRedirects: 0 });
      const h = res.headers();
      const text = await res.text();
      const isJson = (() => {
        try {
          JSON.parse(text);
          return "JSON body";
        } catch {
          return `body ${JSON.stringify(text.slice(0, 40))}`;
        }
      })();
      seen.push(
        `${method} ${path}: ${res.status()} ${h["content-type"]?.split(";")[0] ?? "(no type)"} ACAO=${h["access-control-allow-origin"] ?? "(none)"} ${isJson}`,
      );
    }
    expect(seen).toEqual([
      "PUT /v2/standups: 405 application/json ACAO=* JSON body",
      "DELETE /v1/me: 404 application/json ACAO=* JSON body",
      "PATCH /v1/teams/: 404 application/json ACAO=* JSON body",
    ]);
  });
});

test.describe("CORS preflight", () => {
  const cases: { path: string; method: string }[] = [
    { path: "/v2/reports", method: "POST" },
    { path: "/v2/reports/", method: "POST" },
    { path: "/v2/reports/{report}", method: "PATCH" },
    { path: "/v2/reports/{report}/", method: "DELETE" },
    { path: "/v2/standups", method: "POST" },
    { path: "/v2/polls/{v2poll}/votes", method: "GET" },
    { path: "/v1/reports/", method: "POST" },
    { path: "/v1/standups/{standup}", method: "PUT" },
    { path: "/v1/me", method: "GET" },
  ];
  for (const c of cases) {
    test(`OPTIONS ${c.path} (${c.method})`, async ({ request }) => {
      const path = resolvePath(c.path, demo.ids);
      const res = await request.fetch(path, {
        method: "OPTIONS",
        maxRedirects: 0,
        headers: {
          Origin: "https://dashboard.example.org",
          "Access-Control-Request-Method": c.method,
          "Access-Control-Request-Headers": "authorization,content-type,idempotency-key",
        },
      });
      expectNoRedirect(res, `OPTIONS ${path}`);
      expect([200, 204], `OPTIONS ${path}: status`).toContain(res.status());
      const h = res.headers();
      expect(h["access-control-allow-origin"], `OPTIONS ${path}: Allow-Origin`).toBe("*");
      const methods = (h["access-control-allow-methods"] ?? "").toUpperCase();
      expect(
        methods === "*" || methods.split(/\s*,\s*/).includes(c.method),
        `OPTIONS ${path}: Allow-Methods "${methods}" has ${c.method}`,
      ).toBe(true);
      const allowed = (h["access-control-allow-headers"] ?? "").toLowerCase().split(/\s*,\s*/);
      for (const header of ["authorization", "content-type", "idempotency-key"]) {
        expect(allowed.includes("*") || allowed.includes(header), `OPTIONS ${path}: Allow-Headers has ${header}`).toBe(true);
      }
    });
  }
});

test.describe("Idempotency-Key over HTTP", () => {
  test("POST /v2/standups replayed with the same key: same status and body, Idempotent-Replayed: true", async ({ request }) => {
    const key = newIdempotencyKey();
    const name = `E2E idempotent ${uniqueSuffix()}`;
    const body = {
      name,
      questions: [{ text: "What did you ship?" }, { text: "Mood?", choices: ["good", "meh"] }],
      days: ["Mon", "Wed"],
      time: "09:15",
      broadcast_channel: demo.ids.channel.id,
      users: [demo.keys.member.user_id],
    };
    const headers = { ...rawAuth(demo.keys.member.key), "Idempotency-Key": key, Origin: "https://dashboard.example.org" };

    const first = await request.post("/v2/standups", { headers, data: body, maxRedirects: 0 });
    expect(first.status(), `first POST /v2/standups: ${(await first.text()).slice(0, 200)}`).toBe(201);
    expectApiHeaders(first);
    expect(first.headers()["idempotent-replayed"], "the first response is not a replay").not.toBe("true");
    const created = (await first.json()) as { data: { id: number; name: string } };
    expect(created.data.name).toBe(name);

    const replay = await request.post("/v2/standups", { headers, data: body, maxRedirects: 0 });
    expect(replay.status(), "replayed POST /v2/standups: same status").toBe(201);
    expect(replay.headers()["idempotent-replayed"], "replayed POST: Idempotent-Replayed").toBe("true");
    expectApiHeaders(replay);
    expect(await replay.json(), "replayed POST: same body").toEqual(created);
    const exposed = (replay.headers()["access-control-expose-headers"] ?? "").toLowerCase();
    expect(exposed, "browser clients may read Idempotent-Replayed (Access-Control-Expose-Headers)").toContain("idempotent-replayed");

    // The same route with a trailing slash is the same request.
    const slashed = await request.post("/v2/standups/", { headers, data: body, maxRedirects: 0 });
    expect(slashed.status(), "replay through /v2/standups/").toBe(201);
    expect(slashed.headers()["idempotent-replayed"]).toBe("true");
    expect(await slashed.json()).toEqual(created);

    // Same key, other body: 422.
    const mismatch = await request.post("/v2/standups", { headers, data: { ...body, name: `${name} (changed)` }, maxRedirects: 0 });
    expect(mismatch.status(), "same key, different body").toBe(422);
    expectApiHeaders(mismatch);
    expect(await mismatch.json()).toEqual({ error: { code: "MISMATCHED_IDEMPOTENCY_BODY", message: expect.any(String) } });

    // Exactly one standup was created.
    const list = (await (await get(request, "/v2/standups?limit=100", rawAuth(demo.keys.member.key))).json()) as {
      data: { id: number; name: string }[];
    };
    expect(list.data.filter((s) => s.name === name).map((s) => s.id)).toEqual([created.data.id]);
  });
});
