/**
 * Restore drill (issue 44): a real embedded PostgreSQL in its own temporary data folder, WAL
 * archiving on; rows written before a base backup, after it, before and after a noted time; the
 * restore to that time brings back exactly the rows written before it.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupNightly } from "@/lib/jobs/tasks";
import { listBaseBackups, pruneBackups, takeBaseBackup, walArchiveDir } from "@/lib/runtime/backup";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";
import { queryOnce } from "@/lib/runtime/pg-once";
import { restoreDatabase } from "@/lib/runtime/restore";
import { makeTempDir } from "@/scripts/throwaway";
import { tempDatabaseFolder } from "@/tests/temp-database";

let database: EmbeddedDatabase | null = null;
const { dir, backups } = tempDatabaseFolder("checkin-backup-", () => database);

const start = () => startEmbeddedPostgres({ dir, purpose: "backup drill", persistent: true, backupDir: backups });

describe("backup and point-in-time restore", () => {
  it("restores exactly the rows committed before the target time", async () => {
    database = await start();
    const url = database.url;
    await queryOnce(url, "CREATE TABLE drill (id int PRIMARY KEY, note text)");
    await queryOnce(url, "INSERT INTO drill SELECT g, 'before backup' FROM generate_series(1, 100) g");
    const pgDir = path.join(dir, "postgres");
    const backup = await takeBaseBackup({ url, pgDir, backupDir: backups });
    expect(backup.bytes).toBeGreaterThan(1_000_000);
    expect(fs.existsSync(path.join(backup.dir, "backup_label"))).toBe(true);
    expect(listBaseBackups(backups).map((b) => b.name)).toEqual([backup.name]);

    await queryOnce(url, "INSERT INTO drill SELECT g, 'after backup' FROM generate_series(101, 150) g");
    await new Promise((r) => setTimeout(r, 1100));
    const [{ at }] = await queryOnce<{ at: Date }>(url, "SELECT clock_timestamp() AS at");
    await new Promise((r) => setTimeout(r, 1100));
    await queryOnce(url, "INSERT INTO drill SELECT g, 'after target' FROM generate_series(151, 200) g");
    await queryOnce(url, "DELETE FROM drill WHERE id <= 10"); // the mistake the restore undoes
    await database.stop();
    database = null;

    const lines: string[] = [];
    const r = await restoreDatabase({ dataDir: dir, backupDir: backups, at, log: (l) => lines.push(l) });
    expect(r.backup.name).toBe(backup.name);
    expect(r.previous && fs.existsSync(r.previous)).toBe(true);
    expect(fs.existsSync(path.join(pgDir, "recovery.signal"))).toBe(false); // promoted
    expect(fs.readFileSync(path.join(pgDir, "postgresql.auto.conf"), "utf8")).not.toContain("recovery_target_time");

    database = await start();
    const rows = await queryOnce<{ n: number; max: number; notes: string }>(
      database.url,
      "SELECT count(*)::int AS n, max(id) AS max, string_agg(DISTINCT note, ',' ORDER BY note) AS notes FROM drill",
    );
    expect(rows[0]).toEqual({ n: 150, max: 150, notes: "after backup,before backup" });
    // The restored server writes on (a new timeline) and keeps archiving.
    await queryOnce(database.url, "INSERT INTO drill VALUES (1000, 'after restore')");
    expect(fs.readdirSync(walArchiveDir(backups)).some((f) => f.endsWith(".history.gz"))).toBe(true);
  }, 120_000);

  it("restores on a new machine: an empty data folder and the backup folder (--from)", async () => {
    await database?.stop();
    database = null;
    const elsewhere = makeTempDir("checkin-restored-");
    try {
      const r = await restoreDatabase({ dataDir: elsewhere, backupDir: backups });
      expect(r.previous).toBeNull();
      expect(fs.readFileSync(path.join(elsewhere, "postgres-password"), "utf8")).toBe(
        fs.readFileSync(path.join(dir, "postgres-password"), "utf8"),
      );
      const other = await startEmbeddedPostgres({ dir: elsewhere, purpose: "drill", persistent: false, archive: false });
      try {
        const [row] = await queryOnce<{ n: number }>(other.url, "SELECT count(*)::int AS n FROM drill WHERE id <= 150");
        expect(row.n).toBe(150); // the first restore's timeline: everything up to the target
      } finally {
        await other.stop();
      }
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 120_000);

  it("refuses to restore while the database runs", async () => {
    database ??= await start();
    await expect(restoreDatabase({ dataDir: dir, backupDir: backups })).rejects.toThrow(/in use by process .*stop the service first/);
  });

  it("the nightly job backs up the embedded database only", async () => {
    database ??= await start();
    process.env.CHECKIN_DATA_DIR = dir;
    const before = listBaseBackups(backups).length;
    const lines: string[] = [];
    process.env.DATABASE_URL = "postgresql://someone:secret@db.example.com:5432/checkin";
    await backupNightly((l) => lines.push(l))({}, {} as never);
    expect(listBaseBackups(backups)).toHaveLength(before);
    process.env.DATABASE_URL = database.url;
    await backupNightly((l) => lines.push(l))({}, {} as never);
    expect(listBaseBackups(backups)).toHaveLength(before + 1);
    expect(lines.join("\n")).toMatch(/backup: Base backup \S+: [\d.]+ MB in [\d.]+ s/);
  }, 60_000);

  it("keeps the newest base backups and the WAL they need", async () => {
    database ??= await start();
    const pgDir = path.join(dir, "postgres");
    await takeBaseBackup({ url: database.url, pgDir, backupDir: backups });
    await queryOnce(database.url, "SELECT pg_switch_wal()");
    const newest = await takeBaseBackup({ url: database.url, pgDir, backupDir: backups });
    expect(listBaseBackups(backups)).toHaveLength(4);
    const r = pruneBackups(backups, 1);
    expect(r.removedBackups).toHaveLength(3);
    expect(r.removedWal).toBeGreaterThan(0);
    expect(listBaseBackups(backups).map((b) => b.name)).toEqual([newest.name]);
    const firstNeeded = newest.start_wal.slice(8);
    for (const f of fs.readdirSync(walArchiveDir(backups))) {
      if (/^[0-9A-F]{24}\.gz$/.test(f)) expect(f.slice(8, 24) >= firstNeeded).toBe(true);
    }
  }, 60_000);
});
