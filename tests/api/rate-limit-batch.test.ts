/**
 * The batched per-key counter (lib/api/rate-limit-batch.ts) over rate-limiter-flexible's real
 * PostgreSQL store (the test database's `rate_limits` table). Two `BatchedCounter`s over two
 * limiters stand for two app instances. Checked: every counted request reaches the store, a burst
 * costs a handful of upserts instead of one each, one process decides exactly, another instance's
 * counts are seen within a flush, and a subject idle for a second counts in the store at once.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { RateLimiterPostgres } from "rate-limiter-flexible";
import { afterAll, describe, expect, it } from "vitest";
import { BatchedCounter, FLUSH_MS, STALE_MS } from "@/lib/api/rate-limit-batch";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
afterAll(() => pool.end());

/** One "instance": a store limiter whose store calls are counted, and its batched counter. */
function instance(points: number) {
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    tableName: "rate_limits",
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: "batch-test",
    points,
    duration: 60,
  });
  const calls = { n: 0 };
  const consume = limiter.consume.bind(limiter);
  limiter.consume = (key, p) => {
    calls.n++;
    return consume(key, p);
  };
  return { counter: new BatchedCounter(limiter, 60_000), calls, limiter };
}

async function stored(subject: string): Promise<number> {
  const { rows } = await pool.query<{ points: number }>("SELECT points FROM rate_limits WHERE key = $1", [`batch-test:${subject}`]);
  return rows[0]?.points ?? 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("BatchedCounter", () => {
  it("200 requests over ~0.5 s (one every ~2 ms) cost one upsert per flush, count 1..200 without a gap, and all reach the store", async () => {
    const subject = randomUUID();
    const a = instance(1000);
    const counts: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 200; i++) {
      counts.push((await a.counter.consume(subject)).consumed);
      // a request every ~2 ms, as from a busy client: flushes start and finish between requests
      await sleep(2);
    }
    const elapsed = Date.now() - started;
    expect(counts).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    await a.counter.flushAll();
    expect(await stored(subject)).toBe(200);
    // the first request, then at most one flush per FLUSH_MS, then flushAll
    expect(a.calls.n).toBeGreaterThanOrEqual(3);
    expect(a.calls.n).toBeLessThanOrEqual(2 + Math.ceil(elapsed / FLUSH_MS));
  });

  it("one process decides exactly: request 31 of a 30 quota is the first over it", async () => {
    const subject = randomUUID();
    const a = instance(30);
    const over: number[] = [];
    for (let i = 1; i <= 35; i++) if ((await a.counter.consume(subject)).consumed > 30) over.push(i);
    expect(over).toEqual([31, 32, 33, 34, 35]);
  });

  it("another instance's counts are seen once flushed, and an idle subject counts in the store at once", async () => {
    const subject = randomUUID();
    const a = instance(100);
    const b = instance(100);
    for (let i = 0; i < 20; i++) await a.counter.consume(subject);
    await sleep(FLUSH_MS * 3);
    expect(await stored(subject)).toBe(20);
    // b's first request goes to the store: it sees a's 20.
    expect((await b.counter.consume(subject)).consumed).toBe(21);
    for (let i = 0; i < 9; i++) await b.counter.consume(subject);
    await b.counter.flushAll();
    expect(await stored(subject)).toBe(30);
    // a's last synchronised total is older than STALE_MS: its next request asks the store.
    await sleep(STALE_MS + 50);
    const before = a.calls.n;
    expect((await a.counter.consume(subject)).consumed).toBe(31);
    expect(a.calls.n).toBe(before + 1);
  });

  it("a failed flush keeps its counts and sends them with the next one", async () => {
    const subject = randomUUID();
    const a = instance(100);
    await a.counter.consume(subject); // synchronous: stored 1
    const consume = a.limiter.consume;
    let failures = 1;
    a.limiter.consume = (key, p) => (failures-- > 0 ? Promise.reject(new Error("store down")) : consume(key, p));
    for (let i = 0; i < 4; i++) await a.counter.consume(subject);
    await sleep(FLUSH_MS * 4);
    expect(await stored(subject)).toBe(5);
  });
});
