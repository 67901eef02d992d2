/**
 * `npm run bench:exports`: streams the CSV exports of a large generated team (lib/bench/generate.ts:
 * 500 people, 50 standups) through the same code as GET /exports/*.csv (lib/domain/exports.ts +
 * lib/api/csv.ts) and prints, per export: rows, megabytes, seconds, rows/s, and the JavaScript
 * heap and RSS before, at their peak while streaming (sampled at every chunk) and after — so you
 * can see that memory stays flat while a year of data goes through — and the time to the first
 * byte. Beside the one-row-per-answer export it streams PostgreSQL's own
 * `COPY (the same rows) TO STDOUT WITH CSV` (pg-copy-streams) in the same run and prints both rates
 * and their ratio with a verdict against issue 49's targets (≥ 0.25× COPY, RSS growth ≤ 50 MB,
 * first byte ≤ 1 s). Starts a throwaway embedded PostgreSQL (temp folder, removed at the end).
 *
 * Env: BENCH_REPORTS (team-A report target, default 150000; sets the history length).
 */
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { csvResponse } from "@/lib/api/csv";
import * as gen from "@/lib/bench/generate";
import { printTable } from "@/lib/bench/stats";
import type { Actor } from "@/lib/domain/actor";
import { readableStandupIds } from "@/lib/domain/blockers";
import { type CsvExport, exportParticipation, exportReports } from "@/lib/domain/exports";
import { runOnBenchData } from "@/scripts/lib/bench-run";
import { benchNumber } from "@/scripts/lib/bench-settings";

const REPORTS = benchNumber("BENCH_REPORTS", 150_000);
const DAY = 86_400_000;
const MB = 1024 * 1024;

/** What one streamed export measured (rows/s, RSS growth in MB, first byte in ms). */
type Measured = { row: string[]; rate: number; rssGrowthMb: number; firstByteMs: number };

/**
 * Reads a CSV byte stream to nowhere, sampling memory at every chunk: rows (lines − header) per
 * second, first-byte time (ms), and heap / RSS (MB) before, at their peak and after.
 */
async function measureStream(name: string, chunks: AsyncIterable<Uint8Array>): Promise<Measured> {
  global.gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  let bytes = 0;
  let lines = 0;
  let firstByteMs = -1;
  const t = performance.now();
  for await (const value of chunks) {
    if (firstByteMs < 0) firstByteMs = performance.now() - t;
    bytes += value.byteLength;
    for (const b of value) if (b === 10) lines++;
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }
  const seconds = (performance.now() - t) / 1000;
  const after = process.memoryUsage();
  const rows = lines - 1;
  const rate = rows / seconds;
  const mb = (n: number) => (n / MB).toFixed(0);
  return {
    rate,
    rssGrowthMb: (peakRss - before.rss) / MB,
    firstByteMs,
    row: [
      name,
      rows.toLocaleString("en-US"),
      (bytes / MB).toFixed(1),
      seconds.toFixed(1),
      Math.round(rate).toLocaleString("en-US"),
      firstByteMs.toFixed(0),
      `${mb(before.heapUsed)} / ${mb(peakHeap)} / ${mb(after.heapUsed)}`,
      `${mb(before.rss)} / ${mb(peakRss)} / ${mb(after.rss)}`,
    ],
  };
}

/** Streams one export the way GET /exports/*.csv sends it (lib/api/csv.ts). */
function measure(name: string, exp: CsvExport): Promise<Measured> {
  const body = csvResponse("bench.csv", exp).body;
  if (!body) throw new Error("no body");
  return measureStream(name, body as unknown as AsyncIterable<Uint8Array>);
}

/**
 * The rows of the one-row-per-answer export of `teamId`'s submitted reports since `since`, as
 * PostgreSQL's COPY writes them (same columns and order as lib/domain/exports.ts, over the
 * standups the exporting lead may read, `readableStandupIds`): the baseline of issue 49.
 */
