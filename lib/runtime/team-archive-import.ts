/**
 * Import of a team archive written by `exportTeam` (lib/runtime/team-archive.ts; issue 44, README
 * "Back up and restore") into an EMPTY database of the SAME schema version, in one transaction:
 * the rows keep their ids, the id sequences are moved past them afterwards, and nothing is left
 * behind when anything fails. Refuses (TeamArchiveError, nothing written) a file that is not a
 * team archive, a database at another schema version (latest applied migration), and a database
 * whose tenant tables hold any row.
 *
 * The rows are loaded as they were exported, with the tables' own triggers off (they would bump the
 * stored poll-results and participation versions and queue jobs for facts that are already
 * stored), except the chat outbox's (`TRIGGERS_KEPT`), so that messages still pending delivery in
 * the archive are queued for delivery by this instance. As pg_restore does, the foreign keys of
 * the tables loaded are dropped first and added again after the load (each checked once over the
 * whole table instead of once per row), and so are their indexes that back no constraint (built
 * once, e.g. the unique ones Prisma declares), in the same transaction: a row whose parent is
 * missing, or a duplicate, fails the import.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import * as tar from "tar";
import {
  formatRows,
  ident,
  manifestSchema,
  progressLine,
  readCatalog,
  schemaVersion,
  TeamArchiveError,
  type TeamArchiveManifest,
} from "@/lib/runtime/team-archive";

/** Tables whose triggers stay on during the load: chat_messages queues the delivery of pending messages. */
const TRIGGERS_KEPT = new Set(["chat_messages"]);

/** Extracts the archive's manifest and data files into `dir` (nothing else, no links). @throws TeamArchiveError. */
async function extractArchive(file: string, dir: string): Promise<TeamArchiveManifest> {
  if (!fs.existsSync(file)) throw new TeamArchiveError(`No such file: ${file}`);
  try {
    await tar.x({
      file,
      cwd: dir,
      strict: true,
      filter: (p, entry) =>
        (p === "manifest.json" || /^data\/[a-z_][a-z0-9_]*\.copy$/.test(p) || p === "data/") &&
        (!("type" in entry) || entry.type === "File" || entry.type === "Directory"),
    });
  } catch (err) {
    throw new TeamArchiveError(`${file} is not a readable team archive (.tar.gz): ${(err as Error).message}`);
  }
  const manifestFile = path.join(dir, "manifest.json");
  if (!fs.existsSync(manifestFile)) throw new TeamArchiveError(`${file} is not a team archive: it has no manifest.json`);
  let parsed: ReturnType<typeof manifestSchema.safeParse>;
  try {
    parsed = manifestSchema.safeParse(JSON.parse(fs.readFileSync(manifestFile, "utf8")));
  } catch (err) {
    throw new TeamArchiveError(`${file}: manifest.json is not JSON (${(err as Error).message})`);
  }
  if (!parsed.success) {
    throw new TeamArchiveError(`${file}: manifest.json is not a team archive manifest of format version 1 (${parsed.error.message})`);
  }
  for (const t of parsed.data.tables) {
    if (!fs.existsSync(path.join(dir, t.file))) throw new TeamArchiveError(`${file} is incomplete: ${t.file} is missing`);
  }
  return parsed.data;
}

/**
 * Checks the database has the archive's tenant tables with the same columns.
 * @throws TeamArchiveError naming what differs.
 */
async function checkTables(client: pg.ClientBase, manifest: TeamArchiveManifest): Promise<void> {
  const catalog = await readCatalog(client);
  const tenant = new Map(catalog.filter((t) => t.tenant).map((t) => [t.name, t]));
  const archived = new Set(manifest.tables.map((t) => t.name));
  const differences = [
    ...manifest.tables.filter((t) => !tenant.has(t.name)).map((t) => `table ${t.name} is missing here`),
    ...[...tenant.keys()].filter((n) => !archived.has(n)).map((n) => `table ${n} is not in the archive`),
    ...manifest.tables.flatMap((t) => {
      const here = tenant.get(t.name);
      if (!here) return [];
      const cols = new Set(here.columns);
      const missing = t.columns.filter((c) => !cols.has(c));
      const extra = here.columns.filter((c) => !t.columns.includes(c));
      return missing.length || extra.length ? [`table ${t.name} has other columns (${[...missing, ...extra].join(", ")})`] : [];
    }),
  ];
  if (differences.length) {
    throw new TeamArchiveError(`The database's tables differ from the archive's: ${differences.join("; ")}.`);
  }
}

/** Checks every tenant table is empty (run under the import's locks). @throws TeamArchiveError naming the others. */
async function checkEmpty(client: pg.ClientBase, tables: string[]): Promise<void> {
  const filled: string[] = [];
  for (const name of tables) {
    const { rows } = await client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${ident(name)}) AS any`);
    if (rows[0]?.any) filled.push(name);
  }
  if (filled.length) {
    throw new TeamArchiveError(
      `The database is not empty: ${filled.join(", ")} hold rows. Import into an empty database ` +
        "(a new data folder with CHECKIN_DATA_DIR, or a new database in DATABASE_URL), before npm start seeds demo data.",
    );
  }
}

/** The foreign keys of `tables`: table, name and definition (`pg_get_constraintdef`). */
async function foreignKeys(client: pg.ClientBase, tables: string[]): Promise<{ table: string; name: string; definition: string }[]> {
  const { rows } = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT c.relname AS table, con.conname AS name, pg_get_constraintdef(con.oid) AS definition
     FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     WHERE con.contype = 'f' AND c.relname = ANY($1::text[]) ORDER BY 1, 2`,
    [tables],
  );
  return rows;
}

