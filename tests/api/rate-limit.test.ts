/**
 * Rate limits of issue 13 (lib/api/rate-limit.ts) against the real test database store: per API
 * key (429 after the limit, `Retry-After`, the IETF `RateLimit-Policy`/`RateLimit` headers on every
 * response, v1 and v2 error shapes), per client IP without a valid key, the answers that need no key
 * (404, 405, the preload's refusals, /v2/openapi.json; not the CORS preflight), the sign-in throttle
 * (atomic counting before the check, account+address pairs, the account's delay instead of a
 * lock), and that the counters live in PostgreSQL (`rate_limits`), so every instance sees them.
 * Limits are lowered through the environment of this test file's own process.
 */
process.env.RATE_LIMIT_API_PER_MINUTE = "15";
process.env.RATE_LIMIT_ANONYMOUS_PER_MINUTE = "5";
process.env.SIGN_IN_MAX_FAILURES = "3";
process.env.LINK_REQUESTS_PER_HOUR = "2";

import { beforeAll, describe, expect, it } from "vitest";
import * as v1Unknown from "@/app/v1/[[...path]]/route";
import * as v1Me from "@/app/v1/me/route";
import * as v2Unknown from "@/app/v2/[[...path]]/route";
import * as openApi from "@/app/v2/openapi.json/route";
import * as reports from "@/app/v2/reports/route";
import { CLIENT_IP_HEADER, closeRateLimitStore } from "@/lib/api/rate-limit";
import { REFUSED_HEADER } from "@/lib/api/route";
import {
  accountDelayMs,
  admitSignIn,
  linkRequestBlockedBy,
  linkRequestThrottledMessage,
  TooManyAttemptsError,
  throttledMessage,
  throttledRedemption,
} from "@/lib/auth/sign-in-throttle";
import { InvalidTokenError } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { resetPassword } from "@/lib/domain/passwords";
import { createTestTeam, createTestUser, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

type Handler = Parameters<typeof call>[0];

let A: TestTeam;

beforeAll(async () => {
  A = await createTestTeam({ members: 2 });
});

describe("per API key", () => {
  it("15 requests pass with decreasing RateLimit headers; the 16th is 429 with Retry-After (v2 body)", async () => {
    const user = await createTestUser(A.id);
    const remaining: number[] = [];
    for (let i = 0; i < 15; i++) {
      const r = await call(reports.GET as Handler, { path: "/v2/reports?limit=1", key: user.key });
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit-policy")).toBe('"api-key";q=15;w=60');
      const m = /^"api-key";r=(\d+);t=(\d+)$/.exec(r.headers.get("ratelimit") ?? "");
      expect(m).not.toBeNull();
      remaining.push(Number(m?.[1]));
    }
    expect(remaining).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const limited = await call(reports.GET as Handler, { path: "/v2/reports?limit=1", key: user.key });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(limited.body.error.message).toMatch(/at most 15 requests per 60 s per API key/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit")).toMatch(/^"api-key";r=0;t=\d+$/);
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");

    // the counter is in PostgreSQL, keyed by the API key's id (counted in batches: there within a flush)
    const apiKey = await db.apiKey.findFirstOrThrow({ where: { user_id: user.id }, select: { id: true } });
    await expect
      .poll(async () => (await db.rateLimit.findUnique({ where: { key: `api-key:${apiKey.id}` } }))?.points, { timeout: 2000 })
      .toBe(16);
  });

  it("v1 answers 429 with its own error body; another key is not affected", async () => {
    const user = await createTestUser(A.id);
    for (let i = 0; i < 15; i++) expect((await call(v1Me.GET as Handler, { path: "/v1/me", key: user.key })).status).toBe(200);
    const limited = await call(v1Me.GET as Handler, { path: "/v1/me", key: user.key });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: expect.stringContaining("Rate limit exceeded") });
    const other = await call(v1Me.GET as Handler, { path: "/v1/me", key: A.admin.key });
    expect(other.status).toBe(200);
  });
});

