/**
 * The dashboard's auth routes over real HTTP (issue 40 items 9 and 10), against the production
 * server of scripts/e2e.ts: requests that next-auth answered with 500 (a `callbackUrl` parameter
 * or cookie it refuses, GET of the POST-only callbacks, an empty Host) answer 400/405; a body above
 * the 1 MB limit to the credentials callback (declared or chunked) and to a dashboard page answers
 * 413 at once, long before a large upload could finish; a chunked body to a page answers 411. Requests come from 127.0.0.4 so that the
 * sign-in throttle they may feed never reaches the other specs (127.0.0.1).
 */
import { expect, test } from "@playwright/test";
import { rawHttp } from "./raw-http";

const FROM = "127.0.0.4";
const get = (path: string, headers: Record<string, string> = {}) => rawHttp({ method: "GET", path, headers, localAddress: FROM });

test.describe("auth routes answer client mistakes with 4xx, not 500", () => {
  test("a callbackUrl next-auth refuses (foo, %FF, a%20b, //) is 400 JSON on session, csrf, providers, signin", async () => {
    for (const action of ["session", "csrf", "providers", "signin", "signout", "callback/credentials"]) {
      for (const value of ["foo", "%FF", "a%20b", "//", "javascript:alert(1)"]) {
        const path = `/api/auth/${action}?callbackUrl=${value}`;
        const res = await get(path);
        expect(res.status, path).toBe(action === "callback/credentials" ? 405 : 400);
        if (res.status === 400) expect(JSON.parse(res.body), path).toMatchObject({ error: "InvalidCallbackUrl" });
      }
    }
    // what next-auth accepts still works
    for (const value of ["/standups", "http://elsewhere.example/x", ""]) {
      const res = await get(`/api/auth/csrf?callbackUrl=${encodeURIComponent(value)}`);
      expect(res.status, value).toBe(200);
      expect(JSON.parse(res.body).csrfToken).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test("a callback-url cookie next-auth refuses is 400 and cleared", async () => {
    for (const name of ["next-auth.callback-url", "__Secure-next-auth.callback-url"]) {
      const res = await get("/api/auth/session", { Cookie: `${name}=foo%20bar` });
      expect(res.status, name).toBe(400);
      expect(String(res.headers["set-cookie"]), name).toContain(`${name}=;`);
      expect(String(res.headers["set-cookie"]), name).toContain("Max-Age=0");
    }
    expect((await get("/api/auth/session", { Cookie: "next-auth.callback-url=%2Foverview" })).status).toBe(200);
  });

  test("GET of the credentials and one-time-link callbacks is 405 with Allow: POST", async () => {
    for (const path of ["/api/auth/callback/credentials", "/api/auth/callback/link", "/api/auth/callback/link?token=x"]) {
      const res = await get(path);
      expect(res.status, path).toBe(405);
      expect(res.headers.allow, path).toBe("POST");
    }
  });

  test("an empty or malformed Host is 400 on pages and auth routes; a forged one is no 500", async () => {
    for (const path of ["/overview", "/sign-in", "/standups", "/api/auth/session", "/api/auth/csrf"]) {
      for (const host of ["", "a b", "x.example, y.example"]) {
        const res = await get(path, { Host: host });
        expect(res.status, `${path} Host=${JSON.stringify(host)}`).toBe(400);
      }
      const forwarded = await get(path, { "X-Forwarded-Host": "" });
      expect(forwarded.status, `${path} X-Forwarded-Host=""`).toBe(400);
      const forged = await get(path, { Host: "evil.example" });
      expect(forged.status, `${path} Host=evil.example`).toBeLessThan(500);
    }
  });

  test("malformed JSON to the credentials callback is 400", async () => {
    for (const body of ["{", "[1,2]", '{"email":{"$ne":null},"password":1}', "null"]) {
      const res = await rawHttp({
        method: "POST",
        path: "/api/auth/callback/credentials",
        headers: { "Content-Type": "application/json" },
        body,
        localAddress: FROM,
      });
      expect(res.status, body).toBe(400);
    }
  });
});

test.describe("body limit on every POST", () => {
  /** A form body of `size` bytes to the credentials callback, declared or chunked. */
  const postToCallback = (size: number, chunked: boolean) =>
    rawHttp({
      method: "POST",
      path: "/api/auth/callback/credentials",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: { size, chunked },
      localAddress: FROM,
    });

  for (const chunked of [false, true]) {
    test(`5 MB ${chunked ? "chunked " : ""}to the credentials callback is 413 within seconds`, async () => {
      const res = await postToCallback(5_000_000, chunked);
      expect(res.status).toBe(413);
      expect(res.ms).toBeLessThan(5_000);
      expect(res.body).toMatch(/PAYLOAD_TOO_LARGE|PayloadTooLarge/);
    });
  }

  test("100 MB to the credentials callback is refused before the upload ends (declared and chunked)", async () => {
    for (const chunked of [false, true]) {
      const res = await postToCallback(100_000_000, chunked);
      expect(res.status, `chunked ${chunked}`).toBe(413);
      expect(res.sent, `chunked ${chunked}: bytes sent before the answer`).toBeLessThan(50_000_000);
    }
  });

  /** POSTs `size` bytes (declared, or chunked) to `path` as a server action call of a page's form would. */
  const postToServerAction = (path: string, size: number, chunked: boolean) =>
    rawHttp({
      method: "POST",
      path,
      headers: { "Content-Type": "text/plain;charset=UTF-8", "Next-Action": "7f".padEnd(42, "0"), Origin: process.env.BASE_URL ?? "" },
      body: { size, chunked },
      localAddress: FROM,
    });

  test("a declared body above 1 MB to a dashboard page or server action is 413 before Next reads it", async () => {
    for (const path of ["/overview", "/sign-in", "/setup", "/integrations/slack/events"]) {
      const res = await postToServerAction(path, 2_000_000, false);
      expect(res.status, path).toBe(413);
      expect(res.ms, path).toBeLessThan(5_000);
    }
  });

  test("a chunked body (no Content-Length) to a page or server action is 411 before Next reads it", async () => {
    for (const path of ["/overview", "/sign-in"]) {
      const res = await postToServerAction(path, 100_000_000, true);
      expect(res.status, path).toBe(411);
      expect(res.sent, `${path}: bytes sent before the answer`).toBeLessThan(50_000_000);
    }
  });
});
