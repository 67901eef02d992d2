/**
 * `npm run bench:backup [-- --reports N] [--skip-demo] [--skip-large]`: the backup and restore
 * figures of issue 44, reproducibly, each in throwaway data folders (removed at the end):
 *
 * 1. demo: the demo data of `npm start` (lib/seed); 2. large: the generated team of
 *    `npm run bench:data` (lib/bench/generate.ts) with N team-A reports (default 1,000,000).
 *
 * For each: the data is written with WAL archiving off (the generator's own WAL is not part of
 * a backup), the embedded PostgreSQL is restarted with archiving on as `npm start` runs it, then
 * - the base backup exactly as `npm run backup` takes it (`backupNow`): its size, its time, and the
 *   WAL archived meanwhile;
 * - the restore exactly as `CHECKIN_DATA_DIR=<new folder> npm run restore -- --from <backups>` runs
 *   it (`restoreDatabase` into a NEW data folder): copy and WAL replay time; the restored database
 *   is started and its reports counted against the source;
 * - the logical export of team 1 (`npm run export`, lib/runtime/team-archive.ts): size and time,
 *   and its import into a new empty database (`npm run import-export`; skipped with --skip-import).
 * Prints one line per step and a summary table. Sizes in MB (10^6 bytes), times in seconds.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { generateBenchData } from "@/lib/bench/generate";
import { disconnectDb, getDb } from "@/lib/db";
import { setDatabaseUrl } from "@/lib/env";
import { backupNow } from "@/lib/runtime/backup";
import { type EmbeddedDatabase, startEmbeddedPostgres as startDatabase } from "@/lib/runtime/embedded-postgres";
import { applyMigrations } from "@/lib/runtime/migrate";
import { queryOnce, withPgClient } from "@/lib/runtime/pg-once";
import { restoreDatabase } from "@/lib/runtime/restore";
import { exportTeam } from "@/lib/runtime/team-archive";
import { importTeam } from "@/lib/runtime/team-archive-import";
import { seedDemoData } from "@/lib/seed/index";
import { makeTempDir } from "@/scripts/throwaway";

const { values } = parseArgs({
  options: {
    reports: { type: "string", default: "1000000" },
    "skip-demo": { type: "boolean", default: false },
    "skip-large": { type: "boolean", default: false },
    "skip-import": { type: "boolean", default: false },
  },
  strict: true,
});
const REPORTS = Number(values.reports);
if (!Number.isInteger(REPORTS) || REPORTS < 1000) {
  console.error("--reports must be a whole number >= 1000");
  process.exit(2);
}

type Figures = {
  label: string;
  fillSeconds: number;
  reports: number;
  databaseBytes: number;
  backupBytes: number;
  backupSeconds: number;
  walBytes: number;
  restoreSeconds: number;
  copySeconds: number;
  replaySeconds: number;
  restoredReports: number;
  exportBytes: number;
  exportSeconds: number;
  importSeconds: number | null;
};

const folders: string[] = [];
const running = new Set<EmbeddedDatabase>();

/** Starts an embedded PostgreSQL that a signal stops too. */
async function startEmbeddedPostgres(opts: Parameters<typeof startDatabase>[0]): Promise<EmbeddedDatabase> {
  const database = await startDatabase(opts);
  running.add(database);
  const stop = database.stop;
  database.stop = async () => {
    running.delete(database);
    await stop();
  };
  return database;
}
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    void Promise.allSettled([...running].map((d) => d.stop())).finally(() => {
      for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
      process.exit(130);
    });
  });
}
const started = performance.now();
const log = (l: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(5)} s] ${l}`);
const mb = (b: number) => (b / 1e6).toFixed(1);

/** Seconds `fn` takes, with its result. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const t = performance.now();
  const value = await fn();
  return { value, seconds: (performance.now() - t) / 1000 };
}

/** One measurement: fill a new data folder with `fill`, back it up, restore it into another, export team 1. */
async function measure(label: string, fill: (url: string) => Promise<void>): Promise<Figures> {
  const dir = makeTempDir(`checkin-bench-backup-${label}-`);
  const restoredDir = makeTempDir(`checkin-bench-restored-${label}-`);
  folders.push(dir, restoredDir);
  const backups = path.join(dir, "backups");
  log(`${label}: data folder ${dir}`);

  let database = await startEmbeddedPostgres({ dir, purpose: `bench-backup ${label}`, archive: false });
  let fillSeconds: number;
  try {
    await applyMigrations(database.url);
    fillSeconds = (await timed(() => fill(database.url))).seconds;
  } finally {
    await database.stop();
  }
  log(`${label}: data written in ${fillSeconds.toFixed(1)} s; restarting with WAL archiving on`);

  database = await startEmbeddedPostgres({ dir, purpose: `bench-backup ${label}`, archive: true, backupDir: backups });
  let figures: Omit<
    Figures,
    "restoreSeconds" | "copySeconds" | "replaySeconds" | "restoredReports" | "exportBytes" | "exportSeconds" | "importSeconds"
  >;
  try {
    await queryOnce(database.url, "CHECKPOINT");
    const [size] = await queryOnce<{ db: string; reports: string }>(
      database.url,
      "SELECT pg_database_size(current_database())::text AS db, (SELECT count(*) FROM reports)::text AS reports",
    );
    log(`${label}: ${Number(size?.reports).toLocaleString("en-US")} reports, database ${mb(Number(size?.db))} MB; backing up`);
    const b = await timed(() => backupNow({ url: database.url, dataDir: dir, backupDir: backups, keep: 7, log: (l) => log(`  ${l}`) }));
    figures = {
      label,
      fillSeconds,
      reports: Number(size?.reports),
      databaseBytes: Number(size?.db),
      backupBytes: b.value.backup.bytes,
      backupSeconds: b.seconds,
      walBytes: b.value.walBytes,
    };
  } finally {
    await database.stop();
  }

  log(`${label}: restoring into a new data folder (CHECKIN_DATA_DIR=${restoredDir} npm run restore -- --from ${backups})`);
  const r = await timed(() => restoreDatabase({ dataDir: restoredDir, backupDir: backups, log: (l) => log(`  ${l}`) }));
  log(`${label}: restored in ${r.seconds.toFixed(1)} s; checking it and exporting team 1`);
  const restored = await startEmbeddedPostgres({ dir: restoredDir, purpose: `bench-backup ${label} restored`, archive: false });
  try {
    const [count] = await queryOnce<{ n: string }>(restored.url, "SELECT count(*)::text AS n FROM reports");
    const file = path.join(restoredDir, "team-1.tar.gz");
    const e = await exportTeam({ url: restored.url, file, team: "1" });
    log(
      `${label}: team 1 exported: ${mb(e.bytes)} MB in ${e.seconds.toFixed(1)} s (${e.manifest.total_rows.toLocaleString("en-US")} rows, ${(e.manifest.tables.find((t) => t.name === "reports")?.rows ?? 0).toLocaleString("en-US")} of them reports)`,
    );
    let importSeconds: number | null = null;
    if (!values["skip-import"]) {
      await queryOnce(restored.url, "CREATE DATABASE imported");
      const url = new URL(restored.url);
      url.pathname = "/imported";
      await applyMigrations(url.toString());
      const i = await importTeam({ url: url.toString(), file, log: (l) => log(`  ${l}`) });
      importSeconds = i.seconds;
      log(`${label}: team 1 imported into a new empty database in ${i.seconds.toFixed(1)} s`);
    }
    return {
      ...figures,
      restoreSeconds: r.seconds,
      copySeconds: r.value.copySeconds,
      replaySeconds: r.value.replaySeconds,
      restoredReports: Number(count?.n),
      exportBytes: e.bytes,
      exportSeconds: e.seconds,
      importSeconds,
    };
  } finally {
    await restored.stop();
  }
}

async function seedDemo(url: string): Promise<void> {
  setDatabaseUrl(url);
  try {
    await seedDemoData({ db: getDb(), credentialsFile: null });
  } finally {
    await disconnectDb();
  }
}

async function generateLarge(url: string): Promise<void> {
  const g = await withPgClient(url, (client) => generateBenchData(client, { reports: REPORTS, log: (l) => log(`  ${l}`) }));
  for (const [step, s] of Object.entries(g.seconds)) log(`  generate: ${step} ${s.toFixed(1)} s`);
}

const results: Figures[] = [];
let code = 0;
try {
  if (!values["skip-demo"]) results.push(await measure("demo", seedDemo));
  if (!values["skip-large"]) results.push(await measure("large", generateLarge));
} catch (err) {
  console.error(err);
  code = 1;
} finally {
  for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
}

console.log("\nBackup and restore of the embedded database (sizes MB, times s):");
console.log(
  "| data | reports | written in | database | base backup | backup time | WAL archived | restore (copy + replay) | restored reports | team 1 export | team 1 import |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const f of results) {
  console.log(
    `| ${f.label} | ${f.reports.toLocaleString("en-US")} | ${f.fillSeconds.toFixed(0)} | ${mb(f.databaseBytes)} | ${mb(f.backupBytes)} | ` +
      `${f.backupSeconds.toFixed(1)} | ${mb(f.walBytes)} | ${f.restoreSeconds.toFixed(1)} (${f.copySeconds.toFixed(1)} + ${f.replaySeconds.toFixed(1)}) | ` +
      `${f.restoredReports === f.reports ? "all" : `${f.restoredReports} of ${f.reports}`} | ${mb(f.exportBytes)} MB, ${f.exportSeconds.toFixed(1)} s | ${f.importSeconds === null ? "-" : f.importSeconds.toFixed(1)} |`,
  );
  if (f.restoredReports !== f.reports) code = 1;
}
console.log(`Total ${((performance.now() - started) / 1000).toFixed(0)} s; temporary folders removed.`);
process.exit(code);
