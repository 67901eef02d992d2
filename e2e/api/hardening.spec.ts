/**
 * Hardening of issue 13 over real HTTP against the production server (scripts/e2e.ts): malformed
 * percent-encoding → 400, TRACE → JSON 405 / v1 404, security headers with a nonce CSP on pages
 * (CORS `*` without credentials kept on the API), 413 for a 1 MB + 1 byte body, RateLimit headers
 * (also on the answers given without a key, issue 40; not on the preflight),
 * cross-origin server actions → 403, dashboard not-found pages → 404, server timeouts, and the
 * sign-in throttle (10 failures per account and address → 429, concurrent guesses counted
 * atomically, no lock-out of the owner), which runs from source addresses 127.0.0.2–5 so the
 * other specs' address (127.0.0.1) is not throttled.
 */
import http from "node:http";
import { expect, test } from "@playwright/test";
import { demoKeys, jsonOf, rawAuth } from "./helpers";

const BASE = new URL(process.env.BASE_URL ?? "http://localhost:3000");

/** A raw HTTP request (Playwright's and fetch's clients refuse TRACE). */
function rawRequest(opts: {
  method: string;
  path: string;
  host?: string;
  headers?: Record<string, string>;
  localAddress?: string;
  body?: string;
}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: opts.host ?? BASE.hostname,
        port: BASE.port,
        method: opts.method,
        path: opts.path,
        headers: opts.headers,
        localAddress: opts.localAddress,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

test.describe("no 500 on odd requests", () => {
  test("malformed percent-encoding in the path is 400 JSON (v2 and v1, with or without a key)", async ({ request }) => {
    const { admin } = demoKeys();
    for (const [path, headers] of [
      ["/v2/standups/%FF", {}],
      ["/v2/standups/%FF", rawAuth(admin.key)],
      ["/v2/reports/%E0%A4", rawAuth(admin.key)],
    ] as const) {
      const res = await request.get(path, { headers });
      expect(res.status(), path).toBe(400);
      expect(await jsonOf(res)).toEqual({ error: { code: "INVALID_PARAMETER", message: expect.stringContaining("percent-encoding") } });
    }
    const v1 = await request.get("/v1/standups/%FF", { headers: rawAuth(admin.key) });
    expect(v1.status()).toBe(400);
    expect(await jsonOf(v1)).toEqual({ error: expect.any(String) });
  });

  test("TRACE is a JSON 405 with Allow (v2, pages) and the v1 404, without a stack trace", async () => {
    for (const path of ["/v2/standups", "/v2/reports/1", "/v2/openapi.json", "/overview"]) {
      const r = await rawRequest({ method: "TRACE", path });
      expect(r.status, path).toBe(405);
      expect(r.headers.allow).toContain("GET");
      expect(JSON.parse(r.body).error.code).toBe("METHOD_NOT_ALLOWED");
    }
    const v1 = await rawRequest({ method: "TRACE", path: "/v1/me" });
    expect(v1.status).toBe(404);
    expect(JSON.parse(v1.body)).toEqual({ error: "Not found" });
  });

  test("a body of 1 MB + 1 byte is 413 with the version's error body", async ({ request }) => {
    const { member } = demoKeys();
    const body = `{"standup_id":1,"answers":[]}${" ".repeat(1_048_576 + 1 - 29)}`;
    const v2 = await request.post("/v2/reports", { headers: { ...rawAuth(member.key), "Content-Type": "application/json" }, data: body });
    expect(v2.status()).toBe(413);
    expect(await jsonOf(v2)).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: expect.any(String) } });
    const v1 = await request.post("/v1/reports/", { headers: { ...rawAuth(member.key), "Content-Type": "application/json" }, data: body });
    expect(v1.status()).toBe(413);
    expect(await jsonOf(v1)).toEqual({ error: expect.any(String) });
  });

  test("a client that never finishes its headers is cut off after ~10 s", async () => {
    test.setTimeout(30_000);
    const net = await import("node:net");
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(BASE.port), BASE.hostname, () => socket.write("GET /v1/me HTTP/1.1\r\nHost: x\r\n"));
      socket.on("data", () => {});
      socket.on("close", () => resolve());
      socket.setTimeout(25_000, () => socket.destroy());
    });
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeGreaterThan(8);
    expect(seconds).toBeLessThan(15);
  });
});

