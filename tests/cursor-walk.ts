/**
 * Walking a v2 keyset-paginated list to its end, checking every page on the way: status 200, at
 * most `limit` items, and `has_more` true exactly when `next_cursor` is set.
 */
import { expect } from "vitest";
import type { CallResult } from "@/tests/http";

/**
 * Requests page after page (`fetchPage(null)` first, then `fetchPage(next_cursor)`) and returns
 * the ids of every item in the order seen.
 * @throws when the list has not ended after 100 pages.
 */
export async function walkPages(fetchPage: (cursor: string | null) => Promise<CallResult>, limit: number): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const res = await fetchPage(cursor);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...res.body.data.map((item: { id: number }) => item.id));
    expect(res.body.has_more).toBe(res.body.next_cursor !== null);
    if (!res.body.has_more) return seen;
    cursor = res.body.next_cursor;
  }
  throw new Error("walk did not end");
}
