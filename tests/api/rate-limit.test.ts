/**
 * Rate limits of issue 13 (lib/api/rate-limit.ts) against the real test database store: per API
 * key (429 after the limit, `Retry-After`, the IETF `RateLimit-Policy`/`RateLimit` headers on every
 * response, v1 and v2 error shapes), per client IP without a valid key, the sign-in throttle
 * (atomic counting before the check, account+address pairs, the account's delay instead of a
 * lock), and that the counters live in PostgreSQL (`rate_limits`), so every instance sees them. Limits are lowered through the environment of this test file's own process.
 */
process.env.RATE_LIMIT_API_PER_MINUTE = "15";
process.env.RATE_LIMIT_ANONYMOUS_PER_MINUTE = "5";
process.env.SIGN_IN_MAX_FAILURES = "3";
process.env.LINK_REQUESTS_PER_HOUR = "2";

import { beforeAll, describe, expect, it } from "vitest";
import * as v1Me from "@/app/v1/me/route";
import * as reports from "@/app/v2/reports/route";
import { CLIENT_IP_HEADER, closeRateLimitStore } from "@/lib/api/rate-limit";
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
