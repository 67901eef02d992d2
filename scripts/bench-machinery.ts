/**
 * `npm run bench:machinery`: every piece of our own performance machinery measured WITH and
 * WITHOUT it, side by side in one run (issue 51 step 6; the table and the verdicts are in
 * docs/scaling.md "Performance machinery").
 *
 * Starts a throwaway embedded PostgreSQL, applies the migrations and generates `npm run
 * bench:data`'s team (lib/bench/generate.ts) at BENCH_REPORTS (default 20,000: the generator's
 * shortest history, about 47,000 reports), then, for each piece and each endpoint it serves, alternates load runs — with, without, without, with, … —
 * BENCH_ROUNDS times (default 5; the order flips every round so neither side always runs first).
 * A run keeps BENCH_CONNECTIONS callers (default 16) busy for BENCH_SECONDS (default 2) calling the
 * real route handler in process (`lib/bench/targets.ts`'s way: the server's part of a request
 * without the HTTP hop) or, for the SQL renderings, the domain read and its rendering. It prints per
 * row the median calls/s of both sides, the gain (the median of the rounds' with ÷ without, − 1),
 * Node CPU ms per call (median) and the 1-minute load average when the row was done.
 *
 * The switches are bench-only: `newPrismaClient`'s `machinery` options (lib/db.ts) for the
 * pipelined connections, the direct pool path of `queryRows`, the transaction-connection link and
 * named statements; `API_KEY_CACHE_TTL_MS=0` for the API-key cache; `setRateLimitBatching(false)`
 * (lib/api/rate-limit.ts) for the batched quota counts; for the stored participation
 * counts and poll results (what most of the triggers maintain), the stored rows made stale (their
 * version moved away and back) so the same read counts live; for the SQL JSON renderings, the
 * TypeScript path the wire tests compare them with (rows + `serialize…` + JSON.stringify).
 *
 * Env: BENCH_REPORTS, BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ONLY (substring filter
 * on piece names, several separated by "|").
 */
import fs from "node:fs";
import os from "node:os";
import pg from "pg";
import { GET as v1Me } from "@/app/v1/me/route";
import { GET as v1Reports } from "@/app/v1/reports/route";
import { GET as pollVotes } from "@/app/v2/polls/[pollId]/votes/route";
import { GET as oneReport, PATCH as patchReport } from "@/app/v2/reports/[reportId]/route";
import { POST as postReport, GET as v2Reports } from "@/app/v2/reports/route";
import { GET as standupParticipation } from "@/app/v2/standups/[standupId]/participation/route";
import { GET as oneStandup } from "@/app/v2/standups/[standupId]/route";
import { GET as standups } from "@/app/v2/standups/route";
import { setRateLimitBatching } from "@/lib/api/rate-limit";
import { searchReportWiresV1, serializeReportListItemV1 } from "@/lib/api/v1/reports";
import { getReportWire, listReportWires, reportListQuerySchema, serializeReportV2, toReportListFilters } from "@/lib/api/v2/reports";
import { checkinListQuerySchema, checkinWireParts, serializeCheckinV2, toCheckinListFilters } from "@/lib/api/v2/standups";
import { listCheckinWires } from "@/lib/api/v2/standups-sql";
import { pollVotesWire, serializePollResultsV2, storePollResults } from "@/lib/api/v2/votes";
import { closeApiKeyCache } from "@/lib/auth/api-key-cache";
import { createApiKey } from "@/lib/auth/api-keys";
import * as gen from "@/lib/bench/generate";
import { median, ms, printTable } from "@/lib/bench/stats";
import { type ClientMachinery, newPrismaClient } from "@/lib/db";
import { reportReadSql } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { anonymousReportShownSql } from "@/lib/domain/anonymity";
import { storeParticipationCounts } from "@/lib/domain/participation";
import { reportViewPage } from "@/lib/domain/report-pages";
import { listReports, searchReports } from "@/lib/domain/reports";
import { listCheckins } from "@/lib/domain/standups";
import { getPollVotes } from "@/lib/domain/votes";
import { Prisma } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/lib/runtime/migrate";
import { benchApiDefaults, benchNumber } from "@/scripts/lib/bench-settings";
import { startThrowawayPostgres } from "@/scripts/throwaway";

