/**
 * `npm run bench:data`: data-layer benchmark on a large generated team. Starts a throwaway
 * embedded PostgreSQL (fresh temp folder, not persistent), applies the migrations, bulk-generates
 * data with SQL (lib/bench/generate.ts), then calls the real domain functions the routes call
 * (with the routes' own query parsing and cursor encoding) and prints, in milliseconds:
 * - first page vs a page deep in a cursor walk, median and p95, for GET /v2/reports with each
 *   filter, GET /v2/standups, GET /v2/reports/{id}, standup participation (counted live, then
 *   after storing each closed occurrence's counts as the `store_participation_counts` job does;
 *   also a year of a 100-member standup), poll votes (a year of broadcasts computed live, then
 *   after storing each closed broadcast's results as the `store_poll_results` job does);
 * - an OFFSET-based equivalent at the same depth, for contrast;
 * - a real cursor walk (up to 2,000 cursors) with the per-page time at its start and its end;
 * - SQL statements per call at limit 5 vs 100 (Prisma query events);
 * - EXPLAIN (ANALYZE, BUFFERS) of the report-list SQL Prisma emits: scan types, Seq Scans;
 * - the issue-14 figures through the real route handlers (scripts/bench-targets.ts): page 1 vs page
 *   2,000 of /v2/reports, participation over 365 occurrences × 100 members, poll votes over 52
 *   broadcasts, /v1/reports limit 100 vs 10, SQL statements per request, and EXPLAIN checks.
 * Exit code 1 when a hot statement of those requests uses a Seq Scan on a table of more than
 * 10,000 rows, a report list page reads more than about twice its reports in either plan, or a
 * request needs more than 2 SQL statements; timings are printed with a verdict.
 *
 * Env: BENCH_REPORTS (team-A report target, default 1000000; sets the history length),
 * BENCH_REPS (measured repetitions per case, default 40), BENCH_OFFSET_REPS (default 7),
 * BENCH_WALK (cursors to follow in the walk, default 2000), BENCH_KEEP_PLANS=1 prints every plan,
 * BENCH_KEEP_DB=1 keeps the database running at the end (its URL is printed) until Ctrl-C.
 */
import fs from "node:fs";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { encodeCursor } from "@/lib/api/cursor";
import { pageOf } from "@/lib/api/envelope";
import { participationCursorPosition, participationQuerySchema, toParticipationFilters } from "@/lib/api/v2/participation";
import { getReportWire, listReportWires, reportCursorPosition, reportListQuerySchema, toReportListFilters } from "@/lib/api/v2/reports";
import { checkinCursorPosition, checkinListQuerySchema, checkinWireParts, toCheckinListFilters } from "@/lib/api/v2/standups";
import { listCheckinWires } from "@/lib/api/v2/standups-sql";
import { pollVotesWire, storePollResults } from "@/lib/api/v2/votes";
import { closeApiKeyCache } from "@/lib/auth/api-key-cache";
import { createApiKey } from "@/lib/auth/api-keys";
import { type CapturedQuery, explain, type PlanSummary } from "@/lib/bench/explain";
import * as gen from "@/lib/bench/generate";
import { median, ms, p95, printTable, timeIt } from "@/lib/bench/stats";
import { newPrismaClient } from "@/lib/db";
import { reportListWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { listParticipation, storeParticipationCounts } from "@/lib/domain/participation";
import { type ReportListFilters, reportViewSelect } from "@/lib/domain/reports";
import { type Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/lib/runtime/migrate";
import { runTargets } from "@/scripts/bench-targets";
import { benchApiDefaults, benchNumber } from "@/scripts/lib/bench-settings";
import { startThrowawayPostgres } from "@/scripts/throwaway";

// The route-handler figures walk 2,000 pages with one API key.
benchApiDefaults("bench-data", 100_000_000);

const REPORTS = benchNumber("BENCH_REPORTS", 1_000_000);
const REPS = benchNumber("BENCH_REPS", 40);
const OFFSET_REPS = benchNumber("BENCH_OFFSET_REPS", 7);
const WALK = benchNumber("BENCH_WALK", 2000);
const DAY = 86_400_000;

const t0 = performance.now();
const { dir, database } = await startThrowawayPostgres("bench-data");
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await database.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
};
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    void stop().finally(() => process.exit(130));
  });
}

