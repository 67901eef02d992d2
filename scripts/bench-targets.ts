/**
 * The issue-14 figures of `npm run bench:data` (scripts/bench-data.ts), measured through the real
 * route handlers called in-process (parse, API-key check, domain call, serialization, the body
 * read as text: the server time of a request without the HTTP hop; the client's JSON.parse is not
 * timed) on the generated data set, with the server's Prisma configuration (named statements):
 * - GET /v2/reports page 1 vs page 2,000 (limit 25, 90-day window): within 1.2× of each other;
 * - GET /v2/standups/{id}/participation over 365 occurrences × 100 members: ≤ 25 ms;
 * - GET /v2/polls/{id}/votes over 52 broadcasts: ≤ 25 ms;
 * - GET /v1/reports/?limit=100 ≤ 2× limit=10;
 * - SQL statements per request (≤ 2, the API-key lookup included);
 * each request timed `reps` times, interleaved (one call of every request per round);
 * and EXPLAIN (ANALYZE) of every statement those requests issue, planned for its values and as the
 * generic plan a named statement may cache: a Seq Scan on a table of more than 10,000 rows in
 * either is a failure, and so is a report list page that reads more than about twice its reports
 * (`pageReadLimit`). `runTargets` returns false when a check fails (the script then
 * exits 1); the latency targets are printed with a verdict but do not fail the run (timings on a
 * shared machine vary; the plans do not).
 */
import type pg from "pg";
import { GET as v1Reports } from "@/app/v1/reports/route";
import { GET as pollVotes } from "@/app/v2/polls/[pollId]/votes/route";
import { GET as v2Reports } from "@/app/v2/reports/route";
import { GET as standupParticipation } from "@/app/v2/standups/[standupId]/participation/route";
import { type CapturedQuery, explain, pageReadLimit } from "@/lib/bench/explain";
import { median, ms, p95, printTable } from "@/lib/bench/stats";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type TargetInput = {
  raw: pg.Client;
  /** Plaintext API key of the lead (an admin of team A, member of every standup). */
  key: string;
  bigStandupId: number;
  pollId: number;
  reps: number;
  /** Statements issued by the shared client since the last call (the caller installs a logging client). */
  takeStatements: () => CapturedQuery[];
  log: (l: string) => void;
};

const DAY = 86_400_000;

type Body = { data?: unknown; next_cursor?: string | null };

/** Items in a response body: a bare array (v1), `data` as a list, or the broadcasts of poll votes. */
function countItems(body: Body): number {
  if (Array.isArray(body as unknown)) return (body as unknown[]).length;
  if (Array.isArray(body.data)) return body.data.length;
  const instances = (body.data as { instances?: unknown[] } | undefined)?.instances;
  return instances?.length ?? 1;
}

/** Calls `handler` as Next would and reads the whole body: the server's part of a request. */
async function serve(
  handler: Handler,
  key: string,
  path: string,
  params: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const res = await handler(new Request(`http://localhost${path}`, { headers: { authorization: key } }), {
    params: Promise.resolve(params),
  });
  return { status: res.status, text: await res.text() };
}

/** `serve`, then the body parsed as JSON (the client's part, outside the timed calls); throws on a non-200. */
async function get(...args: Parameters<typeof serve>): Promise<{ status: number; body: Body }> {
  const { status, text } = await serve(...args);
  if (status !== 200) throw new Error(`${args[2]} answered ${status}: ${text.slice(0, 300)}`);
  return { status, body: JSON.parse(text) as Body };
}