benchApiDefaults("bench-machinery", 1_000_000_000);

const REPORTS = benchNumber("BENCH_REPORTS", 20_000);
const ROUNDS = benchNumber("BENCH_ROUNDS", 5);
const SECONDS = benchNumber("BENCH_SECONDS", 2);
const CONNECTIONS = benchNumber("BENCH_CONNECTIONS", 16);
const ONLY = process.env.BENCH_ONLY?.split("|").filter(Boolean);
const DAY = 86_400_000;

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Call = () => Promise<unknown>;
/** One side of a comparison: `enter` switches the process to it before its run. */
type Side = { enter: () => Promise<void> | void };
/** A piece of machinery: the endpoints it serves, each called the same way on both sides. */
type Piece = { piece: string; with: Side; without: Side; cases: Array<{ endpoint: string; call: Call }> };
type Run = { rps: number; nodeMs: number };

/** Keeps `CONNECTIONS` callers busy calling `call` for `seconds`; calls/s and Node CPU ms per call. Throws on a failed call. */
async function drive(call: Call, seconds = SECONDS): Promise<Run> {
  const started = performance.now();
  const end = started + seconds * 1000;
  const cpu = process.cpuUsage();
  let calls = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        await call();
        calls++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rps: calls / ((performance.now() - started) / 1000), nodeMs: (used.user + used.system) / 1000 / calls };
}