const raw = new pg.Client({ connectionString: database.url });
const plain = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 4 }) });
// Configured as the server's client (lib/db.ts: pool, named statements), seeing every statement it sends.
let captured: CapturedQuery[] = [];
const logged = newPrismaClient(database.url, {
  onStatement: (s) => {
    captured.push({ query: s.text, values: s.values });
  },
});
/** Runs `fn` on the logging client and returns the statements it issued. */
async function capture(fn: (client: typeof logged) => Promise<unknown>): Promise<CapturedQuery[]> {
  captured = [];
  await fn(logged);
  const out = captured;
  captured = [];
  return out;
}

/** Either Prisma client: the plain one (timings) or the logging one (statement counts). */
type Client = typeof plain | typeof logged;

/**
 * The latency-table row of a keyset-paged list: `total` rows, the first page and the page `depth`
 * rows in (`first`/`deep` filters) each timed REPS times (median and p95, ms; no OFFSET figure),
 * and the SQL statements `list` issues for a first page of 5 and of 100 rows.
 */
async function keysetListRow<F extends { limit: number }>(
  name: string,
  pages: { total: number; depth: number; first: F; deep: F },
  list: (filters: F, client: Client) => Promise<unknown>,
): Promise<string[]> {
  const tFirst = await timeIt(() => list(pages.first, plain), REPS);
  const tDeep = await timeIt(() => list(pages.deep, plain), REPS);
  const q5 = await capture((cl) => list({ ...pages.first, limit: 5 }, cl));
  const q100 = await capture((cl) => list({ ...pages.first, limit: 100 }, cl));
  return latencyRow(name, {
    rows: String(pages.total),
    first: tFirst,
    depth: String(pages.depth),
    deep: tDeep,
    sql5: String(q5.length),
    sql100: String(q100.length),
  });
}

/**
 * One row of the latency table (case, rows, first med/p95, depth, deep med/p95, OFFSET med, SQL@5,
 * SQL@100): `first` and `deep` are timing samples in ms, shown as median and p95; the other
 * figures are shown as given, "-" where absent (the figure does not apply).
 */
function latencyRow(
  name: string,
  f: { rows?: string; first: number[]; depth?: string; deep?: number[]; offsetMed?: string; sql5: string; sql100: string },
): string[] {
  const deep = f.deep ? [ms(median(f.deep)), ms(p95(f.deep))] : ["-", "-"];
  return [name, f.rows ?? "-", ms(median(f.first)), ms(p95(f.first)), f.depth ?? "-", ...deep, f.offsetMed ?? "-", f.sql5, f.sql100];
}

