/**
 * Counting SQL statements in an integration test file: installs a client configured as the
 * server's (lib/db.ts `newPrismaClient`: named statements, `queryRows` straight on its pool) that
 * counts every statement it sends, as the process's shared client (the one lib/db.ts hands out),
 * so every domain call of the test file is counted. Each test file runs in its own worker, so this affects only the file that
 * calls it.
 */
import { expect } from "vitest";
import type { CapturedQuery } from "@/lib/bench/explain";
import { newPrismaClient } from "@/lib/db";
import type { CallResult } from "@/tests/http";

/**
 * The running count of SQL statements; `reset()` sets it back to 0; `during(fn)` tells how many
 * statements `fn` issued; `capture(fn)` returns those statements, as lib/bench/explain.ts takes them.
 */
export type QueryCounter = {
  readonly count: number;
  reset(): void;
  during(fn: () => Promise<unknown>): Promise<number>;
  capture(fn: () => Promise<unknown>): Promise<CapturedQuery[]>;
};

/**
 * Makes the shared client a counting one. Call it at the top level of the test file, or in
 * `beforeAll` right after `useIsolatedDatabase` (it must run before anything uses `db`; lib/db.ts
 * builds its client lazily on first use).
 */
export function installQueryCounter(): QueryCounter {
  let count = 0;
  let captured: CapturedQuery[] | null = null;
  const client = newPrismaClient(process.env.DATABASE_URL as string, {
    onStatement: (statement) => {
      count++;
      captured?.push({ query: statement.text, values: [...statement.values] });
    },
  });
  (globalThis as unknown as { __checkinPrisma?: unknown }).__checkinPrisma = client;
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
    async during(fn) {
      const before = count;
      await fn();
      return count - before;
    },
    async capture(fn) {
      const sent: CapturedQuery[] = [];
      captured = sent;
      try {
        await fn();
      } finally {
        captured = null;
      }
      return sent;
    },
  };
}

/**
 * Query counts of a list endpoint: `measure(qs)` requests `list(qs)`, expects 200 and returns the
 * SQL statements issued (`n`) and the items listed; `warmUp()` makes one request first and waits
 * 200 ms, so connection setup and the API key's fire-and-forget `last_used_at` write are not
 * counted in later measures; `expectFlatQueryCount(smallQs, bigQs)` compares two page sizes.
 */
export function listQueryMeter(counter: QueryCounter, list: (qs: string) => Promise<CallResult>) {
  const measure = async (qs: string): Promise<{ n: number; items: number }> => {
    let res: CallResult | undefined;
    const n = await counter.during(async () => {
      res = await list(qs);
    });
    expect(res?.status).toBe(200);
    return { n, items: res?.body.data.length };
  };
  const warmUp = async () => {
    await measure("limit=1");
    await new Promise((resolve) => setTimeout(resolve, 200));
  };
  /**
   * No N+1: expects the page `bigQs` to list more than 5× the items of the page `smallQs` with the
   * same number (> 0) of SQL statements; returns the small page's measure.
   */
  const expectFlatQueryCount = async (smallQs: string, bigQs: string) => {
    const small = await measure(smallQs);
    const big = await measure(bigQs);
    expect(big.items).toBeGreaterThan(small.items * 5);
    expect(small.n).toBeGreaterThan(0);
    expect(big.n).toBe(small.n);
    return small;
  };
  return { measure, warmUp, expectFlatQueryCount };
}
