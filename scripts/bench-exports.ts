/**
 * `npm run bench:exports`: streams the CSV exports of a large generated team (lib/bench/generate.ts:
 * 500 people, 50 standups) through the same code as GET /exports/*.csv (lib/domain/exports.ts +
 * lib/api/csv.ts) and prints, per export: rows, megabytes, seconds, rows/s, and the JavaScript
 * heap and RSS before, at their peak while streaming (sampled at every chunk) and after — so you
 * can see that memory stays flat while a year of data goes through. Numbers only, no pass/fail.
 * Starts a throwaway embedded PostgreSQL (temp folder, removed at the end).
 *
 * Env: BENCH_REPORTS (team-A report target, default 150000; sets the history length).
 */
import { csvResponse } from "@/lib/api/csv";
import * as gen from "@/lib/bench/generate";
import { printTable } from "@/lib/bench/stats";
import type { Actor } from "@/lib/domain/actor";
import { type CsvExport, exportParticipation, exportReports } from "@/lib/domain/exports";
import { runOnBenchData } from "@/scripts/lib/bench-run";
import { benchNumber } from "@/scripts/lib/bench-settings";

const REPORTS = benchNumber("BENCH_REPORTS", 150_000);
const DAY = 86_400_000;
const MB = 1024 * 1024;

/** Streams one export to nowhere, sampling memory at every chunk. */
async function measure(name: string, exp: CsvExport): Promise<string[]> {
  global.gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  let bytes = 0;
  let lines = 0;
  const t = performance.now();
  const reader = csvResponse("bench.csv", exp).body?.getReader();
  if (!reader) throw new Error("no body");
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const b of value) if (b === 10) lines++;
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }
  const seconds = (performance.now() - t) / 1000;
  const after = process.memoryUsage();
  const rows = lines - 1;
  return [
    name,
    rows.toLocaleString("en-US"),
    (bytes / MB).toFixed(1),
    seconds.toFixed(1),
    Math.round(rows / seconds).toLocaleString("en-US"),
    `${(before.heapUsed / MB).toFixed(0)} / ${(peakHeap / MB).toFixed(0)} / ${(after.heapUsed / MB).toFixed(0)}`,
    `${(before.rss / MB).toFixed(0)} / ${(peakRss / MB).toFixed(0)} / ${(after.rss / MB).toFixed(0)}`,
  ];
}

await runOnBenchData("bench-exports", REPORTS, async () => {
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
  rows.push(await measure("reports, one row per answer, 365 days", await exportReports(lead, { since: yearAgo, until: now }, "answers")));
  rows.push(await measure("reports, one row per report, 365 days", await exportReports(lead, { since: yearAgo, until: now }, "reports")));
  rows.push(
    await measure(
      "participation per occurrence, 365 days",
      await exportParticipation(lead, { since: day(yearAgo), until: day(now) }, "occurrence"),
    ),
  );
  rows.push(
    await measure(
      "participation per member, 365 days",
      await exportParticipation(lead, { since: day(yearAgo), until: day(now) }, "member"),
    ),
  );
  console.log("");
  printTable(["export", "rows", "MB", "s", "rows/s", "heap MB before/peak/after", "RSS MB before/peak/after"], rows);
});
