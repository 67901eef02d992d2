/**
 * Portable logical export of one team (issue 44; README "Back up and restore"): every row of the
 * team in every tenant table (a public table with a `team_id` column, plus `teams` itself), read in
 * one `REPEATABLE READ READ ONLY` transaction (one consistent snapshot) with `COPY … TO STDOUT`
 * (PostgreSQL's text format), packed with a `manifest.json` into a `.tar.gz`:
 *
 *   manifest.json        format, schema version (latest applied migration), team, created_at,
 *                        the tables in load order (parents first) with their columns and row counts
 *   data/<table>.copy    the team's rows of that table, `COPY` text format
 *
 * Instance tables (`INSTANCE_TABLES`: migrations bookkeeping, rate-limit counters, the instance
 * secret, the job outbox, service events, worker heartbeats) and the `graphile_worker` schema are
 * not team data and are not exported. The import (into an empty database of the same schema
 * version) is lib/runtime/team-archive-import.ts. Secrets travel as stored: password hashes
 * (argon2id), API-key and link-token hashes (SHA-256) and webhook signing secrets (as created).
 */
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import * as tar from "tar";
import { z } from "zod";

/** Public tables that are not team data (never exported), each with why. */
export const INSTANCE_TABLES = new Map([
  ["_prisma_migrations", "migration bookkeeping: the schema version is the manifest's schema_version"],
  ["rate_limits", "rate-limit counters of the instance"],
  ["app_secrets", "the instance's own secret (sessions, cursors): see README on AUTH_SECRET"],
  ["job_outbox", "queued jobs of the instance, like the graphile_worker schema"],
  ["service_events", "restarts of this instance's processes"],
  ["worker_heartbeats", "this instance's running job workers"],
]);

export const ARCHIVE_FORMAT = "checkin-team-archive";
export const ARCHIVE_FORMAT_VERSION = 1;

/** A refusal or a broken archive: printed as it is by the commands (exit code 1). */
export class TeamArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TeamArchiveError";
  }
}

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  format_version: z.literal(ARCHIVE_FORMAT_VERSION),
  schema_version: z.string().min(1),
  team: z.object({ id: z.number().int().positive(), chat_id: z.string(), name: z.string() }),
  created_at: z.string(),
  tables: z.array(
    z.object({
      name: z.string().regex(/^[a-z_][a-z0-9_]*$/),
      file: z.string().regex(/^data\/[a-z_][a-z0-9_]*\.copy$/),
      columns: z.array(z.string().regex(/^[a-z_][a-z0-9_]*$/)).min(1),
      rows: z.number().int().nonnegative(),
    }),
  ),
  total_rows: z.number().int().nonnegative(),
});

/** The `manifest.json` of a team archive. */
export type TeamArchiveManifest = z.output<typeof manifestSchema>;

/** One public table as the catalog describes it. */
export type CatalogTable = { name: string; columns: string[]; primaryKey: string[]; refersTo: string[]; tenant: boolean };

/** Double-quotes an SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Reads the public tables of the database: columns (in order, generated ones left out), primary
 * key, the tables their foreign keys point at, and whether they are tenant tables.
 */
export async function readCatalog(client: pg.ClientBase): Promise<CatalogTable[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; primary_key: string[]; refers_to: string[]; tenant: boolean }>(`
    SELECT c.relname AS name,
      array(SELECT a.attname FROM pg_attribute a
            WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
            ORDER BY a.attnum)::text[] AS columns,
      coalesce((SELECT array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum ORDER BY k.n)::text[]
                FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary), '{}') AS primary_key,
      array(SELECT DISTINCT f.relname FROM pg_constraint con JOIN pg_class f ON f.oid = con.confrelid
            WHERE con.conrelid = c.oid AND con.contype = 'f' AND con.confrelid <> c.oid ORDER BY 1)::text[] AS refers_to,
      (c.relname = 'teams' OR EXISTS (SELECT 1 FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attname = 'team_id' AND NOT a.attisdropped)) AS tenant
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname`);
  return rows.map((r) => ({ name: r.name, columns: r.columns, primaryKey: r.primary_key, refersTo: r.refers_to, tenant: r.tenant }));
}

/**
 * The tenant tables in load order: every table after the tables its foreign keys point at (ties
 * by name). @throws Error on a foreign-key cycle between tenant tables.
 */
export function tenantTablesInLoadOrder(catalog: CatalogTable[]): CatalogTable[] {
  const tenant = new Map(catalog.filter((t) => t.tenant).map((t) => [t.name, t]));
  const done = new Set<string>();
  const ordered: CatalogTable[] = [];
  while (ordered.length < tenant.size) {
    const ready = [...tenant.values()].filter((t) => !done.has(t.name) && t.refersTo.every((r) => done.has(r) || !tenant.has(r)));
    if (!ready.length) throw new Error("tenant tables have a foreign-key cycle: no load order");
    for (const t of ready) {
      done.add(t.name);
      ordered.push(t);
    }
  }
  return ordered;
}

/** Public tables that are neither tenant tables nor in `INSTANCE_TABLES` (skipped, with a warning). */
export function unclassifiedTables(catalog: CatalogTable[]): string[] {
  return catalog.filter((t) => !t.tenant && !INSTANCE_TABLES.has(t.name)).map((t) => t.name);
}

