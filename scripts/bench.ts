/**
 * `npm run bench`: HTTP throughput of the API measured against the framework's ceiling.
 *
 * Beside the app it builds and starts an empty Next.js route handler (lib/bench/servers.ts) and,
 * for every endpoint, alternates load runs — empty route, endpoint, empty route, endpoint, … —
 * `BENCH_ROUNDS` times (default 3). It prints per endpoint the median requests/s of both, the
 * median of the per-round ratios (endpoint ÷ empty route), p50 and p99 latency (ms) and p99 ÷ p50
 * (beside the empty route's own p99 ÷ p50 in the same rounds: the tail left by the framework, GC
 * and the machine), with the issue-14 targets: reads ≥ 0.6× (goal 0.8×), writes ≥ 0.4×, p99 ≤ 3×
 * p50, and the CPU time the app's Node.js and PostgreSQL processes spent per request
 * (lib/bench/cpu.ts: which one bounds the endpoint). The first row, "app shell", is the app's own
 * CORS preflight measured the same way (no target): the app's server cost before any handler runs,
 * so that an endpoint's ratio splits into the shell's and its handler's. Before each empty-route
 * run of a write endpoint it waits until the app's job worker has delivered what the previous run
 * enqueued (broadcasts), so the baseline is not measured beside that work; the write's own run
 * includes the worker's work during it.
 * Numbers only: the exit code is 0 unless the run itself failed.
 *
 * Every measured response must be a real answer: the app is started with a per-key quota far above
 * what a run sends (RATE_LIMIT_API_PER_MINUTE=BENCH_RATE_LIMIT, default 100,000,000), so the rate
 * limiter still counts every request (its cost is part of the figure) but never answers 429. A run
 * that got non-2xx answers anyway is marked INVALID in the table (its requests/s would measure the
 * error path, not the endpoint).
 *
 * Load tool: wrk when installed (`apt-get install -y wrk`), else autocannon; BENCH_TOOL=wrk|autocannon.
 * Env: BASE_URL (an app already running, started with a raised RATE_LIMIT_API_PER_MINUTE; default:
 * start one with `npm start` on a throwaway data folder), BENCH_KEY (default: the demo admin key
 * of that data folder), BENCH_SECONDS per run (default 5), BENCH_CONNECTIONS (default 16),
 * BENCH_ROUNDS (3), BENCH_PORT (app, default 3801), BENCH_EMPTY_PORT (default 3803), BENCH_ONLY
 * (substring filter on endpoint names; several separated by "|"), BENCH_RATE_LIMIT (the app's per-key quota, see above).
 */
import fs from "node:fs";
import path from "node:path";
import { type CpuSample, cpuPerRequest, cpuSample } from "@/lib/bench/cpu";
import { findWrk, type LoadRequest, type LoadResult, runLoad } from "@/lib/bench/load";
import { startApp, startEmptyRoute, waitForIdleJobs } from "@/lib/bench/servers";
import { median, printTable } from "@/lib/bench/stats";
import { dataDir } from "@/lib/env";
import { benchNumber } from "@/scripts/lib/bench-settings";

const seconds = benchNumber("BENCH_SECONDS", 5);
const connections = benchNumber("BENCH_CONNECTIONS", 16);
const rounds = benchNumber("BENCH_ROUNDS", 3);
const tool = (process.env.BENCH_TOOL ?? "auto") as "auto" | "wrk" | "autocannon";
const log = (l: string) => console.log(l);

/**
 * An endpoint to measure. `kind` "shell" is the app's own floor, not an endpoint of the API: the
 * CORS preflight of a static API path (no key, no database, a 204), served by the same Next.js
 * server, build and preload as every endpoint. Its ratio to the empty route is what the app's
 * shell (its size, its routes, lib/runtime/next-preload.cjs) costs; an endpoint's ratio below it
 * is what its own handler costs (authentication, SQL, serialization). It has no target.
 */
type Endpoint = { name: string; kind: "read" | "write" | "shell"; req: Omit<LoadRequest, "url"> & { path: string } };

/** The API key: BENCH_KEY, else the demo admin key of `dir`. */
function demoKey(dir: string): string {
  if (process.env.BENCH_KEY) return process.env.BENCH_KEY;
  const file = path.join(dir, "demo-credentials.json");
  if (!fs.existsSync(file)) throw new Error(`No BENCH_KEY and no ${file}: start the service once (npm start) or set BENCH_KEY.`);
  return JSON.parse(fs.readFileSync(file, "utf8")).api_keys.admin.key;
}