test.describe("headers", () => {
  test("dashboard pages carry a nonce CSP, frame-ancestors 'none', nosniff and Referrer-Policy; scripts carry the nonce", async ({
    request,
  }) => {
    for (const path of ["/sign-in", "/overview", "/settings/api-keys"]) {
      const res = await request.get(path, { maxRedirects: 0 });
      const h = res.headers();
      const csp = h["content-security-policy"] ?? "";
      expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(h["x-frame-options"], path).toBe("DENY");
      expect(h["x-content-type-options"], path).toBe("nosniff");
      expect(h["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(h["strict-transport-security"], `${path} over plain HTTP`).toBeUndefined();
    }
    const page = await request.get("/sign-in");
    const nonce = /'nonce-([^']+)'/.exec(page.headers()["content-security-policy"] ?? "")?.[1];
    const html = await page.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  test("HSTS when served over HTTPS (as told by the reverse proxy)", async ({ request }) => {
    const res = await request.get("/sign-in", { headers: { "X-Forwarded-Proto": "https" } });
    expect(res.headers()["strict-transport-security"]).toMatch(/max-age=\d+/);
    expect(res.headers()["content-security-policy"]).toContain("upgrade-insecure-requests");
  });

  test("the API keeps CORS * without credentials and reports its rate limit", async ({ request }) => {
    const { admin } = demoKeys();
    const res = await request.get("/v2/reports?limit=1", { headers: { ...rawAuth(admin.key), Origin: "https://elsewhere.example" } });
    expect(res.status()).toBe(200);
    const h = res.headers();
    expect(h["access-control-allow-origin"]).toBe("*");
    expect(h["access-control-allow-credentials"]).toBeUndefined();
    expect(h["ratelimit-policy"]).toBe('"api-key";q=600;w=60');
    expect(h.ratelimit).toMatch(/^"api-key";r=\d+;t=\d+$/);
    expect(h["access-control-expose-headers"]).toContain("RateLimit");
  });

  test("answers given without a key carry the RateLimit headers too; the CORS preflight does not (issue 40)", async () => {
    const { admin } = demoKeys();
    const keyed = rawAuth(admin.key);
    for (const [method, path, status] of [
      ["GET", "/v2/standups/%FF", 400],
      ["GET", "/v1/standups/%FF", 400],
      ["TRACE", "/v2/standups", 405],
      ["TRACE", "/v1/me", 404],
      ["DELETE", "/v2/standups", 405],
      ["GET", "/v2/no/such/path", 404],
      ["GET", "/v2/openapi.json", 200],
    ] as const) {
      const withKey = await rawRequest({ method, path, headers: keyed });
      expect(withKey.status, `${method} ${path}`).toBe(status);
      expect(withKey.headers["ratelimit-policy"], `${method} ${path}`).toBe('"api-key";q=600;w=60');
      expect(withKey.headers.ratelimit, `${method} ${path}`).toMatch(/^"api-key";r=\d+;t=\d+$/);
      const anonymous = await rawRequest({ method, path });
      expect(anonymous.status, `${method} ${path} without a key`).toBe(status);
      expect(anonymous.headers.ratelimit, `${method} ${path} without a key`).toMatch(/^"anonymous";r=\d+;t=\d+$/);
    }
    const trace = await rawRequest({ method: "TRACE", path: "/v2/standups" });
    expect(trace.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(JSON.parse(trace.body)).toEqual({
      error: {
        code: "METHOD_NOT_ALLOWED",
        message: "Method TRACE is not supported (allowed: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)",
      },
    });
    const preflight = await rawRequest({
      method: "OPTIONS",
      path: "/v2/reports",
      headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.ratelimit).toBeUndefined();
  });
});

test.describe("dashboard", () => {
  test("a cross-origin server action request is 403", async ({ request }) => {
    const res = await request.post("/overview", {
      headers: {
        "Next-Action": "7f0000000000000000000000000000000000000000",
        Origin: "https://evil.example",
        "Content-Type": "text/plain",
      },
      data: "[]",
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
  });

  /** One credentials sign-in attempt through next-auth's real endpoint, from source address `from`. */
  const attempt = async (from: string, email: string, password: string) => {
    const csrf = await rawRequest({ method: "GET", path: "/api/auth/csrf", localAddress: from });
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
    const form = new URLSearchParams({ csrfToken, email, password, json: "true", callbackUrl: "/overview" }).toString();
    return rawRequest({
      method: "POST",
      path: "/api/auth/callback/credentials",
      localAddress: from,
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(Buffer.byteLength(form)) },
      body: form,
    });
  };

  test("sign-in: 10 failures per account and address, then 429 with a clear message", async () => {
    // From source address 127.0.0.2 (its own client address): the throttle must not reach the
    // other specs, which connect from 127.0.0.1.
    const from = "127.0.0.2";
    const email = `nobody-${Date.now()}@example.com`;
    for (let i = 0; i < 10; i++) expect((await attempt(from, email, `wrong-${i}`)).status, `attempt ${i + 1}`).toBe(401);
    const blocked = await attempt(from, email, "wrong-11");
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(60);
    const body = JSON.parse(blocked.body) as { error: string; message: string; url: string };
    expect(body.error).toBe("TooManyAttempts");
    expect(body.message).toMatch(/Too many failed sign-in attempts .* Try again in \d+ minutes?/);
    // Another account from the same address is still checked (the address allows 5 × 10 attempts).
    expect((await attempt(from, `someone-else-${Date.now()}@example.com`, "whatever")).status).toBe(401);
  });

  test("sign-in: of 60 concurrent wrong guesses on one account from one address, at most 10 are checked", async () => {
    const from = "127.0.0.3";
    const email = `guessed-${Date.now()}@example.com`;
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => attempt(from, email, `wrong-${i}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });

  test("sign-in: an attacker's 10 failures do not lock the owner out; the owner signs in from another address", async () => {
    test.setTimeout(60_000);
    const owner = demoKeys().other.email;
    for (let i = 0; i < 10; i++) expect((await attempt("127.0.0.4", owner, `wrong-${i}`)).status).toBe(401);
    expect((await attempt("127.0.0.4", owner, "wrong-11")).status).toBe(429);
    const started = Date.now();
    const mine = await attempt("127.0.0.5", owner, "demo-password");
    expect(mine.status).toBe(200);
    expect((mine.headers["set-cookie"] ?? []).join(";")).toContain("session-token=");
    // The account's progressive delay: 1 s after 10 failures (at most 8 s).
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });
});
