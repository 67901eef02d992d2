/** Checks of the next-auth route before next-auth (issue 40 items 9 and 10), on Request objects. */
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { checkAuthRequest, nextAuthAcceptsCallbackUrl } from "@/lib/auth/auth-route";
import { refuseServerAction, sameOrigin } from "@/lib/http/page-guards";

const url = (path: string) => `http://localhost:3000${path}`;
const get = (path: string, headers: Record<string, string> = {}) =>
  new NextRequest(url(path), { headers: { host: "localhost:3000", ...headers } });

/** A body stream of `size` bytes in 64 kB pieces, with no Content-Length (what a chunked upload gives). */
function stream(size: number): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const n = Math.min(65_536, left);
      left -= n;
      controller.enqueue(new Uint8Array(n).fill(97));
    },
  });
}

describe("nextAuthAcceptsCallbackUrl (next-auth's own rule)", () => {
  it.each([
    ["/overview", true],
    ["http://elsewhere.example/x", true],
    ["https://a.example", true],
    ["foo", false],
    ["\uFFFD", false],
    ["a b", false],
    ["//", false],
    ["javascript:alert(1)", false],
  ])("%j → %s", (value, ok) => expect(nextAuthAcceptsCallbackUrl(value)).toBe(ok));
});

describe("checkAuthRequest", () => {
  it("answers 400 for a callbackUrl next-auth refuses, and lets a good one through", async () => {
    for (const v of ["foo", "%FF", "a%20b", "//"]) {
      const res = (await checkAuthRequest(get(`/api/auth/session?callbackUrl=${v}`), ["session"])) as Response;
      expect(res.status, v).toBe(400);
      expect(await res.json()).toMatchObject({ error: "InvalidCallbackUrl" });
    }
    expect(await checkAuthRequest(get("/api/auth/session?callbackUrl=%2Fx"), ["session"])).not.toBeInstanceOf(Response);
  });

  it("answers 400 and clears a callback-url cookie next-auth refuses", async () => {
    const res = (await checkAuthRequest(get("/api/auth/csrf", { cookie: "next-auth.callback-url=foo" }), ["csrf"])) as Response;
    expect(res.status).toBe(400);
    expect(res.headers.get("set-cookie")).toContain("next-auth.callback-url=; Path=/; Max-Age=0");
  });

  it("answers 405 to a GET of the POST-only callbacks", async () => {
    for (const provider of ["credentials", "link"]) {
      const res = (await checkAuthRequest(get(`/api/auth/callback/${provider}`), ["callback", provider])) as Response;
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  it("answers 400 for an empty or listed Host", async () => {
    for (const host of ["", "a.example, b.example"]) {
      const res = (await checkAuthRequest(get("/api/auth/session", { host }), ["session"])) as Response;
      expect(res.status, host).toBe(400);
    }
  });

  it("answers 413 to a chunked body past the limit, reading no more than the limit and a piece", async () => {
    const body = stream(5_000_000);
    const req = new NextRequest(url("/api/auth/callback/credentials"), {
      method: "POST",
      headers: { host: "localhost:3000", "content-type": "application/x-www-form-urlencoded" },
      body,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const res = (await checkAuthRequest(req, ["callback", "credentials"])) as Response;
    expect(res.status).toBe(413);
  });

  it("answers 400 to a JSON body that is not an object of strings; hands on a form body", async () => {
    const post = (body: string, type: string) =>
      new NextRequest(url("/api/auth/callback/credentials"), {
        method: "POST",
        headers: { host: "localhost:3000", "content-type": type },
        body,
      });
    for (const body of ["{", "[]", '{"email":{"$ne":1}}', "null"]) {
      expect(((await checkAuthRequest(post(body, "application/json"), ["callback", "credentials"])) as Response).status, body).toBe(400);
    }
    const ok = await checkAuthRequest(post("email=a%40b.c&password=x&csrfToken=t", "application/x-www-form-urlencoded"), [
      "callback",
      "credentials",
    ]);
    if (ok instanceof Response) throw new Error(`refused: ${ok.status}`);
    expect(ok.body).toEqual({ email: "a@b.c", password: "x", csrfToken: "t" });
    expect(await ok.request.text()).toBe("email=a%40b.c&password=x&csrfToken=t");
  });
});

describe("page guards (proxy.ts)", () => {
  it("compares Origin with the first X-Forwarded-Host, else Host, as Next.js does", () => {
    const req = (h: Record<string, string>) => new Request(url("/overview"), { method: "POST", headers: h });
    expect(sameOrigin(req({ host: "localhost:3000", origin: "http://localhost:3000" }))).toBe(true);
    expect(sameOrigin(req({ host: "localhost:3000", origin: "null" }))).toBe(false);
    expect(sameOrigin(req({ host: "localhost:3000", origin: "foo" }))).toBe(false);
    expect(sameOrigin(req({ host: "localhost:3000", "x-forwarded-host": "evil.example", origin: "http://localhost:3000" }))).toBe(false);
    expect(sameOrigin(req({ host: "internal:3000", "x-forwarded-host": "a.example, b", origin: "https://a.example" }))).toBe(true);
  });

  it("refuses cross-origin or unreadable multipart posts, lets other posts through", async () => {
    const post = (h: Record<string, string>, body = "") =>
      new Request(url("/overview"), { method: "POST", headers: { host: "localhost:3000", ...h }, body });
    const same = { origin: "http://localhost:3000" };
    expect((await refuseServerAction(post({ ...same, "content-type": "multipart/form-data; boundary=x" }, "junk")))?.status).toBe(400);
    expect((await refuseServerAction(post({ "content-type": "multipart/form-data; boundary=x" })))?.status).toBe(403);
    expect((await refuseServerAction(post({ "next-action": "abc", origin: "https://evil.example" })))?.status).toBe(403);
    const form = new FormData();
    form.set("a", "b");
    expect(
      await refuseServerAction(new Request(url("/overview"), { method: "POST", headers: { host: "localhost:3000", ...same }, body: form })),
    ).toBeNull();
    expect(await refuseServerAction(post({ "content-type": "application/json" }, "{}"))).toBeNull();
  });
});

describe("next-auth's client log endpoint", () => {
  it("is answered 204 without reaching next-auth (its logger would write client text into the server log)", async () => {
    const req = new NextRequest(url("/api/auth/_log"), {
      method: "POST",
      headers: { host: "localhost:3000", "content-type": "application/x-www-form-urlencoded" },
      body: "level=error&code=FORGED&message=x",
    });
    expect(((await checkAuthRequest(req, ["_log"])) as Response).status).toBe(204);
  });
});