async function call<T>(base: string, key: string, p: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const r = await fetch(`${base}${p}`, {
    method: init.method ?? "GET",
    headers: { authorization: key, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!r.ok) throw new Error(`${init.method ?? "GET"} ${p} answered ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
}

type Listed = { data: Array<{ id: number; questions?: Array<{ id: number; choices?: string[] }> }> };

/** The endpoints to measure, with ids found through the API itself (the demo team's data). */
async function endpoints(base: string, key: string): Promise<Endpoint[]> {
  // BENCH_ONLY: substrings of the endpoint names to measure ("|" between several); all when unset.
  const only = process.env.BENCH_ONLY?.split("|").filter(Boolean);
  const wanted = (name: string) => !only?.length || only.some((o) => name.includes(o));
  const standups = await call<Listed>(base, key, "/v2/standups?include=questions&limit=25");
  const polls = await call<Listed>(base, key, "/v2/polls?limit=5").catch(() => ({ data: [] }) as Listed);
  const reports = await call<Listed>(base, key, "/v2/reports?limit=1");
  const standup = standups.data.find((s) => s.questions?.length) ?? standups.data[0];
  const get = (name: string, p = name): Endpoint => ({ name, kind: "read", req: { path: p } });
  const list: Endpoint[] = [
    { name: "OPTIONS /v2/reports (app shell)", kind: "shell", req: { path: "/v2/reports", method: "OPTIONS" } },
    get("/v1/me"),
    get("/v2/reports?limit=25"),
    get("/v2/reports?limit=100"),
    get("/v2/standups?include=questions"),
    get("/v1/reports/?limit=30"),
  ];
  if (reports.data[0]) list.push(get("/v2/reports/{id}", `/v2/reports/${reports.data[0].id}`));
  if (standup) {
    list.push(get("/v2/standups/{id}?include=questions", `/v2/standups/${standup.id}?include=questions`));
    list.push(get("/v2/standups/{id}/participation", `/v2/standups/${standup.id}/participation`));
  }
  if (polls.data[0]) list.push(get("/v2/polls/{id}/votes", `/v2/polls/${polls.data[0].id}/votes`));

  // Writes: submit a report to a standup of the caller (a new report per request), and edit the
  // caller's reports in turn, 4 per connection so that two connections rarely edit one report at
  // once: concurrent edits of one report would measure how they queue on its row lock (and retry
  // the optimistic edit under it, lib/domain/report-edit.ts), which no team does.
  // The writes' reports are created only when a write is measured (BASE_URL may be a real app).
  if (standup?.questions?.length && (wanted("POST /v2/reports") || wanted("PATCH /v2/reports/{id} ("))) {
    // A multiple-choice question takes one of its choices (issue 41). A second POST of the caller
    // for a run they already answered edits that report (issue 41): on a day the standup runs,
    // this measures the edit path of POST after the first request.
    const body = {
      standup_id: standup.id,
      answers: standup.questions.map((q) => ({ question_id: q.id, text: q.choices?.[0] ?? "Benchmark answer" })),
    };
    try {
      const created: number[] = [];
      for (let i = 0; i < 4 * connections; i++)
        created.push((await call<{ data: { id: number } }>(base, key, "/v2/reports", { method: "POST", body })).data.id);
      list.push({ name: "POST /v2/reports", kind: "write", req: { path: "/v2/reports", method: "POST", body: JSON.stringify(body) } });
      // Every edit changes the report's text (two texts in turn), so each one is a real edit: its
      // broadcast goes back to pending and is delivered again. An edit that leaves the text as it
      // is sends nothing (lib/domain/outbox-reports.ts reportBroadcastEditSql).
      const questionId = standup.questions[0].id;
      const patchOf = (text: string) => ({ answers: [{ question_id: questionId, text }] });
      const patch = patchOf("Edited by the benchmark");
      for (const id of created) await call(base, key, `/v2/reports/${id}`, { method: "PATCH", body: patch });
      list.push({
        name: `PATCH /v2/reports/{id} (${created.length} reports)`,
        kind: "write",
        req: {
          path: `/v2/reports/${created[0]}`,
          paths: created.map((id) => `/v2/reports/${id}`),
          method: "PATCH",
          body: JSON.stringify(patch),
          bodies: [patchOf("Edited by the benchmark, again"), patch].map((b) => JSON.stringify(b)),
        },
      });
    } catch (err) {
      log(`(writes not measured: ${(err as Error).message})`);
    }
  }
  return list.filter((e) => wanted(e.name));
}

const fmt = (v: number, d = 0) => (Number.isFinite(v) ? v.toFixed(d) : "-");

async function main(): Promise<void> {
  const appPort = benchNumber("BENCH_PORT", 3801);
  const emptyPort = benchNumber("BENCH_EMPTY_PORT", 3803);
  const stops: Array<() => Promise<void>> = [];
  const cleanup = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void cleanup().finally(() => process.exit(130)));
  try {
    let base = process.env.BASE_URL?.replace(/\/$/, "");
    let keyDir = dataDir();
    if (!base) {
      const app = await startApp(appPort, log, { RATE_LIMIT_API_PER_MINUTE: process.env.BENCH_RATE_LIMIT ?? "100000000" });
      stops.push(app.stop);
      base = app.url;
      keyDir = app.dataDir;
    }
    const empty = await startEmptyRoute(emptyPort, log);
    stops.push(empty.stop);
    const key = demoKey(keyDir);
    const list = await endpoints(base, key);
    const headers = { authorization: key, "content-type": "application/json" };
    const emptyReq: LoadRequest = { url: `${empty.url}/ping`, headers: { authorization: key } };
    const load = (req: LoadRequest, s = seconds) => runLoad(req, { connections, seconds: s, tool });

    log(
      `\nLoad tool: ${tool === "autocannon" || !findWrk() ? "autocannon" : "wrk -t1"}, ${connections} connections, ${seconds} s per run, ` +
        `${rounds} alternating rounds (empty route, endpoint) per endpoint; app ${base}, empty route ${emptyReq.url}\n`,
    );
    await load(emptyReq, 2); // warm-up of the baseline
    const rows: string[][] = [];
    for (const e of list) {
      const req: LoadRequest = {
        url: `${base}${e.req.path}`,
        paths: e.req.paths,
        method: e.req.method,
        body: e.req.body,
        bodies: e.req.bodies,
        headers,
      };
      await load(req, 2); // warm-up (JIT, pools, route compilation)
      const base_: LoadResult[] = [];
      const mine: LoadResult[] = [];
      const cpu: CpuSample[] = [];
      for (let r = 0; r < rounds; r++) {
        // A write's run leaves delivery jobs behind; the empty route is measured once they are done,
        // not while the worker shares the CPU with it (that made the baseline low and the ratio high).
        if (e.kind === "write") await waitForIdleJobs(keyDir, log, { what: `the delivery jobs of ${e.name}` });
        base_.push(await load(emptyReq));
        const before = cpuSample();
        mine.push(await load(req));
        const perRequest = cpuPerRequest(before, cpuSample(), mine[r].requests);
        if (perRequest) cpu.push(perRequest);
      }
      const ratio = median(mine.map((m, i) => m.rps / base_[i].rps));
      const p50 = median(mine.map((m) => m.p50));
      const p99 = median(mine.map((m) => m.p99));
      // The empty route's own tail in the same rounds: how much of p99/p50 the framework and the
      // machine (GC, the CPU shared with PostgreSQL and the load tool) leave before our code runs.
      const emptyTail = median(base_.map((b) => b.p99 / b.p50));
      const target = e.kind === "read" ? 0.6 : e.kind === "write" ? 0.4 : undefined;
      const non2xx = mine.reduce((s, m) => s + m.non2xx, 0);
      const row = [
        e.name,
        e.kind,
        fmt(median(base_.map((b) => b.rps))),
        fmt(median(mine.map((m) => m.rps))),
        fmt(ratio, 2),
        non2xx > 0 ? "INVALID (non-2xx)" : target === undefined ? "(floor)" : `${ratio >= target ? "ok" : "MISS"} (≥${target})`,
        fmt(p50, 1),
        fmt(p99, 1),
        fmt(p99 / p50, 1),
        e.kind === "shell" ? "-" : p99 <= 3 * p50 ? "ok" : "MISS",
        fmt(emptyTail, 1),
        String(non2xx),
        cpu.length ? fmt(median(cpu.map((c) => c.next)), 2) : "-",
        cpu.length ? fmt(median(cpu.map((c) => c.postgres)), 2) : "-",
      ];
      rows.push(row);
      log(
        `${row[0]}: ${row[3]} req/s = ${row[4]}× the empty route (${row[2]} req/s); p50 ${row[6]} ms, p99 ${row[7]} ms (p99/p50 ${row[8]}, the empty route's ${row[10]})`,
      );
    }
    log("");
    printTable(
      [
        "endpoint",
        "kind",
        "empty req/s",
        "req/s",
        "ratio",
        "target",
        "p50 ms",
        "p99 ms",
        "p99/p50",
        "≤3×",
        "empty p99/p50",
        "non-2xx",
        "Node ms/req",
        "PG ms/req",
      ],
      rows,
    );
    log(
      "\nNode ms/req, PG ms/req: CPU time of the Next.js and PostgreSQL processes per request during the endpoint's runs (median;\n" +
        "lib/bench/cpu.ts). Node's one thread bounds an endpoint when Node ms/req × req/s ≈ 1,000 ms per second.\n" +
        "empty p99/p50: the empty route's own p99 ÷ p50 in the same rounds (median), the tail the framework and the machine leave.\n" +
        "app shell: the app's own CORS preflight (no key, no database): what the app's server costs before any handler runs.",
    );
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
