/**
 * Team export/import round trip (issue 44; lib/runtime/team-archive.ts, team-archive-import.ts):
 * the demo data (two teams) in a database of its own, topped up so that EVERY tenant table holds
 * rows of the exported team (tricky texts too); the export of one team imported into a fresh
 * database gives exactly that team's rows of every table, ids kept and sequences past them. The
 * refusals: a non-empty database, another schema version, a file that is not an archive, a damaged
 * archive (nothing left behind), and an export without a clear team.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { applyMigrations } from "@/lib/runtime/migrate";
import {
  exportTeam,
  INSTANCE_TABLES,
  readCatalog,
  TeamArchiveError,
  type TeamArchiveManifest,
  tenantTablesInLoadOrder,
  unclassifiedTables,
} from "@/lib/runtime/team-archive";
import { importTeam } from "@/lib/runtime/team-archive-import";
import { seedDemoData } from "@/lib/seed/index";
import { useIsolatedDatabase } from "@/tests/isolated-db";
import { TRICKY } from "@/tests/tricky-strings";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "team-archive-"));
let source: string;
let teamId: number;
let archive: string;
let manifest: TeamArchiveManifest;
const clients: pg.Client[] = [];

async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  clients.push(c);
  return c;
}

/** Runs `scripts/<name>.ts args` with DATABASE_URL=`url`; resolves with its exit code and output. */
async function runScript(name: string, args: string[], url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = path.resolve(import.meta.dirname, "..");
  try {
    const r = await promisify(execFile)(process.execPath, ["--import", "tsx", path.join(root, "scripts", `${name}.ts`), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A new database on the test server, migrated unless `migrate` is false. @returns its URL. */
async function freshDatabase(prefix: string, migrate = true): Promise<string> {
  const base = inject("databaseUrl");
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = await connect(base);
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  if (migrate) await applyMigrations(url.toString());
  return url.toString();
}

/** Every tenant table's rows of `team` (all rows when `team` is null) as sorted JSON texts. */
async function teamRows(url: string, team: number | null): Promise<Record<string, string[]>> {
  const c = await connect(url);
  const out: Record<string, string[]> = {};
  for (const t of tenantTablesInLoadOrder(await readCatalog(c))) {
    const where = team === null ? "" : t.name === "teams" ? `WHERE id = ${team}` : `WHERE team_id = ${team}`;
    const { rows } = await c.query<{ r: string }>(`SELECT row_to_json(x)::text AS r FROM "${t.name}" x ${where} ORDER BY 1`);
    out[t.name] = rows.map((r) => r.r);
  }
  return out;
}

/** Rows for the tenant tables the demo data leaves empty, and tricky texts, for team `team`. */
async function topUp(url: string, team: number): Promise<void> {
  const c = await connect(url);
  const one = async (sql: string) => (await c.query<{ id: number }>(sql)).rows[0]?.id as number;
  const user = await one(`SELECT id FROM users WHERE team_id = ${team} ORDER BY id LIMIT 1`);
  const channel = await one(`SELECT id FROM channels WHERE team_id = ${team} ORDER BY id LIMIT 1`);
  const occurrence = await one(`SELECT id FROM occurrences WHERE team_id = ${team} ORDER BY id LIMIT 1`);
  const question = await one(`SELECT id FROM questions WHERE team_id = ${team} ORDER BY id LIMIT 1`);
  const tricky = TRICKY.join(" | ");
  await c.query(`SET app.tricky = ${pg.escapeLiteral(tricky)}`);
  await c.query(`
    UPDATE answers SET text = current_setting('app.tricky') WHERE id = (SELECT min(id) FROM answers WHERE team_id = ${team});
    UPDATE users SET title = '' WHERE id = ${user};
    INSERT INTO webhook_endpoints (team_id, url, events, secret, created_by_id)
      VALUES (${team}, 'https://hooks.example.com/in?a=1&b=2', '{report.submitted,"poll.closed"}', 'whsec_dGVzdC1zZWNyZXQ=', ${user});
    INSERT INTO webhook_deliveries (team_id, endpoint_id, message_id, event_type, payload, state, attempts, last_error)
      SELECT ${team}, id, 'msg_1', 'report.submitted', jsonb_build_object('text', current_setting('app.tricky')), 'failed', 3, E'tab\\there'
      FROM webhook_endpoints WHERE team_id = ${team};
    INSERT INTO auth_tokens (team_id, user_id, kind, hash, expires_at) VALUES (${team}, ${user}, 'invitation', md5(random()::text), now() + interval '1 day');
    INSERT INTO audit_entries (team_id, actor_id, action, target, details) VALUES (${team}, ${user}, 'user.invite', 'user:${user}', '{"role": "member"}');
    INSERT INTO import_map (team_id, source, kind, source_id, local_id, data) VALUES
      (${team}, 'geekbot:https://api.geekbot.com', 'user', 'U1', ${user}, NULL),
      (${team}, 'geekbot:https://api.geekbot.com', 'checkpoint', '42', NULL, '{"after": 17}');
    INSERT INTO idempotency_records (team_id, user_id, key, fingerprint, response_status, response_body, expires_at)
      VALUES (${team}, ${user}, 'key-1', 'fp', 201, '{"ok": true}', now() + interval '1 day');
    INSERT INTO team_holidays (team_id, date, name) VALUES (${team}, '2026-12-25', 'Christmas \\ "Day"') ON CONFLICT DO NOTHING;
    INSERT INTO chat_threads (occurrence_id, channel_id, team_id, external_channel, external_ts)
      VALUES (${occurrence}, ${channel}, ${team}, 'C1', '1.000100') ON CONFLICT DO NOTHING;
    INSERT INTO poll_results (team_id, occurrence_id, version, questions) VALUES (${team}, ${occurrence}, 0, '[]') ON CONFLICT DO NOTHING;
    INSERT INTO participation_counts (team_id, occurrence_id, version, expected, responded, vacation)
      VALUES (${team}, ${occurrence}, 0, 3, 2, 1) ON CONFLICT DO NOTHING;
    INSERT INTO categorizations (occurrence_id, question_id, team_id, status, categories)
      VALUES (${occurrence}, ${question}, ${team}, 'completed', '[{"name": "x", "count": 1}]') ON CONFLICT DO NOTHING;
    INSERT INTO categories (team_id, question_id, name, keywords, created_by)
      VALUES (${team}, ${question}, 'Tooling', '{"ci": 0.5}', 'offline') ON CONFLICT DO NOTHING;
    INSERT INTO chat_messages (team_id, ts, kind, channel_id, text, delivery_state)
      VALUES (${team}, '9999999999.000001', 'report', ${channel}, 'still pending', 'pending');
    INSERT INTO absences (team_id, user_id, kind, start_date, end_date, note) VALUES (${team}, ${user}, 'vacation', '2026-12-01', '2026-12-03', NULL);
    INSERT INTO calendar_feeds (team_id, user_id, kind, url, etag)
      VALUES (${team}, ${user}, 'absences', 'https://calendar.example.com/private-abc/basic.ics', '"e1"');
    INSERT INTO activity_connections (team_id, user_id, provider, base_url, login, token_sealed)
      VALUES (${team}, ${user}, 'github', 'https://api.github.com', 'octo', 'sb1.c2VhbGVk');
    INSERT INTO activity_suggestions (occurrence_id, user_id, team_id, since, items, errors)
      VALUES (${occurrence}, ${user}, ${team}, now() - interval '1 day', '[{"title": "Merged #1"}]', '{"Jira: token rejected (401)"}');
    INSERT INTO data_exports (team_id, user_id, status, archive, reports_csv, ready_at, expires_at)
      VALUES (${team}, ${user}, 'ready', '{"profile": {}}', E'id,text\n1,x\n', now(), now() + interval '1 day');
    INSERT INTO occurrence_summaries (team_id, checkin_id, occurrence_id, date, engine, sections, text)
      SELECT team_id, checkin_id, id, date, 'offline', '{}', 'summary' FROM occurrences WHERE id = ${occurrence}
      ON CONFLICT DO NOTHING;
  `);
}

beforeAll(async () => {
  source = await useIsolatedDatabase("arc_src");
  const seeded = await seedDemoData({ db, namespace: "arc", credentialsFile: null });
  teamId = (seeded.teams[0] as { id: number }).id;
  await topUp(source, teamId);
  archive = path.join(dir, "team.tar.gz");
  const lines: string[] = [];
  ({ manifest } = await exportTeam({ url: source, file: archive, team: String(teamId), log: (l) => lines.push(l) }));
  expect(lines.some((l) => /^ {2}reports\s+[\d,]+ rows/.test(l))).toBe(true); // progress: rows per table
}, 180_000);

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("team export and import", () => {
  it("classifies every public table: team data (team_id) or a listed instance table", async () => {
    const catalog = await readCatalog(await connect(source));
    expect(unclassifiedTables(catalog)).toEqual([]);
    for (const name of INSTANCE_TABLES.keys()) expect(catalog.some((t) => t.name === name && !t.tenant)).toBe(true);
  });

  it("writes a manifest: schema version, team, row counts of every tenant table, parents first", async () => {
    const c = await connect(source);
    const { rows } = await c.query<{ m: string }>(
      `SELECT max(migration_name) AS m FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    expect(manifest.schema_version).toBe(rows[0]?.m);
    expect(manifest.team.id).toBe(teamId);
    const names = manifest.tables.map((t) => t.name);
    expect(names[0]).toBe("teams");
    expect(names.indexOf("users")).toBeLessThan(names.indexOf("reports"));
    expect(names.indexOf("reports")).toBeLessThan(names.indexOf("answers"));
    expect(names.indexOf("webhook_endpoints")).toBeLessThan(names.indexOf("webhook_deliveries"));
    const expected = await teamRows(source, teamId);
    expect(Object.keys(expected).sort()).toEqual([...names].sort());
    for (const t of manifest.tables) expect({ table: t.name, rows: t.rows }).toEqual({ table: t.name, rows: expected[t.name]?.length });
    // The round trip below means something for every table only if each holds rows of the team.
    expect(manifest.tables.filter((t) => t.rows === 0).map((t) => t.name)).toEqual([]);
    expect(fs.statSync(archive).mode & 0o077).toBe(0);
  });

  it("imports into an empty database: exactly the team's rows of every table, ids kept, sequences past them", async () => {
    const target = await freshDatabase("arc_dst");
    const lines: string[] = [];
    const result = await importTeam({ url: target, file: archive, log: (l) => lines.push(l) });
    expect(result.rows).toBe(manifest.total_rows);
    expect(lines.some((l) => /^ {2}answers\s+[\d,]+ rows/.test(l))).toBe(true);
    expect(await teamRows(target, null)).toEqual(await teamRows(source, teamId));

    const c = await connect(target);
    const { rows } = await c.query<{ text: string }>("SELECT text FROM answers WHERE text LIKE '%ship it%'");
    expect(rows.map((r) => r.text)).toEqual([TRICKY.join(" | ")]);
    for (const table of ["teams", "users", "reports", "answers", "chat_messages", "webhook_deliveries"]) {
      const { rows: s } = await c.query<{ next: string; max: string }>(
        `SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::text AS next, (SELECT max(id) FROM "${table}")::text AS max`,
      );
      expect(Number(s[0]?.next)).toBeGreaterThan(Number(s[0]?.max));
    }

    // The indexes and foreign keys dropped for the load are all back, as they were.
    const schemaOf = async (url: string) =>
      (
        await (
          await connect(url)
        ).query<{ d: string }>(
          `SELECT indexdef AS d FROM pg_indexes WHERE schemaname = 'public'
           UNION ALL SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
           WHERE connamespace = 'public'::regnamespace ORDER BY 1`,
        )
      ).rows.map((r) => r.d);
    expect(await schemaOf(target)).toEqual(await schemaOf(source));

    // The chat message still pending delivery is queued for delivery here; the other triggers stayed off.
    const { rows: jobs } = await c.query<{ task: string; payload: { destination: string } }>(
      // (anonymise_poll_voters is queued by its migration on every new database, not by the import)
      "SELECT task_identifier AS task, payload FROM job_outbox WHERE task_identifier <> 'anonymise_poll_voters' ORDER BY id",
    );
    const [pending] =
      (await teamRows(target, null)).chat_messages?.map((r) => JSON.parse(r)).filter((m) => m.delivery_state === "pending") ?? [];
    expect(jobs).toEqual([{ task: "deliver_chat_destination", payload: { destination: `c${pending.channel_id}` } }]);

    // A second import into the now filled database is refused and changes nothing.
    await expect(importTeam({ url: target, file: archive })).rejects.toThrow(/not empty: .*teams/);
    const { rows: teams } = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM teams");
    expect(teams[0]?.n).toBe(1);
  }, 120_000);

  it("refuses a database at another schema version", async () => {
    const target = await freshDatabase("arc_old");
    const c = await connect(target);
    await c.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [manifest.schema_version]);
    const error = await importTeam({ url: target, file: archive }).catch((e) => e);
    expect(error).toBeInstanceOf(TeamArchiveError);
    expect(error.message).toMatch(new RegExp(`exported at schema version ${manifest.schema_version}, this database is at \\d+_`));
    const altered = await freshDatabase("arc_alt");
    await (await connect(altered)).query("ALTER TABLE teams ADD COLUMN extra int; CREATE TABLE notes (id int, team_id int)");
    await expect(importTeam({ url: altered, file: archive })).rejects.toThrow(
      /tables differ from the archive's: table notes is not in the archive; table teams has other columns \(extra\)/,
    );
    const unmigrated = await freshDatabase("arc_none", false);
    await expect(importTeam({ url: unmigrated, file: archive })).rejects.toThrow(/this database is at none/);
  });

  it("refuses a file that is not a team archive, and a damaged one without leaving rows behind", async () => {
    const target = await freshDatabase("arc_bad");
    const junk = path.join(dir, "junk.tar.gz");
    fs.writeFileSync(junk, "not a tarball");
    await expect(importTeam({ url: target, file: junk })).rejects.toThrow(/not a readable team archive/);
    await expect(importTeam({ url: target, file: path.join(dir, "missing.tar.gz") })).rejects.toThrow(/No such file/);

    // The last table's count says one row more than its file holds: every table before it loads, then all is rolled back.
    const unpacked = path.join(dir, "unpacked");
    fs.mkdirSync(unpacked);
    await tar.x({ file: archive, cwd: unpacked });
    const damaged = structuredClone(manifest);
    const last = damaged.tables[damaged.tables.length - 1] as TeamArchiveManifest["tables"][number];
    last.rows += 1;
    fs.writeFileSync(path.join(unpacked, "manifest.json"), JSON.stringify(damaged));
    const damagedFile = path.join(dir, "damaged.tar.gz");
    await tar.c({ gzip: true, file: damagedFile, cwd: unpacked }, ["manifest.json", "data"]);
    await expect(importTeam({ url: target, file: damagedFile })).rejects.toThrow(/the archive is damaged/);
    const rows = await teamRows(target, null);
    expect(Object.entries(rows).filter(([, r]) => r.length)).toEqual([]);
  }, 60_000);

  it("refuses an archive whose rows lack their parents (foreign keys checked after the load)", async () => {
    const target = await freshDatabase("arc_orphan");
    const unpacked = path.join(dir, "orphan");
    fs.mkdirSync(unpacked);
    await tar.x({ file: archive, cwd: unpacked });
    fs.writeFileSync(path.join(unpacked, "data", "webhook_endpoints.copy"), "");
    const damaged = structuredClone(manifest);
    for (const t of damaged.tables) if (t.name === "webhook_endpoints") t.rows = 0;
    fs.writeFileSync(path.join(unpacked, "manifest.json"), JSON.stringify(damaged));
    const file = path.join(dir, "orphan.tar.gz");
    await tar.c({ gzip: true, file, cwd: unpacked }, ["manifest.json", "data"]);
    await expect(importTeam({ url: target, file })).rejects.toThrow(/rows do not fit together \(webhook_deliveries: .*foreign key/);
    const c = await connect(target);
    const { rows } = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM teams");
    expect(rows[0]?.n).toBe(0);
    const { rows: fks } = await c.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND conname = 'webhook_deliveries_team_id_endpoint_id_fkey'",
    );
    expect(fks[0]?.n).toBe(1); // the dropped keys came back with the rollback
  }, 60_000);

  it("npm run export / import-export: rows per table, migrations applied to a new database, refusals with exit code 1", async () => {
    const file = path.join(dir, "cli.tar.gz");
    const exported = await runScript("export", [file, "--team", String(teamId)], source);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^ {2}answers\s+[\d,]+ rows\s+[\d.]+ s$/m);
    expect(exported.stdout).toMatch(/Wrote .*cli\.tar\.gz: [\d,]+ rows/);
    const target = await freshDatabase("arc_cli", false); // no schema yet: the command migrates it
    const imported = await runScript("import-export", [file], target);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^ {2}reports\s+[\d,]+ rows/m);
    expect(imported.stdout).toContain(`Imported ${manifest.total_rows.toLocaleString("en-US")} rows`);
    const again = await runScript("import-export", [file], target);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Import refused: The database is not empty/m);
    const usage = await runScript("export", [], source);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: npm run export -- FILE.tar.gz [--team ID]");
  }, 120_000);

  it("refuses an export without a clear team", async () => {
    const file = path.join(dir, "other.tar.gz");
    await expect(exportTeam({ url: source, file })).rejects.toThrow(/has 2 teams: choose one with --team ID/);
    await expect(exportTeam({ url: source, file, team: "999999" })).rejects.toThrow(/No team "999999"/);
    expect(fs.existsSync(file)).toBe(false);
    await expect(exportTeam({ url: source, file: path.join(dir, "nowhere", "x.tar.gz") })).rejects.toThrow(/nowhere does not exist/);
    const byChatId = await exportTeam({ url: source, file, team: manifest.team.chat_id });
    expect(byChatId.manifest.team.id).toBe(teamId);
  });
});