function answersCopySql(teamId: number, standupIds: number[], since: Date): string {
  return `COPY (
    SELECT r.id, to_char(r.submitted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), r.checkin_id, c.name,
      CASE WHEN r.is_anonymous THEN '' ELSE u.chat_id END, CASE WHEN r.is_anonymous THEN 'Anonymous' ELSE u.realname END,
      a.question_id, q.text, a.text
    FROM reports r
    JOIN checkins c ON c.id = r.checkin_id
    JOIN users u ON u.id = r.user_id
    JOIN answers a ON a.report_id = r.id
    JOIN questions q ON q.id = a.question_id
    WHERE r.team_id = ${Number(teamId)} AND r.status = 'submitted' AND r.submitted_at >= '${since.toISOString()}'
      AND r.checkin_id = ANY('{${standupIds.map(Number).join(",")}}'::int[])
    ORDER BY r.submitted_at DESC, r.id DESC, q.position, a.question_id
  ) TO STDOUT WITH (FORMAT csv, HEADER)`;
}

/** Streams a COPY … TO STDOUT (pg-copy-streams) to nowhere. */
function measureCopy(name: string, raw: pg.Client, sql: string): Promise<Measured> {
  return measureStream(name, raw.query(copyTo(sql)) as AsyncIterable<Buffer>);
}

await runOnBenchData("bench-exports", REPORTS, async (raw) => {
  const lead: Actor = {
    teamId: gen.TEAM_A,
    userId: gen.LEAD_USER_ID,
    userChatId: `UB${String(gen.LEAD_USER_ID).padStart(7, "0")}`,
    isAdmin: true,
  };
  const now = new Date();
  const yearAgo = new Date(now.getTime() - 365 * DAY);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const rows: string[][] = [];
  const standupIds = await readableStandupIds(lead);
  // The export and PostgreSQL's COPY of the same rows, alternately, twice each (the better of each).
  const ours: Measured[] = [];
  const copies: Measured[] = [];
  for (let round = 0; round < 2; round++) {
    ours.push(await measure("reports, one row per answer, 365 days", await exportReports(lead, { since: yearAgo, until: now }, "answers")));
    copies.push(await measureCopy("COPY (the same rows) TO STDOUT WITH CSV", raw, answersCopySql(gen.TEAM_A, standupIds, yearAgo)));
  }
  const best = (m: Measured[]) => m.reduce((a, b) => (b.rate > a.rate ? b : a));
  const answers = best(ours);
  const copy = best(copies);
  rows.push(answers.row, copy.row);
  rows.push(
    (await measure("reports, one row per report, 365 days", await exportReports(lead, { since: yearAgo, until: now }, "reports"))).row,
  );
  rows.push(
    await measure(
      "participation per occurrence, 365 days",
      await exportParticipation(lead, { since: day(yearAgo), until: day(now) }, "occurrence"),
    ).then((m) => m.row),
  );
  rows.push(
    await measure(
      "participation per member, 365 days",
      await exportParticipation(lead, { since: day(yearAgo), until: day(now) }, "member"),
    ).then((m) => m.row),
  );
  console.log("");
  printTable(["export", "rows", "MB", "s", "rows/s", "first byte ms", "heap MB before/peak/after", "RSS MB before/peak/after"], rows);
  const ratio = answers.rate / copy.rate;
  const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
  console.log("");
  console.log(`one row per answer vs COPY: ${ratio.toFixed(2)}× (target ≥ 0.25×) ${verdict(ratio >= 0.25)}`);
  const growth = Math.max(...ours.map((m) => m.rssGrowthMb)); // the worst round (the first is cold)
  console.log(`RSS growth while streaming: ${growth.toFixed(0)} MB at most (target ≤ 50 MB) ${verdict(growth <= 50)}`);
  console.log(`first byte: ${answers.firstByteMs.toFixed(0)} ms (target ≤ 1000 ms) ${verdict(answers.firstByteMs <= 1000)}`);
});
