/**
 * `npm run import -- geekbot --key <admin API key | -> --team <local team id> [--base-url URL] [--dry-run]
 * [--since YYYY-MM-DD]`: imports a team from Geekbot's public API (or any server speaking it) into
 * one local team (issue 43, lib/import/geekbot/run.ts). Safe to run again (only what is new is
 * imported); a run stopped by the source resumes where it stopped. Nothing is sent to anyone.
 * Exits 1 with a clear message on bad input, a refused key (nothing written) or a failing source.
 */
import fs from "node:fs";
import { SourceAuthError, SourceResponseError, SourceUnavailableError } from "@/lib/import/geekbot/client";
import { formatSummary } from "@/lib/import/geekbot/context";
import { GEEKBOT_API_URL, importFromGeekbot } from "@/lib/import/geekbot/run";
import { exitWithUsage, parseCommandLine, runWithDatabase } from "@/lib/runtime/cli";

const USAGE = `Usage: npm run import -- geekbot --key <admin API key of the source, or - to read it from stdin> --team <local team id>
         [--base-url ${GEEKBOT_API_URL}] [--dry-run] [--since YYYY-MM-DD]`;

const parsed = parseCommandLine(
  USAGE,
  {
    options: {
      key: { type: "string" },
      team: { type: "string" },
      "base-url": { type: "string" },
      "dry-run": { type: "boolean" },
      since: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    allowPositionals: true,
  },
  1,
);
const values = parsed.values;
const fail = (message: string): never => exitWithUsage(USAGE, message, 1);
if (parsed.positionals[0] !== "geekbot")
  fail(`Unknown source ${JSON.stringify(parsed.positionals[0] ?? "")}: only "geekbot" is supported.`);
// `--key -` reads the key from standard input (keeps it out of the shell history and `ps`).
const rawKey = values.key === "-" ? fs.readFileSync(0, "utf8") : values.key;
const key = rawKey?.trim() || fail(values.key === "-" ? "Missing --key: standard input was empty." : "Missing --key.");
const teamId = Number(values.team);
if (!Number.isInteger(teamId) || teamId <= 0) fail(`--team must be a numeric local team id, got ${JSON.stringify(values.team ?? "")}.`);
const baseUrl = values["base-url"] ?? GEEKBOT_API_URL;
if (!/^https?:\/\/[^/]/.test(baseUrl)) fail(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}.`);
let since: Date | null = null;
if (values.since !== undefined) {
  since = /^\d{4}-\d{2}-\d{2}$/.test(values.since) ? new Date(`${values.since}T00:00:00Z`) : null;
  if (!since || Number.isNaN(since.getTime())) fail(`--since must be a date YYYY-MM-DD, got ${JSON.stringify(values.since)}.`);
}

await runWithDatabase(
  "import",
  async () => {
    const result = await importFromGeekbot({
      baseUrl,
      key,
      teamId,
      dryRun: values["dry-run"] ?? false,
      since,
      log: (line) => console.log(line),
      onRetry: ({ path, status, waitMs }) =>
        console.log(`  source answered ${status ?? "no response"} on ${path}: retrying in ${(waitMs / 1000).toFixed(1)} s`),
    });
    for (const line of formatSummary(result, { dryRun: result.dryRun })) console.log(line);
    console.log(`  source requests: ${result.http.requests} (${result.http.retries} retries, ${result.http.rateLimited} rate-limited)`);
  },
  (err) => {
    if (err instanceof SourceAuthError) console.error(`${err.message}\nNothing was written.`);
    else if (err instanceof SourceUnavailableError)
      console.error(`Stopped: ${err.message}\nWhat was imported is kept; run the same command again to resume.`);
    else if (err instanceof SourceResponseError) console.error(`Stopped: ${err.message}`);
    else console.error(`Import failed: ${(err as Error).message}`);
  },
);
