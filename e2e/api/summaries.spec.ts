/**
 * Occurrence summaries over real HTTP against `npm start` on a fresh database (issue 15): the
 * worker's categorize_sweep summarizes the demo standup's past occurrences by itself within about
 * two minutes of start, and GET /v2/standups/{id}/summaries lists them newest first with the
 * v2 list envelope and a cursor that walks to the next page.
 */
import { expect, test } from "@playwright/test";
import { bearerAuth, demoIds, demoKeys, expectApiHeaders } from "./helpers";

type SummaryList = {
  data: Array<{ date: string; engine: string; text: string; sections: { participation: { responded: number } } }>;
  next_cursor: string | null;
  has_more: boolean;
};

test("the demo standup's past occurrences are summarized by themselves and listed newest first", async ({ request }) => {
  test.setTimeout(240_000);
  const keys = demoKeys();
  const ids = await demoIds(request, keys);
  const url = `/v2/standups/${ids.standupId}/summaries?limit=2`;
  let body: SummaryList = { data: [], next_cursor: null, has_more: false };
  await expect
    .poll(
      async () => {
        const res = await request.get(url, { headers: bearerAuth(keys.admin.key) });
        expect(res.status()).toBe(200);
        expectApiHeaders(res);
        body = (await res.json()) as SummaryList;
        return body.data.length;
      },
      { timeout: 200_000, intervals: [2_000, 5_000] },
    )
    .toBe(2);
  expect(body.has_more).toBe(true);
  expect(body.data[0].date > body.data[1].date).toBe(true);
  expect(body.data[0].engine).toBe("offline");
  expect(body.data[0].sections.participation.responded).toBeGreaterThan(0);
  const next = await request.get(`${url}&cursor=${encodeURIComponent(body.next_cursor ?? "")}`, { headers: bearerAuth(keys.admin.key) });
  expect(next.status()).toBe(200);
  const page2 = (await next.json()) as SummaryList;
  expect(page2.data[0].date < body.data[1].date).toBe(true);
});