describe("per client IP without a valid key", () => {
  it("5 wrong keys from one address answer 401, then 429; another address still gets 401", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const headers = { [CLIENT_IP_HEADER]: ip };
    for (let i = 0; i < 5; i++) {
      const r = await call(reports.GET as Handler, { path: "/v2/reports", key: `api_wrong${i}`, headers });
      expect(r.status).toBe(401);
      expect(r.headers.get("ratelimit-policy")).toBe('"anonymous";q=5;w=60');
    }
    const limited = await call(reports.GET as Handler, { path: "/v2/reports", key: "api_wrong", headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const elsewhere = await call(reports.GET as Handler, { path: "/v2/reports", headers: { [CLIENT_IP_HEADER]: "203.0.113.77" } });
    expect(elsewhere.status).toBe(401);
  });
});

describe("answers that need no key (issue 40): 404, 405, the preload's refusals, /v2/openapi.json", () => {
  const remainingOf = (r: { headers: Headers }) => Number(/;r=(\d+);/.exec(r.headers.get("ratelimit") ?? "")?.[1]);

  it("count against the key's quota and carry the RateLimit headers, 429 past the limit; the preflight neither counts nor carries them", async () => {
    const user = await createTestUser(A.id);
    const key = user.key;
    const answers = [
      [reports.DELETE, { method: "DELETE", path: "/v2/reports", key }, 405],
      [v1Me.POST, { method: "POST", path: "/v1/me", key }, 404],
      [v2Unknown.GET, { path: "/v2/nothing/here", key }, 404],
      [v1Unknown.HEAD, { method: "HEAD", path: "/v1/nothing", key }, 404],
      [v2Unknown.GET, { path: "/v2/_refused", key, headers: { [REFUSED_HEADER]: "malformed-path" } }, 400],
      [v1Unknown.POST, { method: "POST", path: "/v1/_refused", key, headers: { [REFUSED_HEADER]: "malformed-path" } }, 400],
      [v2Unknown.GET, { path: "/v2/_refused", key, headers: { [REFUSED_HEADER]: "method=TRACE" } }, 405],
      [v1Unknown.GET, { path: "/v1/_refused", key, headers: { [REFUSED_HEADER]: "method=TRACE" } }, 404],
      [openApi.GET, { path: "/v2/openapi.json", key }, 200],
    ] as const;
    const remaining: number[] = [];
    for (const [handler, opts, status] of answers) {
      const r = await call(handler as Handler, opts);
      expect(r.status, opts.path).toBe(status);
      expect(r.headers.get("ratelimit-policy"), opts.path).toBe('"api-key";q=15;w=60');
      expect(r.headers.get("access-control-expose-headers"), opts.path).toContain("RateLimit");
      remaining.push(remainingOf(r));
      // The preflight: no key, no count, no RateLimit headers (README "Limits").
      const preflight = (reports.OPTIONS as () => Response)();
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("ratelimit")).toBeNull();
    }
    expect(remaining).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6]);
    const normal = await call(reports.GET as Handler, { path: "/v2/reports?limit=1", key });
    expect(remainingOf(normal)).toBe(5);
    for (let i = 0; i < 5; i++) await call(reports.DELETE as Handler, { method: "DELETE", path: "/v2/reports", key });
    const limited = await call(v2Unknown.GET as Handler, { path: "/v2/nothing", key });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const limitedV1 = await call(v1Unknown.GET as Handler, { path: "/v1/nothing", key });
    expect(limitedV1).toMatchObject({ status: 429, body: { error: expect.stringContaining("Rate limit exceeded") } });
  });

  it("without a valid key they count against the client address (the anonymous policy); the answer stays the same", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const headers = { [CLIENT_IP_HEADER]: ip };
    const first = await call(openApi.GET as Handler, { path: "/v2/openapi.json", headers });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit")).toMatch(/^"anonymous";r=4;t=\d+$/);
    const refused = await call(v2Unknown.GET as Handler, {
      path: "/v2/_refused",
      key: "api_wrong",
      headers: { ...headers, [REFUSED_HEADER]: "malformed-path" },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: "INVALID_PARAMETER", message: "Malformed percent-encoding in the path" } },
    });
    expect(refused.headers.get("ratelimit")).toMatch(/^"anonymous";r=3;t=\d+$/);
    // Without a known address nothing is counted (in-process calls): the answer has no headers.
    const unknown = await call(v2Unknown.GET as Handler, { path: "/v2/nothing" });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("ratelimit")).toBeNull();
  });
});