let exitCode = 0;
try {
  process.env.DATABASE_URL = database.url;
  await applyMigrations(database.url);
  await raw.connect();
  console.log(
    `PostgreSQL ${(await raw.query("SHOW server_version")).rows[0].server_version} ready after ${ms((performance.now() - t0) / 1000, 1)} s`,
  );

  // ---------------------------------------------------------------- data generation
  const tg = performance.now();
  console.log(`Generating data (BENCH_REPORTS=${REPORTS})…`);
  const g = await gen.generateBenchData(raw, { reports: REPORTS, log: console.log });
  const genSeconds = (performance.now() - tg) / 1000;
  console.log(`\nData: ${g.days} days of history (${(g.days / 365).toFixed(2)} years), generated in ${genSeconds.toFixed(1)} s`);
  printTable(
    ["table", "rows"],
    Object.entries(g.counts).map(([k, v]) => [k, v.toLocaleString("en-US")]),
  );
  console.log(
    `steps (s): ${Object.entries(g.seconds)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(", ")}`,
  );
  const sizes = await raw.query(
    `SELECT relname, pg_size_pretty(pg_total_relation_size(c.oid)) AS size FROM pg_class c WHERE relname IN ('reports','answers','occurrence_members') ORDER BY relname`,
  );
  console.log(`sizes with indexes: ${sizes.rows.map((r) => `${r.relname} ${r.size}`).join(", ")}`);

  const actorOf = (id: number, isAdmin: boolean): Actor => ({
    teamId: gen.TEAM_A,
    userId: id,
    userChatId: `UB${String(id).padStart(7, "0")}`,
    isAdmin,
  });
  const lead = actorOf(gen.LEAD_USER_ID, true);
  const member = actorOf(gen.MEMBER_USER_ID, false);
  const now = new Date();
  const since90 = new Date(now.getTime() - 90 * DAY).toISOString();
  const until = now.toISOString();

  // ---------------------------------------------------------------- GET /v2/reports
  type Case = { name: string; actor: Actor; query: Record<string, string> };
  const reportCases: Case[] = [
    { name: "reports: no filter (7-day default)", actor: lead, query: {} },
    { name: "reports: 90-day window", actor: lead, query: { since: since90, until } },
    { name: "reports: 90-day, view=summary", actor: lead, query: { since: since90, until, view: "summary" } },
    { name: "reports: 90-day, standup_id", actor: lead, query: { since: since90, until, standup_id: "1" } },
    { name: "reports: 90-day, user_id (other user)", actor: lead, query: { since: since90, until, user_id: "UB0000003" } },
    { name: "reports: 90-day, user_id (own)", actor: lead, query: { since: since90, until, user_id: lead.userChatId } },
    { name: "reports: 90-day, member of 3 standups", actor: member, query: { since: since90, until } },
    { name: "reports: 90-day, user in no standup", actor: actorOf(gen.NEWCOMER_USER_ID, false), query: { since: since90, until } },
  ];

  /** The OFFSET-based equivalent of listReports (same where, no keyset), for contrast only. */
  const offsetWhere = (actor: Actor, f: ReportListFilters): Prisma.ReportWhereInput => {
    const and: Prisma.ReportWhereInput[] = [reportListWhere(actor), { submitted_at: { gte: f.since, lt: f.until } }];
    if (f.standupId !== undefined) and.push({ checkin_id: f.standupId });
    if (f.userChatId !== undefined) {
      and.push({ user: { chat_id: f.userChatId } });
      if (f.userChatId !== actor.userChatId) and.push({ is_anonymous: false, checkin: { is_anonymous: false } });
    }
    return { AND: and };
  };

  const rows: string[][] = [];
  const explains: Array<{ name: string; page: string; plan: PlanSummary; statements: number }> = [];
  const hotPlans: Array<{ title: string; text: string }> = [];
  const relatedSeen = new Set<string>();

  for (const c of reportCases) {
    const q = reportListQuerySchema.parse(c.query);
    const first = toReportListFilters(q, now);
    const all = await listReportWires(c.actor, { ...first.filters, limit: 1_000_000, withAnswers: false }, plain);
    const total = all.length;
    // Deep page: the cursor after ~95% of the list (at most 50,000 rows = 2,000 pages of 25).
    // An empty list (nothing visible) has no deep page: its "deep" row repeats the first page.
    const depth = total ? Math.max(1, Math.min(50_000, Math.floor(total * 0.95))) : 0;
    const deep = total
      ? toReportListFilters(
          reportListQuerySchema.parse({
            ...c.query,
            cursor: encodeCursor(reportCursorPosition(first.filters)(all[depth - 1]), first.binding),
          }),
          now,
        )
      : first;
    const limit = first.filters.limit;

    const tFirst = await timeIt(() => listReportWires(c.actor, first.filters, plain), REPS);
    const tDeep = await timeIt(() => listReportWires(c.actor, deep.filters, plain), REPS);
    const offsetArgs = {
      where: offsetWhere(c.actor, first.filters),
      orderBy: [{ submitted_at: "desc" as const }, { id: "desc" as const }],
      skip: depth,
      take: limit + 1,
      select: reportViewSelect({ withAnswers: first.filters.withAnswers }),
    };
    const check = await plain.report.findMany(offsetArgs);
    const deepRows = await listReportWires(c.actor, deep.filters, plain);
    if (check[0]?.id !== deepRows[0]?.id) console.log(`warning: OFFSET and keyset disagree for ${c.name}`);
    const tOffset = await timeIt(() => plain.report.findMany(offsetArgs), OFFSET_REPS, 1);

    const q5 = await capture((cl) => listReportWires(c.actor, { ...first.filters, limit: 5 }, cl));
    const q100 = await capture((cl) => listReportWires(c.actor, { ...first.filters, limit: 100 }, cl));
    const q100deep = await capture((cl) => listReportWires(c.actor, { ...deep.filters, limit: 100 }, cl));

    rows.push(
      latencyRow(c.name, {
        rows: total.toLocaleString("en-US"),
        first: tFirst,
        depth: depth.toLocaleString("en-US"),
        deep: tDeep,
        offsetMed: ms(median(tOffset), 1),
        sql5: String(q5.length),
        sql100: `${q100.length}/${q100deep.length}`,
      }),
    );

    for (const [page, filters] of [
      ["first", first.filters],
      ["deep", deep.filters],
    ] as const) {
      const statements = await capture((cl) => listReportWires(c.actor, filters, cl));
      const main = statements.find((s) => /FROM "public"\."reports"/.test(s.query)) ?? statements[0];
      const plan = await explain(raw, main);
      explains.push({ name: c.name, page, plan, statements: statements.length });
      for (const s of statements) {
        if (s === main) continue;
        const sub = await explain(raw, s);
        // The statements loading relations (checkin, user, answers + questions): listed once per
        // distinct plan shape when they contain a Seq Scan.
        const shape = `${page}|${sub.scans.join(";")}`;
        if (sub.seqScans.length && !relatedSeen.has(shape)) {
          relatedSeen.add(shape);
          explains.push({ name: `${c.name} (relation load)`, page, plan: sub, statements: statements.length });
        }
      }
      if ((c.name === "reports: 90-day window" && page === "deep") || (c.name === "reports: 90-day, user_id (own)" && page === "first")) {
        hotPlans.push({ title: `${c.name}, ${page} page — SQL`, text: `${main.query}\nparams: ${JSON.stringify(main.values)}` });
        hotPlans.push({ title: `${c.name}, ${page} page — EXPLAIN (ANALYZE, BUFFERS)`, text: plan.text });
      }
      if (process.env.BENCH_KEEP_PLANS) hotPlans.push({ title: `${c.name}, ${page}`, text: `${main.query}\n${plan.text}` });
    }
    const offsetStatements = await capture((cl) => cl.report.findMany(offsetArgs));
    const offsetMain = offsetStatements.find((s) => /FROM "public"\."reports"/.test(s.query)) ?? offsetStatements[0];
    explains.push({ name: c.name, page: `OFFSET ${depth}`, plan: await explain(raw, offsetMain), statements: offsetStatements.length });
    process.stdout.write(".");
  }

  // ---------------------------------------------------------------- GET /v2/reports/{id}
  const ids = (
    await raw.query<{ id: number }>(
      `SELECT r.id FROM reports r JOIN checkins c ON c.id = r.checkin_id
       WHERE r.team_id = $1 AND r.status = 'submitted' AND c.state = 'active' AND NOT c.is_confidential ORDER BY random() LIMIT 200`,
      [gen.TEAM_A],
    )
  ).rows.map((r) => r.id);
  let k = 0;
  const tGet = await timeIt(() => getReportWire(lead, ids[k++ % ids.length], plain), REPS);
  const qGet = await capture((cl) => getReportWire(lead, ids[0], cl));
  rows.push(latencyRow("reports/{id} (random ids)", { first: tGet, sql5: String(qGet.length), sql100: String(qGet.length) }));

  // ---------------------------------------------------------------- GET /v2/standups
  {
    const query = { include: "questions" };
    const parsed = checkinListQuerySchema.parse(query);
    const first = toCheckinListFilters(parsed, "v2.standups");
    const parts = checkinWireParts(parsed.include);
    const all = await listCheckinWires(lead, "standup", { ...first.filters, limit: 10_000 }, parts, plain);
    const depth = Math.max(1, Math.floor(all.length * 0.9));
    const cursor = encodeCursor(checkinCursorPosition(all[depth - 1]), first.binding);
    const deep = toCheckinListFilters(checkinListQuerySchema.parse({ ...query, cursor }), "v2.standups");
    const list = (filters: typeof first.filters, client: Client) => listCheckinWires(lead, "standup", filters, parts, client);
    rows.push(
      await keysetListRow("standups (include=questions)", { total: all.length, depth, first: first.filters, deep: deep.filters }, list),
    );
  }

  // ---------------------------------------------------------------- participation
  {
    const standupId = 1;
    const first = toParticipationFilters(participationQuerySchema.parse({}), "v2.standups.participation", standupId);
    const all = await listParticipation(lead, "standup", standupId, { ...first.filters, limit: 100_000 }, plain);
    const depth = Math.max(1, Math.floor(all.length * 0.95));
    const cursor = encodeCursor(participationCursorPosition(all[depth - 1]), first.binding);
    const deep = toParticipationFilters(participationQuerySchema.parse({ cursor }), "v2.standups.participation", standupId);
    const list = (filters: typeof first.filters, client: Client) => listParticipation(lead, "standup", standupId, filters, client);
    const pages = { total: all.length, depth, first: first.filters, deep: deep.filters };
    rows.push(await keysetListRow("standups/{id}/participation (live)", pages, list));
    // 365 occurrences × 100 members, every occurrence counted from its rows (nothing stored yet).
    const year = { since: new Date(now.getTime() - 366 * DAY), limit: 100 };
    const bigLive = await timeIt(() => listParticipation(lead, "standup", gen.BIG_STANDUP_ID, year, plain), Math.min(REPS, 20));
    rows.push(latencyRow("participation 365 × 100, limit 100 (live)", { first: bigLive, sql5: "1", sql100: "1" }));
    // Then stored as the `store_participation_counts` job stores each occurrence when it closes
    // (lib/domain/participation.ts); the issue-14 figures below read this state.
    const closedOccurrences = await raw.query<{ id: number }>(
      `SELECT id FROM occurrences WHERE checkin_id = ANY($1) AND closed_at IS NOT NULL ORDER BY id`,
      [[standupId, gen.BIG_STANDUP_ID]],
    );
    const ts = performance.now();
    for (const o of closedOccurrences.rows) await storeParticipationCounts(o.id, plain);
    console.log(
      `\nStored the participation counts of ${closedOccurrences.rows.length} closed occurrences in ${ms((performance.now() - ts) / 1000, 2)} s (store_participation_counts)`,
    );
    rows.push(await keysetListRow("standups/{id}/participation (stored)", pages, list));
    const bigStored = await timeIt(() => listParticipation(lead, "standup", gen.BIG_STANDUP_ID, year, plain), REPS);
    rows.push(latencyRow("participation 365 × 100, limit 100 (stored)", { first: bigStored, sql5: "1", sql100: "1" }));
    const stmts = await capture((cl) => listParticipation(lead, "standup", standupId, deep.filters, cl));
    for (const s of stmts) explains.push({ name: "participation", page: "deep", plan: await explain(raw, s), statements: stmts.length });
  }

  // ---------------------------------------------------------------- poll votes
  {
    // A year of broadcasts computed live (nothing stored yet), then stored as the
    // `store_poll_results` job stores each broadcast when it closes (lib/api/v2/votes.ts).
    const year = { since: new Date(now.getTime() - 364 * DAY), until: now };
    const live = await timeIt(() => pollVotesWire(lead, gen.POLL_ID, year, {}, plain), Math.min(REPS, 10));
    const qLive = await capture((cl) => pollVotesWire(lead, gen.POLL_ID, year, {}, cl));
    rows.push(
      latencyRow("polls/{id}/votes (52 broadcasts, live)", { first: live, sql5: String(qLive.length), sql100: String(qLive.length) }),
    );
    const closedPolls = await raw.query<{ id: number }>(
      `SELECT o.id FROM occurrences o JOIN checkins c ON c.id = o.checkin_id WHERE c.kind = 'poll' AND o.closed_at IS NOT NULL ORDER BY o.id`,
    );
    const ts = performance.now();
    for (const o of closedPolls.rows) await storePollResults(o.id, plain);
    console.log(
      `\nStored the results of ${closedPolls.rows.length} closed poll broadcasts in ${ms((performance.now() - ts) / 1000, 2)} s (store_poll_results)`,
    );
    const stored = await timeIt(() => pollVotesWire(lead, gen.POLL_ID, year, {}, plain), REPS);
    rows.push(latencyRow("polls/{id}/votes (52 broadcasts, stored)", { first: stored, sql5: "1", sql100: "1" }));
    const latest = await timeIt(() => pollVotesWire(lead, gen.POLL_ID, {}, {}, plain), REPS);
    const range = { since: new Date(now.getTime() - 90 * DAY), until: now };
    const ranged = await timeIt(() => pollVotesWire(lead, gen.POLL_ID, range, {}, plain), REPS);
    const qLatest = await capture((cl) => pollVotesWire(lead, gen.POLL_ID, {}, {}, cl));
    const qRanged = await capture((cl) => pollVotesWire(lead, gen.POLL_ID, range, {}, cl));
    rows.push(
      latencyRow("polls/{id}/votes (latest | 90 days)", {
        first: latest,
        depth: "90 days",
        deep: ranged,
        sql5: String(qLatest.length),
        sql100: String(qRanged.length),
      }),
    );
    for (const s of qRanged) {
      const plan = await explain(raw, s);
      if (plan.seqScans.length) explains.push({ name: "poll votes (90 days)", page: "-", plan, statements: qRanged.length });
    }
  }

  // ---------------------------------------------------------------- a real cursor walk
  const walkQuery = { since: since90, until, view: "summary" };
  let walkFilters = toReportListFilters(reportListQuerySchema.parse(walkQuery), now);
  const pageTimes: number[] = [];
  let walked = 0;
  const tw = performance.now();
  for (let i = 0; i <= WALK; i++) {
    const t = performance.now();
    const rowsPage = await listReportWires(lead, walkFilters.filters, plain);
    pageTimes.push(performance.now() - t);
    const page = pageOf(rowsPage, walkFilters.filters.limit);
    walked += page.items.length;
    if (!page.hasMore || !page.last) break;
    const next = encodeCursor(reportCursorPosition(walkFilters.filters)(page.last), walkFilters.binding);
    walkFilters = toReportListFilters(reportListQuerySchema.parse({ ...walkQuery, cursor: next }), now);
  }
  const walkSeconds = (performance.now() - tw) / 1000;
  console.log("\n");

  // ---------------------------------------------------------------- output
  console.log(
    `== Latency of the domain calls (ms; ${REPS} runs each after 3 warm-up runs; OFFSET: ${OFFSET_REPS} runs), limit = route default`,
  );
  printTable(
    ["case", "rows", "first med", "first p95", "depth", "deep med", "deep p95", "OFFSET med", "SQL@5", "SQL@100 first/deep"],
    rows,
  );
  const seg = (a: number, b: number) => pageTimes.slice(a, b);
  console.log(
    `\n== Cursor walk: reports 90-day window, view=summary, limit 25, lead actor: ${pageTimes.length} pages (${pageTimes.length - 1} cursors followed), ` +
      `${walked.toLocaleString("en-US")} reports, ${walkSeconds.toFixed(1)} s`,
  );
  printTable(
    ["pages", "median ms", "p95 ms"],
    [
      ["1–100", ms(median(seg(0, 100))), ms(p95(seg(0, 100)))],
      [
        `${Math.max(1, Math.floor(pageTimes.length / 2) - 49)}–${Math.floor(pageTimes.length / 2) + 50}`,
        ms(median(seg(Math.floor(pageTimes.length / 2) - 50, Math.floor(pageTimes.length / 2) + 50))),
        ms(p95(seg(Math.floor(pageTimes.length / 2) - 50, Math.floor(pageTimes.length / 2) + 50))),
      ],
      [
        `${Math.max(1, pageTimes.length - 99)}–${pageTimes.length}`,
        ms(median(seg(pageTimes.length - 100, pageTimes.length))),
        ms(p95(seg(pageTimes.length - 100, pageTimes.length))),
      ],
    ],
  );

  console.log("\n== EXPLAIN (ANALYZE, BUFFERS) of the SQL Prisma emits (main report statement unless noted)");
  printTable(
    [
      "case",
      "page",
      "stmts",
      "access on reports",
      "Index Scan on reports",
      "Seq Scan on reports",
      "seq scans (any table)",
      "exec ms",
      "buf hit/read",
    ],
    explains.map((e) => [
      e.name,
      e.page,
      String(e.statements),
      [...new Set(e.plan.reportsAccess)].join("+") || "-",
      e.plan.reportsAccess.length ? (e.plan.reportsAccess.some((t) => /^Index (Only )?Scan$/.test(t)) ? "yes" : "no") : "-",
      e.plan.reportsAccess.length ? (e.plan.seqScans.includes("reports") ? "YES" : "none") : "-",
      e.plan.seqScans.join(",") || "-",
      ms(e.plan.executionMs, 3),
      `${e.plan.sharedHit}/${e.plan.sharedRead}`,
    ]),
  );
  console.log("\nScans per plan:");
  for (const e of explains) console.log(`  ${e.name} [${e.page}]: ${e.plan.scans.join("; ")}`);
  for (const p of hotPlans) console.log(`\n-- ${p.title}\n${p.text}`);

  // ---------------------------------------------------------------- issue-14 figures (route handlers)
  // The route handlers use the shared client of lib/db.ts: make it the logging one.
  (globalThis as unknown as { __checkinPrisma?: unknown }).__checkinPrisma = logged;
  const leadKey = await createApiKey(plain, { teamId: gen.TEAM_A, userId: gen.LEAD_USER_ID, name: "bench" });
  const targetsOk = await runTargets({
    raw,
    key: leadKey.key,
    bigStandupId: gen.BIG_STANDUP_ID,
    pollId: gen.POLL_ID,
    reps: REPS,
    takeStatements: () => {
      const out = captured;
      captured = [];
      return out;
    },
    log: console.log,
  });
  if (!targetsOk) {
    console.log("\nFAILED: a request needs more than 2 SQL statements or a hot statement scans a big table sequentially (see above).");
    exitCode = 1;
  }
  console.log(`\nTotal ${((performance.now() - t0) / 1000).toFixed(1)} s (generation ${genSeconds.toFixed(1)} s)`);
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await closeApiKeyCache();
  await plain.$disconnect().catch(() => {});
  await logged.$disconnect().catch(() => {});
  await raw.end().catch(() => {});
  if (process.env.BENCH_KEEP_DB) {
    console.log(`\nBENCH_KEEP_DB: the database stays up at ${database.url} (folder ${dir}); stop it with Ctrl-C.`);
    await new Promise(() => {});
  }
  await stop();
}
process.exit(exitCode);