/** The schema version of a database: its latest applied migration's name, or null when none is. */
export async function schemaVersion(client: pg.ClientBase): Promise<string | null> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('public."_prisma_migrations"')::text AS t`);
  if (!exists.rows[0]?.t) return null;
  const { rows } = await client.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL
     ORDER BY migration_name DESC LIMIT 1`,
  );
  return rows[0]?.migration_name ?? null;
}

/** Formats a row count for progress lines (1,234,567). */
export function formatRows(n: number): string {
  return n.toLocaleString("en-US");
}

/** Progress line of one table: name, rows, seconds. */
export function progressLine(table: string, rows: number, seconds: number): string {
  return `  ${table.padEnd(24)} ${formatRows(rows).padStart(12)} rows  ${seconds.toFixed(1).padStart(6)} s`;
}

/**
 * Finds the team to export: `team` as a numeric id or a chat id (T0123…); without it, the only
 * team of the database. @throws TeamArchiveError when there is no such team or several to choose from.
 */
async function resolveTeam(client: pg.ClientBase, team: string | undefined): Promise<{ id: number; chat_id: string; name: string }> {
  const { rows } = await client.query<{ id: number; chat_id: string; name: string }>("SELECT id, chat_id, name FROM teams ORDER BY id");
  if (team === undefined) {
    if (rows.length === 1 && rows[0]) return rows[0];
    if (!rows.length) throw new TeamArchiveError("The database has no team to export.");
    throw new TeamArchiveError(
      `The database has ${rows.length} teams: choose one with --team ID (${rows.map((t) => `${t.id} ${t.name}`).join(", ")}).`,
    );
  }
  const found = rows.find((t) => String(t.id) === team || t.chat_id === team);
  if (!found) throw new TeamArchiveError(`No team "${team}" (give its numeric id or its chat id, e.g. T0123ABCD).`);
  return found;
}

export type ExportOptions = {
  /** Connection string of the database to read. */
  url: string;
  /** The archive to write (`.tar.gz`); written under a temporary name, then renamed. */
  file: string;
  /** Team id or chat id; default: the only team. */
  team?: string;
  log?: (line: string) => void;
};

/**
 * Exports one team into a `.tar.gz` (file mode 0600: it holds the team's data and secrets).
 * @returns the manifest written, with the archive's size in bytes and the seconds taken.
 * @throws TeamArchiveError when the team cannot be chosen or the database has no applied migration.
 */
export async function exportTeam(opts: ExportOptions): Promise<{ manifest: TeamArchiveManifest; bytes: number; seconds: number }> {
  const log = opts.log ?? (() => {});
  const started = performance.now();
  const target = path.resolve(opts.file);
  if (!fs.existsSync(path.dirname(target))) throw new TeamArchiveError(`The folder ${path.dirname(target)} does not exist.`);
  const work = fs.mkdtempSync(path.join(path.dirname(target), ".team-export-"));
  const client = new pg.Client({ connectionString: opts.url });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const version = await schemaVersion(client);
    if (!version) throw new TeamArchiveError("The database has no applied migration: nothing to export.");
    const team = await resolveTeam(client, opts.team);
    const catalog = await readCatalog(client);
    for (const name of unclassifiedTables(catalog)) log(`warning: table ${name} has no team_id and is not exported`);
    log(`Exporting team ${team.id} (${team.name}) at schema version ${version}`);
    fs.mkdirSync(path.join(work, "data"));
    const tables: TeamArchiveManifest["tables"] = [];
    for (const table of tenantTablesInLoadOrder(catalog)) {
      const t0 = performance.now();
      const file = `data/${table.name}.copy`;
      const where = table.name === "teams" ? `"id" = ${team.id}` : `"team_id" = ${team.id}`;
      const order = table.primaryKey.length ? ` ORDER BY ${table.primaryKey.map(ident).join(", ")}` : "";
      const stream = client.query(
        copyTo(`COPY (SELECT ${table.columns.map(ident).join(", ")} FROM ${ident(table.name)} WHERE ${where}${order}) TO STDOUT`),
      );
      await pipeline(stream, fs.createWriteStream(path.join(work, file)));
      tables.push({ name: table.name, file, columns: table.columns, rows: stream.rowCount });
      log(progressLine(table.name, stream.rowCount, (performance.now() - t0) / 1000));
    }
    await client.query("COMMIT");
    const manifest: TeamArchiveManifest = {
      format: ARCHIVE_FORMAT,
      format_version: ARCHIVE_FORMAT_VERSION,
      schema_version: version,
      team,
      created_at: new Date().toISOString(),
      tables,
      total_rows: tables.reduce((n, t) => n + t.rows, 0),
    };
    fs.writeFileSync(path.join(work, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const partial = `${target}.partial`;
    await tar.c({ gzip: true, file: partial, cwd: work, portable: true }, ["manifest.json", "data"]);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, target);
    const bytes = fs.statSync(target).size;
    const seconds = (performance.now() - started) / 1000;
    log(`Wrote ${target}: ${formatRows(manifest.total_rows)} rows, ${(bytes / 1e6).toFixed(1)} MB, ${seconds.toFixed(1)} s`);
    return { manifest, bytes, seconds };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    fs.rmSync(`${target}.partial`, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}
