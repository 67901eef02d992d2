/**
 * Applies the SQL migrations in `prisma/migrations/<timestamp>_<name>/migration.sql` in order,
 * recording each in `_prisma_migrations` exactly as Prisma Migrate does (same table, columns and
 * SHA-256 checksum of the file), under Prisma's own advisory lock (72707369), so that
 * `prisma migrate deploy/status` agree with it on a machine that can run Prisma's engine.
 * ARCHITECTURE §5.
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Logger, runMigrations as runWorkerMigrations } from "graphile-worker";
import pg from "pg";

const PRISMA_ADVISORY_LOCK = 72707369;

export type MigrationResult = { applied: string[]; alreadyApplied: number };

/** Options of `applyMigrations`. */
export type MigrateOptions = {
  /**
   * Called under the advisory lock before the first pending migration is applied, only on an
   * upgrade (the database already has applied migrations; not on a fresh one), with the names of
   * the pending migrations. `npm start` and `npm run migrate` take a base backup here when the
   * database is the embedded one (`backupBeforeMigrating`). Throwing stops the upgrade unapplied.
   */
  beforeApply?: (pending: string[]) => Promise<void>;
  /** Apply only the migrations up to this folder name (inclusive): a database at an older release's schema (upgrade tests). */
  upTo?: string;
};

/** Lists migration folders (sorted by name = by timestamp) with their SQL and checksum. */
export function listMigrations(dir = path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations")) {
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Names of the migration folders of this checkout (sorted), without reading their SQL. */
export function listMigrationNames(dir = path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations")): string[] {
  return fs
    .readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
}

/**
 * Compares the migrations applied to a database with this checkout's folders: `pending` are
 * folders not applied yet, `unknown` are applied migrations this checkout does not have (the
 * database was migrated by a newer version of the service).
 */
export function migrationDrift(applied: string[], local: string[]): { pending: string[]; unknown: string[] } {
  const a = new Set(applied);
  const l = new Set(local);
  return { pending: local.filter((n) => !a.has(n)), unknown: applied.filter((n) => !l.has(n)).sort() };
}

/** Thrown when the database was migrated by a newer version of the service (see `assertNotNewerDatabase`). */
export class NewerDatabaseError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `The database was migrated by a newer version of the service: ${unknown.length} applied migration(s) are unknown to this version ` +
        `(${unknown.slice(0, 3).join(", ")}${unknown.length > 3 ? ", …" : ""}). Run the newer version (see CHANGELOG.md), ` +
        "or restore a backup taken before the upgrade; this version refuses to start so it cannot corrupt data it does not understand.",
    );
    this.name = "NewerDatabaseError";
  }
}

/**
 * Refuses a database migrated by a newer version: applied migrations (finished, not rolled back)
 * in `_prisma_migrations` that this checkout's `prisma/migrations` does not have.
 * @param client a connected pg client. @throws NewerDatabaseError naming them.
 */
export async function assertNotNewerDatabase(client: pg.Client, local = listMigrationNames()): Promise<void> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS t`);
  if (!exists.rows[0].t) return;
  const { rows } = await client.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const { unknown } = migrationDrift(
    rows.map((r) => r.migration_name),
    local,
  );
  if (unknown.length) throw new NewerDatabaseError(unknown);
}

/**
 * Applies pending migrations. Each runs in its own transaction together with its bookkeeping row.
 * @throws Error naming the migration when one fails (its row stays marked failed, as Prisma does),
 *   or when an earlier attempt failed and was not resolved; NewerDatabaseError when the database
 *   was migrated by a newer version of the service (`npm start` then refuses to start).
 */
export async function applyMigrations(
  url: string,
  log: (line: string) => void = () => {},
  opts: MigrateOptions = {},
): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    await assertNotNewerDatabase(client);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
    }>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`);
    const failed = rows.find((r) => !r.finished_at && !r.rolled_back_at);
    if (failed) {
      throw new Error(
        `Migration ${failed.migration_name} failed earlier and is not resolved. Fix the database, then mark it rolled back ` +
          `(UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '${failed.migration_name}').`,
      );
    }
    const done = new Map(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => [r.migration_name, r.checksum]));
    const migrations = listMigrations().filter((m) => !opts.upTo || m.name <= opts.upTo);
    const pending = migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
    if (pending.length && done.size && opts.beforeApply) await opts.beforeApply(pending);
    const applied: string[] = [];
    for (const m of migrations) {
      const previous = done.get(m.name);
      if (previous) {
        if (previous !== m.checksum) log(`warning: migration ${m.name} was modified after it was applied`);
        continue;
      }
      const id = randomUUID();
      log(`Applying migration ${m.name}`);
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
        [id, m.checksum, m.name],
      );
      try {
        await client.query("BEGIN");
        await client.query(m.sql);
        await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        await client.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, String((err as Error).message)]);
        throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.name);
    }
    // The job queue's schema too, so that it exists as soon as the tables do (not only once a worker
    // ran): writes enqueue into the job outbox, which any worker then hands to it (lib/jobs/outbox.ts).
    await runWorkerMigrations({ connectionString: url, logger: new Logger(() => () => {}) });
    return { applied, alreadyApplied: done.size };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
}