/** The indexes of `tables` that back no constraint (primary keys stay): name and definition (`pg_get_indexdef`). */
async function looseIndexes(client: pg.ClientBase, tables: string[]): Promise<{ name: string; definition: string }[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT ic.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     WHERE c.relname = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid)
     ORDER BY 1`,
    [tables],
  );
  return rows;
}

/** Moves every id sequence of `tables` past the largest id loaded. */
async function fixSequences(client: pg.ClientBase, tables: string[]): Promise<void> {
  const { rows } = await client.query<{ table: string; column: string; seq: string }>(
    `SELECT c.relname AS table, a.attname AS column, pg_get_serial_sequence(format('%I', c.relname), a.attname) AS seq
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE c.relname = ANY($1::text[]) AND pg_get_serial_sequence(format('%I', c.relname), a.attname) IS NOT NULL`,
    [tables],
  );
  for (const r of rows) {
    await client.query(`SELECT setval($1::regclass, coalesce((SELECT max(${ident(r.column)}) FROM ${ident(r.table)}), 0) + 1, false)`, [
      r.seq,
    ]);
  }
}

export type ImportOptions = { url: string; file: string; log?: (line: string) => void };

/**
 * Imports a team archive into an empty database of the same schema version (one transaction).
 * @returns the archive's manifest, the rows loaded and the seconds taken.
 * @throws TeamArchiveError for a refusal (see the module doc); other errors roll everything back too.
 */
export async function importTeam(opts: ImportOptions): Promise<{ manifest: TeamArchiveManifest; rows: number; seconds: number }> {
  const log = opts.log ?? (() => {});
  const started = performance.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "team-import-"));
  let client: pg.Client | null = null;
  try {
    const manifest = await extractArchive(path.resolve(opts.file), work);
    client = new pg.Client({ connectionString: opts.url });
    await client.connect();
    const version = await schemaVersion(client);
    if (version !== manifest.schema_version) {
      throw new TeamArchiveError(
        `The archive was exported at schema version ${manifest.schema_version}, this database is at ${version ?? "none (no migration applied)"}. ` +
          "Import with the version of the service that exported it (same latest migration), then upgrade.",
      );
    }
    log(
      `Importing team ${manifest.team.id} (${manifest.team.name}), exported ${manifest.created_at}, ` +
        `${formatRows(manifest.total_rows)} rows, schema version ${version}`,
    );
    await client.query("BEGIN");
    await checkTables(client, manifest);
    const names = manifest.tables.map((t) => t.name);
    await client.query(`LOCK TABLE ${names.map(ident).join(", ")} IN EXCLUSIVE MODE`);
    await checkEmpty(client, names);
    const quiet = names.filter((n) => !TRIGGERS_KEPT.has(n));
    for (const name of quiet) await client.query(`ALTER TABLE ${ident(name)} DISABLE TRIGGER USER`);
    const keys = await foreignKeys(client, names);
    for (const k of keys) await client.query(`ALTER TABLE ${ident(k.table)} DROP CONSTRAINT ${ident(k.name)}`);
    const indexes = await looseIndexes(client, names);
    for (const i of indexes) await client.query(`DROP INDEX ${ident(i.name)}`);
    let rows = 0;
    for (const t of manifest.tables) {
      const t0 = performance.now();
      const stream = client.query(copyFrom(`COPY ${ident(t.name)} (${t.columns.map(ident).join(", ")}) FROM STDIN`));
      await pipeline(fs.createReadStream(path.join(work, t.file)), stream);
      if (stream.rowCount !== t.rows) {
        throw new TeamArchiveError(`${t.file} holds ${stream.rowCount} rows, the manifest says ${t.rows}: the archive is damaged.`);
      }
      rows += t.rows;
      log(progressLine(t.name, t.rows, (performance.now() - t0) / 1000));
    }
    const t1 = performance.now();
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    for (const i of indexes) {
      await client.query(i.definition).catch((err: Error) => {
        throw new TeamArchiveError(`The archive's rows do not fit together (index ${i.name}: ${err.message}): the archive is damaged.`);
      });
    }
    for (const k of keys) {
      await client.query(`ALTER TABLE ${ident(k.table)} ADD CONSTRAINT ${ident(k.name)} ${k.definition}`).catch((err: Error) => {
        throw new TeamArchiveError(`The archive's rows do not fit together (${k.table}: ${err.message}): the archive is damaged.`);
      });
    }
    log(`  built ${indexes.length} indexes, checked ${keys.length} foreign keys in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    for (const name of quiet) await client.query(`ALTER TABLE ${ident(name)} ENABLE TRIGGER USER`);
    await fixSequences(client, names);
    await client.query("COMMIT");
    const seconds = (performance.now() - started) / 1000;
    log(`Imported ${formatRows(rows)} rows in ${seconds.toFixed(1)} s`);
    return { manifest, rows, seconds };
  } catch (err) {
    await client?.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await client?.end().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}
