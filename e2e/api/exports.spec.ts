/**
 * CSV exports over HTTP (issue 16), against the production server on the demo data: the CSV of a
 * filter holds exactly what the API returns for the same filter (reports: GET /v2/reports walked
 * with cursors; participation: GET /v2/standups/{id}/participation), authentication, errors, and
 * the spreadsheet details (BOM, CRLF, formula escaping).
 */
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { bearerAuth, demoKeys, jsonOf, rawAuth } from "./helpers";

type ApiReport = {
  id: number;
  standup_id: number;
  posted_at: string;
  user_id: string | null;
  answers: Array<{ question_id: number; answer: string }>;
};
type Page<T> = { data: T[]; next_cursor: string | null; has_more: boolean };

function parseCsv(text: string): Record<string, string>[] {
  expect(text.charCodeAt(0), "CSV starts with a UTF-8 byte-order mark").toBe(0xfeff);
  return parse(text.slice(1), { columns: true, record_delimiter: "\r\n" }) as Record<string, string>[];
}

/** Undoes the spreadsheet formula escaping (a leading quote before = + - @ or tab). */
const unescapeFormula = (v: string) => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);

test.describe("CSV exports", () => {
  const { admin, other } = demoKeys();
  const until = new Date();
  const since = new Date(until.getTime() - 30 * 86_400_000);

  test("reports CSV (one row per answer and one per report) equals GET /v2/reports for the same filter", async ({ request }) => {
    const standups = (await jsonOf(await request.get("/v2/standups?limit=100", { headers: rawAuth(admin.key) }))) as Page<{ id: number }>;
    const standupId = standups.data[0].id;
    const filter = `since=${since.toISOString()}&until=${until.toISOString()}&standup_id=${standupId}`;

    const fromApi: ApiReport[] = [];
    let cursor: string | null = null;
    do {
      const res = await request.get(`/v2/reports?${filter}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
        headers: rawAuth(admin.key),
      });
      expect(res.status()).toBe(200);
      const page = (await res.json()) as Page<ApiReport>;
      fromApi.push(...page.data);
      cursor = page.has_more ? page.next_cursor : null;
    } while (cursor);
    expect(fromApi.length, "the demo standup has reports in the last 30 days").toBeGreaterThan(10);

    const res = await request.get(`/exports/reports.csv?${filter}`, { headers: bearerAuth(admin.key) });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers()["content-disposition"]).toMatch(/^attachment; filename="reports-.*\.csv"$/);
    const text = await res.text();
    expect(text).toContain("\r\n");
    const rows = parseCsv(text);
    const expected = fromApi.flatMap((r) =>
      r.answers.map((a) => [r.id, r.posted_at, r.standup_id, r.user_id ?? "", a.question_id, a.answer].join("|")),
    );
    const actual = rows.map((r) => [r.report_id, r.posted_at, r.standup_id, r.user_id, r.question_id, unescapeFormula(r.answer)].join("|"));
    expect(actual).toEqual(expected);

    const perReport = parseCsv(
      await (await request.get(`/exports/reports.csv?${filter}&format=reports`, { headers: rawAuth(admin.key) })).text(),
    );
    expect(perReport.map((r) => Number(r.report_id))).toEqual(fromApi.map((r) => r.id));
    expect(Object.keys(perReport[0]).length).toBeGreaterThan(6);
  });

  test("participation CSV per occurrence equals GET /v2/standups/{id}/participation", async ({ request }) => {
    const standups = (await jsonOf(await request.get("/v2/standups?limit=100", { headers: rawAuth(admin.key) }))) as Page<{
      id: number;
      is_anonymous: boolean;
    }>;
    // Per-member rows leave anonymous standups out: take a named one.
    const standupId = (standups.data.find((s) => !s.is_anonymous) ?? standups.data[0]).id;
    const sinceDay = since.toISOString().slice(0, 10);
    const untilDay = until.toISOString().slice(0, 10);
    const api = (await jsonOf(
      await request.get(`/v2/standups/${standupId}/participation?since=${sinceDay}&until=${untilDay}T23:59:59Z&limit=100`, {
        headers: rawAuth(admin.key),
      }),
    )) as Page<{ date: string; expected: number; responded: number }>;
    const res = await request.get(`/exports/participation.csv?since=${sinceDay}&until=${untilDay}&standup_id=${standupId}`, {
      headers: rawAuth(admin.key),
    });
    expect(res.status()).toBe(200);
    const rows = parseCsv(await res.text());
    expect(rows.length, "the demo standup ran in the last 30 days").toBeGreaterThan(0);
    const csv = rows.map((r) => `${r.date} ${r.expected} ${r.answered}`).sort();
    const fromApi = api.data.map((p) => `${p.date.slice(0, 10)} ${p.expected} ${p.responded}`).sort();
    expect(csv).toEqual(fromApi);

    const perMember = parseCsv(
      await (
        await request.get(`/exports/participation.csv?since=${sinceDay}&until=${untilDay}&standup_id=${standupId}&per=member`, {
          headers: rawAuth(admin.key),
        })
      ).text(),
    );
    expect(perMember.length).toBeGreaterThan(rows.length);
    for (const r of perMember) expect(["answered", "missed", "excused"]).toContain(r.status);
  });

  test("needs a session or an API key, checks filters, and never shows another team's reports", async ({ request }) => {
    const anon = await request.get("/exports/reports.csv");
    expect(anon.status()).toBe(401);
    expect(((await anon.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    const bad = await request.get("/exports/reports.csv?since=2026-02-01&until=2026-01-01", { headers: rawAuth(admin.key) });
    expect(bad.status()).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("INVALID_PARAMETER");
    const badFormat = await request.get("/exports/reports.csv?format=xlsx", { headers: rawAuth(admin.key) });
    expect(badFormat.status()).toBe(400);
    const badRange = await request.get("/exports/participation.csv?since=2020-01-01&until=2026-01-01", { headers: rawAuth(admin.key) });
    expect(badRange.status()).toBe(400);

    const mine = parseCsv(await (await request.get("/exports/reports.csv", { headers: rawAuth(admin.key) })).text());
    const theirs = parseCsv(await (await request.get("/exports/reports.csv", { headers: rawAuth(other.key) })).text());
    const mineIds = new Set(mine.map((r) => r.report_id));
    expect(theirs.some((r) => mineIds.has(r.report_id))).toBe(false);
  });

  test("poll results CSV: the creator gets the latest broadcast's results, another team a 404", async ({ request }) => {
    const polls = (await jsonOf(await request.get("/v2/polls?limit=10", { headers: rawAuth(admin.key) }))) as Page<{ id: number }>;
    expect(polls.data.length).toBeGreaterThan(0);
    const id = polls.data[0].id;
    const res = await request.get(`/exports/polls/${id}/results.csv`, { headers: rawAuth(admin.key) });
    expect(res.status()).toBe(200);
    const rows = parseCsv(await res.text());
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0])).toEqual([
      "poll_id",
      "poll",
      "date",
      "question_id",
      "question",
      "answer_type",
      "answer",
      "votes",
      "categories",
      "voters",
    ]);
    expect(new Set(rows.map((r) => r.date)).size).toBe(1);
    expect((await request.get(`/exports/polls/${id}/results.csv`, { headers: rawAuth(other.key) })).status()).toBe(404);
  });
});
