/**
 * `npm run bench:dashboard` (issue 49, "Dashboards at a large team's size"): the dashboard pages of
 * a large team, through HTTP with a signed-in session, against the production server.
 *
 * 1. A throwaway embedded PostgreSQL with pg_stat_statements preloaded (started, configured, started
 *    again), migrated and filled with the large team (lib/bench/generate-large.ts: 1,000 people,
 *    100 standups, 10 polls, two years of runs, about BENCH_REPORTS reports); user 1 (the admin)
 *    gets a password.
 * 2. The app as `npm start` runs it (scripts/start.ts: build when missing, the service, the worker,
 *    `next start` with its preload) on that database, no demo seed.
 * 3. Sign-in through next-auth's credentials flow (CSRF token, POST /api/auth/callback/credentials).
 * 4. One warm-up round, then BENCH_ROUNDS rounds: each dashboard page alternately with the sign-in
 *    page (a page of the same app that reads nothing). Per page: median TTFB (response headers) and
 *    median full response time (ms), HTML bytes, SQL statements per request (pg_stat_statements
 *    calls before/after the request, of the web server's role only: the worker connects as another
 *    role through DIRECT_DATABASE_URL; the bench's own reads excluded; the sign-in page's count is the
 *    background noise), the sign-in page's median TTFB in the same rounds,
 *    the ratio, and a verdict per target: TTFB ≤ 300 ms, ≤ 10× the sign-in page, HTML ≤ 300 KB,
 *    the full response ≤ 300 ms too (a streamed page sends its headers before its data),
 *    SQL ≤ BENCH_SQL_MAX statements (default 30).
 * 5. Largest Contentful Paint of the overview, a standup's page and participation in headless
 *    Chromium (Playwright, the system Chromium as playwright.config.ts uses), target ≤ 1.5 s.
 * 6. Resident memory (VmRSS) of the web server, the worker and PostgreSQL (all its processes).
 *
 * Env: BENCH_REPORTS (default 100000, about a minute of generation here; 1000000 is the issue's
 * size), BENCH_ROUNDS (default 5), BENCH_SQL_MAX (default 30), BENCH_PORT (default 3917).
 * Exit code 0 when it ran (misses are printed as verdicts), 1 when it failed.
 */

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import pg from "pg";
import { hashPassword } from "@/lib/auth/password";
import { generateBenchData } from "@/lib/bench/generate";
import { LARGE, LARGE_FIRST_POLL_ID } from "@/lib/bench/generate-large";
import { median, printTable } from "@/lib/bench/stats";
import { childEnv } from "@/lib/env";
import { startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";
import { stopProcess, waitForHttp } from "@/lib/runtime/processes";
import { benchNumber } from "@/scripts/lib/bench-settings";
import { signInWithPassword } from "@/scripts/lib/dashboard-session";
import { makeTempDir } from "@/scripts/throwaway";

const REPORTS = benchNumber("BENCH_REPORTS", 100_000);
const ROUNDS = benchNumber("BENCH_ROUNDS", 5);
const SQL_MAX = benchNumber("BENCH_SQL_MAX", 30);
const PORT = benchNumber("BENCH_PORT", 3917);
const PASSWORD = "bench-dashboard-password-1";
const EMAIL = `user${LARGE.adminUserId}@large.example`;
const root = process.cwd();
const log = (l: string) => console.log(l);

const today = new Date().toISOString().slice(0, 10);
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
/** The dashboard pages measured, by name. */
const PAGES: Array<[string, string]> = [
  ["overview", "/overview"],
  ["standups", "/standups"],
  ["a standup's page", "/standups/1"],
  ["reports", "/reports"],
  ["reports, standup + member + 90 days", `/reports?standup=1&member=UL0000002&from=${ago(90)}&to=${today}`],
  ["reports, search", "/reports?q=staging"],
  ["participation (30 days)", "/participation"],
  ["participation (90 days)", "/participation?days=90"],
  ["participation, one standup, 90 days", "/participation?standup=1&days=90"],
  ["a member's page", "/members/UL0000002"],
  ["blockers", "/blockers"],
  ["polls", "/polls"],
  ["a poll's page", `/polls/${LARGE_FIRST_POLL_ID}`],
  ["channels", "/channels"],
  ["team", "/team"],
  ["team members", "/team/members"],
  ["audit log", "/team/audit"],
];
const STATIC = "/sign-in";
const LCP_PAGES = ["/overview", "/standups/1", "/participation"];

/** Resident memory of `pid` in MB (VmRSS), 0 when it is gone. */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Proportional set size of `pid` in MB (smaps_rollup Pss: shared pages split among their users), 0 when it is gone. */
function pssMb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** `pid` and all its descendants (Linux /proc). */
function tree(pid: number): number[] {
  let kids: number[] = [];
  try {
    kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    /* gone */
  }
  return [pid, ...kids.flatMap(tree)];
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** The role the worker connects as (its DIRECT_DATABASE_URL), so its statements can be told apart. */
const WORKER_ROLE = "bench_worker";

/**
 * SQL statements the web server executed so far (pg_stat_statements): those of the database's own
 * role (the worker connects as WORKER_ROLE), this script's own statements excluded.
 */
async function statements(raw: pg.Client): Promise<number> {
  const { rows } = await raw.query<{ n: string }>(
    `SELECT coalesce(sum(calls), 0)::bigint AS n FROM pg_stat_statements
     WHERE userid = (SELECT oid FROM pg_roles WHERE rolname = current_user) AND query NOT LIKE '%pg_stat_statements%'`,
  );
  return Number(rows[0].n);
}

/** One GET with the cookie: ms to the response headers (TTFB), ms to the last byte, bytes, status, SQL statements. */
async function measure(url: string, cookie: string, raw: pg.Client) {
  const before = await statements(raw);
  const t0 = performance.now();
  const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
  const ttfb = performance.now() - t0;
  const body = await res.arrayBuffer();
  const total = performance.now() - t0;
  const sql = (await statements(raw)) - before;
  return { ttfb, total, bytes: body.byteLength, status: res.status, sql };
}

const t0 = performance.now();
const dir = makeTempDir("checkin-bench-dashboard-");
const dbDir = path.join(dir, "db");
const dataDir = path.join(dir, "app");
fs.mkdirSync(dataDir);
let exitCode = 0;
let database = await startEmbeddedPostgres({ dir: dbDir, purpose: "bench-dashboard", persistent: true, archive: false });
let app: ReturnType<typeof spawn> | null = null;
let raw = new pg.Client({ connectionString: database.url });
try {
  // pg_stat_statements must be preloaded: configure it, then start PostgreSQL again.
  const setup = new pg.Client({ connectionString: database.url });
  await setup.connect();
  await setup.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
  await setup.end();
  await database.stop();
  database = await startEmbeddedPostgres({ dir: dbDir, purpose: "bench-dashboard", persistent: true, archive: false });
  await applyMigrations(database.url);
  raw = new pg.Client({ connectionString: database.url }); // the new start has a new port
  await raw.connect();
  await raw.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  const workerUrl = new URL(database.url);
  await raw.query(`CREATE ROLE ${WORKER_ROLE} LOGIN SUPERUSER PASSWORD '${decodeURIComponent(workerUrl.password).replaceAll("'", "''")}'`);
  workerUrl.username = WORKER_ROLE;
  console.log(`Generating the large team (BENCH_REPORTS=${REPORTS}; 1000000 is the issue's size)…`);
  const tg = performance.now();
  const g = await generateBenchData(raw, { reports: REPORTS, log, large: true });
  const genSeconds = (performance.now() - tg) / 1000;
  console.log(`Data: ${g.days} days of history, generated in ${genSeconds.toFixed(0)} s`);
  printTable(
    ["table", "rows"],
    Object.entries(g.counts).map(([k, v]) => [k, v.toLocaleString("en-US")]),
  );
  await raw.query("UPDATE users SET password_hash = $1 WHERE id = $2", [await hashPassword(PASSWORD), LARGE.adminUserId]);

  // ------------------------------------------------------------ the app, as npm start runs it
  log(`Starting the app (npm start) on port ${PORT}, data folder ${dataDir} …`);
  app = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts")], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: childEnv({
      CHECKIN_DATA_DIR: dataDir,
      PORT: String(PORT),
      DATABASE_URL: database.url,
      DIRECT_DATABASE_URL: workerUrl.toString(), // the worker's connections (and migrations, LISTEN/NOTIFY)
      CHECKIN_DEMO: "false",
      AUTH_SECRET: "bench-dashboard-secret-0123456789abcdef",
      LOG_LEVEL: "warn",
    }),
  });
  const base = `http://127.0.0.1:${PORT}`;
  await waitForHttp(`${base}/sign-in`, app, 900_000);

  // ------------------------------------------------------------ sign-in (next-auth credentials)
  const signIn = await signInWithPassword(base, EMAIL, PASSWORD);
  const cookie = signIn.cookie;
  const session = (await (await fetch(`${base}/api/auth/session`, { headers: { cookie } })).json()) as { user?: { email?: string } };
  if (session.user?.email !== EMAIL) throw new Error(`sign-in failed (${signIn.status}): ${JSON.stringify(session)}`);
  log(`Signed in as ${EMAIL}.`);

  // ------------------------------------------------------------ the pages, alternating with the static page
  type Sample = Awaited<ReturnType<typeof measure>>;
  const samples = new Map<string, { page: Sample[]; stat: Sample[] }>(PAGES.map(([n]) => [n, { page: [], stat: [] }]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, p] of PAGES) {
      const stat = await measure(base + STATIC, "", raw);
      const page = await measure(base + p, cookie, raw);
      if (page.status !== 200) throw new Error(`${p} answered ${page.status}`);
      if (round === 0) continue; // warm-up
      samples.get(name)?.stat.push(stat);
      samples.get(name)?.page.push(page);
    }
    log(round === 0 ? "warm-up round done" : `round ${round}/${ROUNDS} done`);
  }
  const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

  const rows: string[][] = [];
  const misses: string[] = [];
  const allStatic = [...samples.values()].flatMap((s) => s.stat);
  for (const [name, p] of PAGES) {
    const s = samples.get(name) as { page: Sample[]; stat: Sample[] };
    const ttfb = median(s.page.map((x) => x.ttfb));
    const total = median(s.page.map((x) => x.total));
    const stat = median(s.stat.map((x) => x.ttfb));
    const kb = median(s.page.map((x) => x.bytes)) / 1024;
    const sql = median(s.page.map((x) => x.sql));
    const verdict = [
      ttfb <= 300 ? "" : "TTFB>300ms",
      total <= 300 ? "" : "full>300ms",
      ttfb <= 10 * stat ? "" : "TTFB>10×static",
      kb <= 300 ? "" : "HTML>300KB",
      sql <= SQL_MAX ? "" : `SQL>${SQL_MAX}`,
    ].filter(Boolean);
    if (verdict.length) misses.push(`${name}: ${verdict.join(", ")}`);
    rows.push([
      name,
      p,
      ttfb.toFixed(0),
      total.toFixed(0),
      kb.toFixed(0),
      String(sql),
      stat.toFixed(1),
      `${(ttfb / stat).toFixed(1)}×`,
      verdict.length ? `MISS ${verdict.join(", ")}` : "ok",
    ]);
  }
  console.log(
    `\n== Dashboard pages (medians of ${ROUNDS} rounds, each page alternating with ${STATIC}; load average ${load}; ${g.counts.reports.toLocaleString("en-US")} reports)`,
  );
  printTable(["page", "path", "TTFB ms", "full ms", "HTML KB", "SQL", "static TTFB ms", "ratio", "verdict"], rows);
  console.log(
    `Static page ${STATIC}: median TTFB ${median(allStatic.map((x) => x.ttfb)).toFixed(1)} ms, ${(median(allStatic.map((x) => x.bytes)) / 1024).toFixed(0)} KB, ` +
      `SQL statements per request (the web server's background noise) median ${median(allStatic.map((x) => x.sql))}, max ${Math.max(...allStatic.map((x) => x.sql))}`,
  );

  // ------------------------------------------------------------ LCP in headless Chromium
  const executablePath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));
  const browser = await chromium.launch({ executablePath });
  const context = await browser.newContext();
  await context.addCookies(signIn.cookies.map(([name, value]) => ({ name, value, url: base })));
  const lcpRows: string[][] = [];
  for (const p of LCP_PAGES) {
    const values: number[] = [];
    for (let i = 0; i < 3; i++) {
      const tab = await context.newPage();
      await tab.goto(base + p, { waitUntil: "load" });
      const lcp = await tab.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let last = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries()) last = e.startTime;
            }).observe({ type: "largest-contentful-paint", buffered: true });
            setTimeout(() => resolve(last), 500);
          }),
      );
      values.push(lcp);
      await tab.close();
    }
    const m = median(values);
    if (m > 1500) misses.push(`${p}: LCP>1.5s`);
    lcpRows.push([p, m.toFixed(0), values.map((v) => v.toFixed(0)).join(", "), m <= 1500 ? "ok" : "MISS LCP>1.5s"]);
  }
  await browser.close();
  console.log("\n== Largest Contentful Paint (headless Chromium, 3 loads each)");
  printTable(["page", "LCP median ms", "loads ms", "verdict"], lcpRows);

  // ------------------------------------------------------------ resident memory
  const procs = tree(app.pid as number).map((pid) => ({ pid, cmd: cmdline(pid), rss: rssMb(pid) }));
  const web = procs.filter((x) => /next(-server|\/dist\/bin\/next| start)/.test(x.cmd) && !/scripts\/start\.ts/.test(x.cmd));
  const worker = procs.filter((x) => x.cmd.includes("worker-process.ts"));
  const postmaster = Number(fs.readFileSync(path.join(dbDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  const pgProcs = tree(postmaster);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const webMb = sum(web.map((x) => x.rss));
  const workerMb = sum(worker.map((x) => x.rss));
  console.log(`\n== Resident memory after the run (VmRSS)`);
  printTable(
    ["process", "RSS MB", "target", "verdict"],
    [
      [`web server (next start, pid ${web.map((x) => x.pid).join(",")})`, webMb.toFixed(0), "≤ 400", webMb <= 400 ? "ok" : "MISS"],
      [`worker (pid ${worker.map((x) => x.pid).join(",")})`, workerMb.toFixed(0), "≤ 250", workerMb <= 250 ? "ok" : "MISS"],
      [
        `PostgreSQL (${pgProcs.length} processes, RSS summed: shared buffers counted in each)`,
        sum(pgProcs.map(rssMb)).toFixed(0),
        "-",
        "-",
      ],
      [`PostgreSQL (${pgProcs.length} processes, Pss summed: shared pages counted once)`, sum(pgProcs.map(pssMb)).toFixed(0), "-", "-"],
      ["PostgreSQL postmaster", rssMb(postmaster).toFixed(0), "-", "-"],
    ],
  );
  console.log(misses.length ? `\nMisses:\n  ${misses.join("\n  ")}` : "\nEvery page meets its targets.");
  console.log(`\nTotal ${((performance.now() - t0) / 1000).toFixed(0)} s (generation ${genSeconds.toFixed(0)} s); load average ${load}`);
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  if (app) await stopProcess(app, 60_000).catch(() => {});
  await raw.end().catch(() => {});
  await database.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