/** Prints the issue-14 table and the EXPLAIN checks; false when a hard check failed. */
export async function runTargets(t: TargetInput): Promise<boolean> {
  const { key, reps } = t;
  const now = Date.now();
  const since90 = new Date(now - 90 * DAY).toISOString();
  const until = new Date(now).toISOString();
  const reportsQuery = `since=${encodeURIComponent(since90)}&until=${encodeURIComponent(until)}`;

  // The cursor of page 2,000 (limit 25): walk the list as a client would.
  t.log("Walking /v2/reports to page 2,000 (limit 25, 90-day window)…");
  let cursor: string | null = null;
  let page = 1;
  for (; page < 2000; page++) {
    const r = await get(
      v2Reports as Handler,
      key,
      `/v2/reports?${reportsQuery}&view=summary${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    cursor = r.body.next_cursor ?? null;
    if (!cursor) break;
  }
  if (!cursor) throw new Error(`the 90-day report list has only ${page} pages; raise BENCH_REPORTS`);
  // The walk used view=summary; the full view has the same keyset, its cursor binding differs only
  // by view (not part of the binding), so the same cursor opens page 2,000 of the full list.
  // `list`: a report list page, whose plans must read about one page of reports (`pageReadLimit`).
  const cases: Array<{ name: string; handler: Handler; path: string; params?: Record<string, string>; list?: true }> = [
    { name: "v2 reports page 1", handler: v2Reports as Handler, path: `/v2/reports?${reportsQuery}`, list: true },
    {
      name: "v2 reports page 2,000",
      handler: v2Reports as Handler,
      path: `/v2/reports?${reportsQuery}&cursor=${encodeURIComponent(cursor)}`,
      list: true,
    },
    {
      name: "participation, 365 occ. × 100 members, limit 100",
      handler: standupParticipation as Handler,
      path: `/v2/standups/${t.bigStandupId}/participation?since=${encodeURIComponent(new Date(now - 366 * DAY).toISOString())}&limit=100`,
      params: { standupId: String(t.bigStandupId) },
    },
    {
      name: "participation, default page (latest 30)",
      handler: standupParticipation as Handler,
      path: `/v2/standups/${t.bigStandupId}/participation`,
      params: { standupId: String(t.bigStandupId) },
    },
    {
      name: "poll votes, 52 broadcasts",
      handler: pollVotes as Handler,
      path: `/v2/polls/${t.pollId}/votes?since=${encodeURIComponent(new Date(now - 364 * DAY).toISOString())}`,
      params: { pollId: String(t.pollId) },
    },
    { name: "v1 reports limit=10", handler: v1Reports as Handler, path: "/v1/reports/?limit=10", list: true },
    { name: "v1 reports limit=100", handler: v1Reports as Handler, path: "/v1/reports/?limit=100", list: true },
  ];

  // Warm the API-key cache (its listener connects on first use).
  await get(v1Reports as Handler, key, "/v1/reports/?limit=1");
  await new Promise((r) => setTimeout(r, 300));
  const timing = new Map<string, number[]>();
  const rows: string[][] = [];
  let ok = true;
  const planRows: string[][] = [];
  const { rows: big } = await t.raw.query<{ relname: string }>(
    "SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND reltuples > 10000",
  );
  const bigTables = new Set(big.map((b) => b.relname));
  // Timed interleaved: each round calls every case once, so a change in the machine's load during
  // the run (shared machines drift by tens of percent within a minute) weighs on every case alike
  // and the ratios below compare requests measured side by side.
  for (const c of cases) {
    timing.set(c.name, []);
    for (let i = 0; i < 3; i++) await serve(c.handler, key, c.path, c.params);
  }
  for (let i = 0; i < reps; i++) {
    for (const c of cases) {
      const start = performance.now();
      await serve(c.handler, key, c.path, c.params);
      timing.get(c.name)?.push(performance.now() - start);
    }
  }
  t.takeStatements();
  for (const c of cases) {
    // Statements of one request with a warm API-key cache (a second call after a first one).
    await get(c.handler, key, c.path, c.params);
    t.takeStatements();
    const r = await get(c.handler, key, c.path, c.params);
    const statements = t.takeStatements();
    const items = countItems(r.body);
    const times = timing.get(c.name) ?? [];
    rows.push([c.name, String(items), String(statements.length), ms(median(times)), ms(p95(times))]);
    if (statements.length > 2) ok = false;
    for (const s of statements) {
      // The plan for these values and the generic plan a named statement may cache: both must be good.
      const plan = await explain(t.raw, s);
      const generic = await explain(t.raw, s, { generic: true });
      const seq = [...new Set([...plan.seqScans, ...generic.seqScans])].filter((rel) => bigTables.has(rel));
      // A report list page reads about as many reports as it returns (the lead sees every report).
      const visited = Math.max(plan.reportsRowsVisited, generic.reportsRowsVisited);
      const tooMany = c.list === true && visited > pageReadLimit(items);
      if (seq.length || tooMany) ok = false;
      planRows.push([
        c.name,
        seq.length ? `SEQ SCAN on ${seq.join(",")}` : tooMany ? `READS ${visited} REPORTS` : "ok",
        ms(plan.executionMs, 3),
        ms(generic.executionMs, 3),
        `${plan.reportsRowsVisited} / ${generic.reportsRowsVisited}`,
        plan.scans.join("; ").slice(0, 150),
      ]);
    }
  }
  t.log("\n== Per request, server time through the route handler (ms), warm API-key cache");
  printTable(["request", "items", "SQL stmts", "median ms", "p95 ms"], rows);

  const m = (name: string) => median(timing.get(name) ?? []);
  const verdict = (pass: boolean) => (pass ? "ok" : "MISS");
  const deepRatio = m("v2 reports page 2,000") / m("v2 reports page 1");
  const v1Ratio = m("v1 reports limit=100") / m("v1 reports limit=10");
  const part = m("participation, 365 occ. × 100 members, limit 100");
  const votes = m("poll votes, 52 broadcasts");
  const maxStatements = Math.max(...rows.map((r) => Number(r[2])));
  t.log("\n== Issue-14 figures at this size");
  printTable(
    ["figure", "value", "target", "verdict"],
    [
      ["/v2/reports page 2,000 ÷ page 1", deepRatio.toFixed(2), "≤ 1.2", verdict(deepRatio <= 1.2)],
      ["participation 365 × 100 (ms)", ms(part), "≤ 25", verdict(part <= 25)],
      ["poll votes over 52 broadcasts (ms)", ms(votes), "≤ 25", verdict(votes <= 25)],
      ["/v1/reports limit=100 ÷ limit=10", v1Ratio.toFixed(2), "≤ 2", verdict(v1Ratio <= 2)],
      ["SQL statements per request (max)", String(maxStatements), "≤ 2", verdict(maxStatements <= 2)],
    ],
  );
  t.log(
    "\n== EXPLAIN (ANALYZE) of every statement above, with the plan for its values and the generic plan a named" +
      "\n   statement may cache (a Seq Scan on a table over 10,000 rows in either fails the run, and so does a report" +
      "\n   list page that reads more than 2 × (items + 1) + 10 reports; reports read: plan for its values / generic plan)",
  );
  printTable(["request", "check", "exec ms", "generic ms", "reports read", "scans"], planRows);
  return ok;
}