describe("sign-in throttle", () => {
  const randomIp = (prefix: string) => `${prefix}.${Math.floor(Math.random() * 200) + 1}`;

  it("counts before checking: of 60 concurrent wrong guesses on one account from one address, at most 3 are checked", async () => {
    const email = `guessed-${Date.now()}@example.com`;
    const ip = randomIp("192.0.2");
    const attempts = await Promise.all(Array.from({ length: 60 }, () => admitSignIn({ email, ip })));
    const admitted = attempts.filter((a) => a.blocked === null);
    // Each attempt takes its place in the pair's and the address's counts at once (in whatever
    // order the two upserts land): never more than the pair's 3 are admitted.
    expect(admitted.length).toBeGreaterThanOrEqual(1);
    expect(admitted.length).toBeLessThanOrEqual(3);
    await Promise.all(admitted.map((a) => a.settle("failure")));
    const refusals = attempts.flatMap((a) => (a.blocked ? [a.blocked] : []));
    expect(refusals).toHaveLength(60 - admitted.length);
    for (const r of refusals) expect(["sign-in-pair", "sign-in-ip"]).toContain(r.policy.name);
    // The store's answer names the window's end; past 2 × the limit the process answers alone for up to 60 s.
    expect(Math.max(...refusals.map((r) => r.resetSeconds))).toBeGreaterThan(800);
    // After them, the pair is used up.
    const next = (await admitSignIn({ email, ip })).blocked;
    expect(next?.policy.name).toBe("sign-in-pair");
    expect(throttledMessage(next as NonNullable<typeof next>)).toMatch(
      /^Too many failed sign-in attempts for this account from your network address\. Try again in \d+ minutes?\.$/,
    );
  });

  it("an attacker's failures never lock the owner out: another address is admitted, after a short delay", async () => {
    const owner = A.users[1];
    const attacker = randomIp("198.18.0");
    for (let i = 0; i < 3; i++) await (await admitSignIn({ email: owner.email, ip: attacker })).settle("failure");
    // The attacker's pair is used up, also under another spelling of the same address.
    expect((await admitSignIn({ email: ` ${owner.email.toUpperCase()}`, ip: attacker })).blocked?.policy.name).toBe("sign-in-pair");
    // The owner, elsewhere, is admitted: the 4th failure-free attempt on the account waits 1 s first.
    const mine = await admitSignIn({ email: owner.email, ip: "198.18.1.1" });
    expect(mine.blocked).toBeNull();
    expect(mine.delayMs).toBe(1000);
    await mine.settle("success");
    // The success refunded the owner's attempt: the next one waits as long, not longer.
    const again = await admitSignIn({ email: owner.email, ip: "198.18.1.1" });
    expect(again.delayMs).toBe(1000);
    await again.settle("success");
  });

  it("the delay grows 1, 2, 4, 8 s with further failures and stops at 8 s", () => {
    expect([0, 2, 3, 4, 5, 6, 7, 40].map((f) => accountDelayMs(f, 3))).toEqual([0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(accountDelayMs(100, 0)).toBe(0);
  });

  it("one address trying many accounts is refused after 5 × SIGN_IN_MAX_FAILURES (15) attempts", async () => {
    const ip = randomIp("192.0.2");
    for (let i = 0; i < 15; i++) {
      const a = await admitSignIn({ email: `spray-${i}-${Date.now()}@example.com`, ip });
      expect(a.blocked, `attempt ${i + 1}`).toBeNull();
      await a.settle("failure");
    }
    const refused = await admitSignIn({ email: `spray-last-${Date.now()}@example.com`, ip });
    expect(refused.blocked?.policy.name).toBe("sign-in-ip");
    expect(throttledMessage(refused.blocked as NonNullable<typeof refused.blocked>)).toMatch(/for your network address\./);
  });

  it("a success clears the pair and refunds the address; attempts that checked nothing are refunded", async () => {
    const email = `mixed-${Date.now()}@example.com`;
    const ip = randomIp("192.0.2");
    for (const outcome of ["failure", "failure", "success", "failure", "failure", "none", "none", "failure"] as const) {
      const a = await admitSignIn({ email, ip });
      expect(a.blocked, outcome).toBeNull();
      await a.settle(outcome);
    }
    expect((await admitSignIn({ email, ip })).blocked?.policy.name).toBe("sign-in-pair");
  });
});

describe("link flows", () => {
  it("e-mailed link requests: 2 per address per hour, 8 per client address; the message says when to retry", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const email = `reset-${Date.now()}@example.com`;
    expect(await linkRequestBlockedBy({ email, ip })).toBeNull();
    expect(await linkRequestBlockedBy({ email: email.toUpperCase(), ip })).toBeNull();
    const third = await linkRequestBlockedBy({ email, ip });
    expect(third?.policy.name).toBe("link-request-account");
    expect(linkRequestThrottledMessage(third as NonNullable<typeof third>)).toMatch(
      /^Too many link requests\. Try again in \d+ minutes?\.$/,
    );
    // Other addresses from the same client: 8 requests in all (3 counted above), then the client is refused.
    const others = [];
    for (let i = 0; i < 5; i++) others.push(await linkRequestBlockedBy({ email: `other-${i}-${email}`, ip }));
    expect(others.every((r) => r === null)).toBe(true);
    expect((await linkRequestBlockedBy({ email: `last-${email}`, ip }))?.policy.name).toBe("link-request-ip");
  });

  it("invalid reset or invitation tokens count as failures of the client address; at the limit even a try is refused", async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    const tryToken = (token: string) => throttledRedemption(ip, () => resetPassword({ token, password: "a-long-new-password-1" }));
    // The client address allows 5 × SIGN_IN_MAX_FAILURES (15) attempts.
    for (let i = 0; i < 15; i++) await expect(tryToken(`not-a-token-${i}`)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(tryToken("whatever")).rejects.toBeInstanceOf(TooManyAttemptsError);
    // Another address is not affected.
    await expect(
      throttledRedemption("203.0.113.250", () => resetPassword({ token: "x", password: "a-long-new-password-1" })),
    ).rejects.toBeInstanceOf(InvalidTokenError);
  });
});

describe("store", () => {
  it("keeps the counters in an UNLOGGED table (no WAL flush per counted request, issue 14)", async () => {
    const [row] = await db.$queryRaw<Array<{ persistence: string }>>`
      SELECT relpersistence::text AS persistence FROM pg_class WHERE oid = 'rate_limits'::regclass`;
    expect(row.persistence).toBe("u");
  });

  it("closes cleanly", async () => {
    await closeRateLimitStore();
    // a new request opens a fresh pool
    expect((await call(v1Me.GET as Handler, { path: "/v1/me", key: A.users[1].key })).status).toBe(200);
  });
});
