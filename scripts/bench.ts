/**
 * `npm run bench`: load-tests the hot read endpoints of a running server (npm start) with
 * autocannon and prints requests/s and latency percentiles (milliseconds) per endpoint.
 * Performance targets are checked with these numbers, not with timed tests.
 *
 * Env: BASE_URL (default http://localhost:3000), BENCH_KEY (default: the demo admin key from
 * .data/demo-credentials.json), BENCH_SECONDS per endpoint (default 5), BENCH_CONNECTIONS (10).
 */
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { dataDir } from "@/lib/env";

const base = (process.env.BASE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

function demoKey(): string {
  if (process.env.BENCH_KEY) return process.env.BENCH_KEY;
  const file = path.join(dataDir(), "demo-credentials.json");
  if (!fs.existsSync(file)) throw new Error(`No BENCH_KEY and no ${file}: start the service once (npm start) or set BENCH_KEY.`);
  return JSON.parse(fs.readFileSync(file, "utf8")).api_keys.admin.key;
}

async function getJson(url: string, key: string): Promise<{ data: Array<{ id: number }> }> {
  const r = await fetch(`${base}${url}`, { headers: { authorization: key } });
  if (!r.ok) throw new Error(`${url} answered ${r.status}: ${await r.text()}`);
  return r.json();
}

const key = demoKey();
const standups = await getJson("/v2/standups?limit=5", key);
const polls = await getJson("/v2/polls?limit=5", key).catch(() => ({ data: [] }));
const standupId = standups.data[0]?.id;
const pollId = polls.data[0]?.id;

const endpoints = [
  "/v1/me",
  "/v2/standups?include=questions,member_email",
  "/v2/reports",
  "/v2/reports?view=summary&limit=100",
  "/v1/reports/?limit=100",
  ...(standupId ? [`/v2/standups/${standupId}`, `/v2/standups/${standupId}/participation`] : []),
  ...(pollId ? [`/v2/polls/${pollId}/votes`] : []),
];

console.log(`Benchmarking ${base} — ${seconds}s per endpoint, ${connections} connections\n`);
console.log(
  `${"endpoint".padEnd(48)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p97.5 ms".padStart(9)} ${"p99 ms".padStart(8)} ${"non-2xx".padStart(8)}`,
);
for (const url of endpoints) {
  const result = await autocannon({ url: `${base}${url}`, connections, duration: seconds, headers: { authorization: key } });
  console.log(
    `${url.padEnd(48)} ${result.requests.average.toFixed(0).padStart(8)} ${String(result.latency.p50).padStart(8)} ${String(result.latency.p97_5).padStart(9)} ${String(
      result.latency.p99,
    ).padStart(8)} ${String(result.non2xx).padStart(8)}`,
  );
}