/** Calls a route handler as Next would and reads the body; throws on a non-2xx answer. */
function route(handler: unknown, key: string, path: string, params: Record<string, string> = {}, init: RequestInit = {}): Call {
  return async () => {
    const headers = { authorization: key, "content-type": "application/json" };
    const res = await (handler as Handler)(new Request(`http://localhost${path}`, { headers, ...init }), {
      params: Promise.resolve(params),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${init.method ?? "GET"} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return text;
  };
}

const t0 = performance.now();
const { dir, database } = await startThrowawayPostgres("bench-machinery");
const raw = new pg.Client({ connectionString: database.url });
const clients: Array<{ $disconnect(): Promise<void> }> = [];
/** A client configured as the server's, with `machinery` switched as given. */
function client(machinery: ClientMachinery = {}) {
  const c = newPrismaClient(database.url, { machinery });
  clients.push(c);
  return c;
}
const sharedClient = (c: unknown) => () => {
  (globalThis as unknown as { __checkinPrisma?: unknown }).__checkinPrisma = c;
};

let exitCode = 0;
try {
  process.env.DATABASE_URL = database.url;
  await applyMigrations(database.url);
  await raw.connect();
  console.log(`Generating data (BENCH_REPORTS=${REPORTS})…`);
  const g = await gen.generateBenchData(raw, { reports: REPORTS, log: () => {} });
  console.log(
    `Data: ${Object.entries(g.counts)
      .map(([k, v]) => `${k} ${v.toLocaleString("en-US")}`)
      .join(", ")}`,
  );

  const all = client();
  const noPipeline = client({ pipeline: false });
  const unnamed = client({ named: false, pipeline: false });
  const noDirect = client({ directReads: false, pipeline: false });
  const noLink = client({ transactionLink: false });
  sharedClient(all)();
  const lead: Actor = { teamId: gen.TEAM_A, userId: gen.LEAD_USER_ID, userChatId: "UB0000001", isAdmin: true };
  const key = (await createApiKey(all, { teamId: gen.TEAM_A, userId: gen.LEAD_USER_ID, name: "bench" })).key;
  const now = new Date();
  const q90 = `since=${encodeURIComponent(new Date(now.getTime() - 90 * DAY).toISOString())}&until=${encodeURIComponent(now.toISOString())}`;
  const standup = 1;
  const questions = (await raw.query<{ id: number }>("SELECT id FROM questions WHERE checkin_id = $1 ORDER BY position", [standup])).rows;
  const submit = JSON.stringify({ standup_id: standup, answers: questions.map((q) => ({ question_id: q.id, text: "Benchmark answer" })) });
  const created: number[] = [];
  for (let i = 0; i < 4 * CONNECTIONS; i++)
    created.push(JSON.parse((await route(postReport, key, "/v2/reports", {}, { method: "POST", body: submit })()) as string).data.id);
  let edit = 0;
  const patch: Call = () => {
    const n = edit++;
    const id = created[n % created.length];
    const body = JSON.stringify({ answers: [{ question_id: questions[0].id, text: `Edited ${Math.floor(n / created.length) % 2}` }] });
    return route(patchReport, key, `/v2/reports/${id}`, { reportId: String(id) }, { method: "PATCH", body })();
  };
  const reportId = created[0];

  // The read endpoints of `npm run bench`, through their route handlers.
  const reads = [
    { endpoint: "GET /v1/me", call: route(v1Me, key, "/v1/me") },
    { endpoint: "GET /v2/reports?limit=25 (90 days)", call: route(v2Reports, key, `/v2/reports?${q90}`) },
    { endpoint: "GET /v2/reports/{id}", call: route(oneReport, key, `/v2/reports/${reportId}`, { reportId: String(reportId) }) },
    { endpoint: "GET /v2/standups?include=questions", call: route(standups, key, "/v2/standups?include=questions") },
    {
      endpoint: "GET /v2/standups/{id}?include=questions",
      call: route(oneStandup, key, `/v2/standups/${standup}?include=questions`, { standupId: String(standup) }),
    },
    { endpoint: "GET /v1/reports/?limit=30", call: route(v1Reports, key, "/v1/reports/?limit=30") },
  ];
  const writes = [
    { endpoint: "POST /v2/reports", call: route(postReport, key, "/v2/reports", {}, { method: "POST", body: submit }) },
    { endpoint: `PATCH /v2/reports/{id} (${created.length} reports)`, call: patch },
  ];

  // The SQL JSON renderings against the TypeScript path their wire tests compare them with.
  const reportFilters = toReportListFilters(
    reportListQuerySchema.parse({ since: new Date(now.getTime() - 90 * DAY).toISOString() }),
    now,
  ).filters;
  const report100 = { ...reportFilters, limit: 100 };
  const standupQuery = checkinListQuerySchema.parse({ include: "questions" });
  const standupFilters = toCheckinListFilters(standupQuery, "v2.standups").filters;
  const include = standupQuery.include;
  const v1Filters = { limit: 30 };
  const year = { since: new Date(now.getTime() - 364 * DAY), until: now };
  let sqlRendering = true;
  const rendered =
    (withSql: Call, withTs: Call): Call =>
    () =>
      sqlRendering ? withSql() : withTs();
  const renderings = [
    {
      endpoint: "GET /v2/reports limit 25 (report-pages.ts reportWirePage)",
      call: rendered(
        async () => (await listReportWires(lead, reportFilters)).map((r) => r.json).join(","),
        async () => (await listReports(lead, reportFilters)).map((r) => JSON.stringify(serializeReportV2(r))).join(","),
      ),
    },
    {
      endpoint: "GET /v2/reports limit 100",
      call: rendered(
        async () => (await listReportWires(lead, report100)).map((r) => r.json).join(","),
        async () => (await listReports(lead, report100)).map((r) => JSON.stringify(serializeReportV2(r))).join(","),
      ),
    },
    {
      endpoint: "GET /v2/reports/{id} (reports.ts getReportWire)",
      call: rendered(
        () => getReportWire(lead, reportId),
        async () => {
          const where = Prisma.sql`r.id = ${reportId} AND ${reportReadSql(lead, "r", "c")} AND ${anonymousReportShownSql(lead, "r")}`;
          const [r] = await reportViewPage(where, 1, { withAnswers: true });
          return JSON.stringify(serializeReportV2(r));
        },
      ),
    },
    {
      endpoint: "GET /v2/standups?include=questions (checkin-pages.ts)",
      call: rendered(
        async () => (await listCheckinWires(lead, "standup", standupFilters, checkinWireParts(include))).map((r) => r.json).join(","),
        async () =>
          (await listCheckins(lead, "standup", standupFilters)).map((c) => JSON.stringify(serializeCheckinV2(c, include))).join(","),
      ),
    },
    {
      endpoint: "GET /v1/reports/?limit=30 (report-pages.ts reportWirePageV1)",
      call: rendered(
        async () => (await searchReportWiresV1(lead, v1Filters)).json,
        async () => JSON.stringify((await searchReports(lead, v1Filters)).map((r) => serializeReportListItemV1(r))),
      ),
    },
    {
      endpoint: "GET /v2/polls/{id}/votes, 52 broadcasts live (poll-votes-wire.ts)",
      call: rendered(
        () => pollVotesWire(lead, gen.POLL_ID, year),
        async () => JSON.stringify(serializePollResultsV2(await getPollVotes(lead, gen.POLL_ID, year))),
      ),
    },
  ];

  // Stored participation counts and poll results: what 18 of the triggers keep valid.
  const closed = (
    await raw.query<{ id: number; kind: string }>(
      `SELECT o.id, c.kind::text AS kind FROM occurrences o JOIN checkins c ON c.id = o.checkin_id
       WHERE o.checkin_id = ANY($1) AND o.closed_at IS NOT NULL`,
      [[gen.BIG_STANDUP_ID, gen.POLL_ID]],
    )
  ).rows;
  // Both sides flip every stored row between its true version and 1,000,000 above it (never current: counted live).
  const versions = (sign: "+" | "-", where: string) => async () => {
    await raw.query(`UPDATE participation_counts SET version = version ${sign} 1000000 WHERE ${where}`);
    await raw.query(`UPDATE poll_results SET version = version ${sign} 1000000 WHERE ${where}`);
  };
  const stored: Side = { enter: versions("-", "version >= 1000000") };
  const live: Side = { enter: versions("+", "version < 1000000") };
  const since366 = encodeURIComponent(new Date(now.getTime() - 366 * DAY).toISOString());
  const triggerReads = [
    {
      endpoint: "GET /v2/standups/{id}/participation 365 × 100, limit 100",
      call: route(standupParticipation, key, `/v2/standups/${gen.BIG_STANDUP_ID}/participation?since=${since366}&limit=100`, {
        standupId: String(gen.BIG_STANDUP_ID),
      }),
    },
    {
      endpoint: "GET /v2/standups/{id}/participation (default page, 30)",
      call: route(standupParticipation, key, `/v2/standups/${gen.BIG_STANDUP_ID}/participation`, { standupId: String(gen.BIG_STANDUP_ID) }),
    },
    {
      endpoint: "GET /v2/polls/{id}/votes, 52 broadcasts",
      call: route(pollVotes, key, `/v2/polls/${gen.POLL_ID}/votes?since=${encodeURIComponent(year.since.toISOString())}`, {
        pollId: String(gen.POLL_ID),
      }),
    },
  ];

  const cacheTtl = (ttl: string) => async () => {
    process.env.API_KEY_CACHE_TTL_MS = ttl;
    await closeApiKeyCache();
    await reads[0].call(); // starts the listener (with a TTL)
    await new Promise((r) => setTimeout(r, 200));
  };

  const pieces: Piece[] = [
    {
      piece: "pipelined connections (db-pipeline.ts)",
      with: { enter: sharedClient(all) },
      without: { enter: sharedClient(noPipeline) },
      cases: reads,
    },
    {
      piece: "queryRows on the pg pool (db.ts, no pipeline on either side)",
      with: { enter: sharedClient(noPipeline) },
      without: { enter: sharedClient(noDirect) },
      cases: reads,
    },
    {
      piece: "named statements (db.ts statementName, no pipeline on either side)",
      with: { enter: sharedClient(noPipeline) },
      without: { enter: sharedClient(unnamed) },
      cases: reads,
    },
    {
      piece: "transaction connection link (db.ts TransactionAwarePool)",
      with: { enter: sharedClient(all) },
      without: { enter: sharedClient(noLink) },
      cases: writes,
    },
    {
      piece: "API-key cache (api-key-cache.ts)",
      with: { enter: cacheTtl("5000") },
      without: { enter: cacheTtl("0") },
      cases: reads.slice(0, 2),
    },
    {
      piece: "batched API-key quota counts (rate-limit-batch.ts)",
      with: { enter: () => setRateLimitBatching(true) },
      without: { enter: () => setRateLimitBatching(false) },
      cases: reads.slice(0, 2),
    },
    {
      piece: "SQL JSON renderings (lib/domain *-pages.ts, *-wire.ts)",
      with: {
        enter: () => {
          sqlRendering = true;
        },
      },
      without: {
        enter: () => {
          sqlRendering = false;
        },
      },
      cases: renderings,
    },
    { piece: "stored participation counts / poll results (18 triggers)", with: stored, without: live, cases: triggerReads },
  ];

  const rows: string[][] = [];
  for (const p of pieces) {
    if (ONLY?.length && !ONLY.some((o) => p.piece.includes(o))) continue;
    if (p.piece.startsWith("stored")) {
      const ts = performance.now();
      for (const o of closed) await (o.kind === "poll" ? storePollResults(o.id, all) : storeParticipationCounts(o.id, all));
      console.log(`Stored the counts/results of ${closed.length} closed occurrences in ${ms((performance.now() - ts) / 1000)} s`);
    }
    for (const c of p.cases) {
      const runs = { with: [] as Run[], without: [] as Run[] };
      for (const side of ["with", "without"] as const) {
        await p[side].enter();
        await drive(c.call, 1); // warm-up (JIT, pool, named statements)
      }
      for (let r = 0; r < ROUNDS; r++) {
        for (const side of r % 2 === 0 ? (["with", "without"] as const) : (["without", "with"] as const)) {
          await p[side].enter();
          runs[side].push(await drive(c.call));
        }
      }
      await p.with.enter();
      const rps = (s: "with" | "without") => median(runs[s].map((x) => x.rps));
      const node = (s: "with" | "without") => median(runs[s].map((x) => x.nodeMs));
      // The median of the per-round ratios: each round's two runs are neighbours in time, so the
      // machine's load drifts less between them than across the whole run.
      const gain = (median(runs.with.map((w, i) => w.rps / runs.without[i].rps)) - 1) * 100;
      const row = [
        p.piece,
        c.endpoint,
        rps("with").toFixed(0),
        rps("without").toFixed(0),
        `${gain >= 0 ? "+" : ""}${gain.toFixed(0)}%`,
        ms(node("with"), 3),
        ms(node("without"), 3),
        os.loadavg()[0].toFixed(1),
      ];
      rows.push(row);
      console.log(row.join(" | "));
    }
  }
  console.log(`\n== With vs without, ${ROUNDS} alternating rounds of ${SECONDS} s, ${CONNECTIONS} concurrent callers in process (medians)`);
  printTable(["piece", "endpoint", "calls/s with", "calls/s without", "gain", "Node ms/call with", "without", "load 1m"], rows);
  console.log(`\nTotal ${((performance.now() - t0) / 1000).toFixed(0)} s`);
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await closeApiKeyCache();
  for (const c of clients) await c.$disconnect().catch(() => {});
  await raw.end().catch(() => {});
  await database.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
