/**
 * Toward sharding by team_id (issue 14, docs/scaling.md): on every tenant table (a table with a
 * `team_id` column), every unique constraint/index and every foreign key must include `team_id`,
 * so that a distributed PostgreSQL (e.g. Citus) can co-locate a team's rows and enforce them per
 * shard. Checked over the migrated schema of the test database (pg_catalog), not over the Prisma file.
 *
 * `GLOBAL_BY_DESIGN` lists the few unique constraints that must stay global, each with its reason
 * (docs/scaling.md: such a table becomes a reference table or keeps a lookup table on the
 * coordinator). The test fails on any other constraint without team_id (a table or constraint added
 * without it) and on a listed entry that no longer exists (so the list stays true). The migration
 * that closed the former gaps is prisma/migrations/20261122223000_tenant_keys.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Constraints that stay without team_id on purpose, by name, with the reason. */
const GLOBAL_BY_DESIGN = new Map([
  ["api_keys_hash_key", "an API key is looked up by its hash before the team is known (lib/auth)"],
  ["auth_tokens_hash_key", "a link token (invitation, reset, sign-in) is looked up by its hash before the team is known"],
]);

type Row = { table: string; name: string; kind: "unique" | "foreign key"; columns: string[] };

let client: pg.Client;
let rows: Row[];

beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  // Unique indexes (constraint-backed or not, primary keys excluded) and foreign keys of every
  // public table that has a team_id column, other than teams itself.
  const { rows: found } = await client.query<Row>(`
    WITH tenant AS (
      SELECT c.oid, c.relname FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'team_id' AND NOT a.attisdropped
      WHERE c.relkind = 'r' AND c.relname <> 'teams'
    )
    SELECT t.relname AS table, ic.relname AS name, 'unique' AS kind,
           array(SELECT a.attname FROM unnest(i.indkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k)::text[] AS columns
    FROM tenant t JOIN pg_index i ON i.indrelid = t.oid AND i.indisunique AND NOT i.indisprimary
    JOIN pg_class ic ON ic.oid = i.indexrelid
    UNION ALL
    SELECT t.relname, con.conname, 'foreign key',
           array(SELECT a.attname FROM unnest(con.conkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k)::text[]
    FROM tenant t JOIN pg_constraint con ON con.conrelid = t.oid AND con.contype = 'f'
    ORDER BY 1, 2`);
  rows = found;
});

afterAll(async () => {
  await client?.end();
});

describe("tenant tables: every unique constraint and foreign key includes team_id", () => {
  it("finds the constraints of the tenant tables (the check itself works)", () => {
    expect(rows.some((r) => r.name === "users_team_id_fkey" && r.columns.includes("team_id"))).toBe(true);
    expect(rows.some((r) => r.name === "users_team_id_email_key")).toBe(true);
  });

  it("no constraint without team_id beyond the global-by-design ones", () => {
    const violations = rows.filter((r) => !r.columns.includes("team_id"));
    const unexpected = violations
      .filter((v) => !GLOBAL_BY_DESIGN.has(v.name))
      .map((v) => `${v.kind} ${v.name} on ${v.table}(${v.columns.join(", ")})`);
    expect(unexpected, "add team_id to these (a new table or constraint must be shard-ready)").toEqual([]);
  });

  it("every global-by-design entry still exists (remove entries whose constraint is gone or now has team_id)", () => {
    const withoutTeam = new Set(rows.filter((r) => !r.columns.includes("team_id")).map((r) => r.name));
    expect([...GLOBAL_BY_DESIGN.keys()].filter((name) => !withoutTeam.has(name))).toEqual([]);
  });

  it("ON DELETE SET NULL foreign keys null only their own column, never team_id", async () => {
    // Prisma writes plain SET NULL, which on a composite key would null team_id too; the
    // migrations hand-write PostgreSQL 15's column list, SET NULL (x_id).
    const { rows: setNull } = await client.query<{ name: string; set_columns: string[] }>(`
      SELECT con.conname AS name,
             array(SELECT a.attname FROM unnest(con.confdelsetcols) k JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k)::text[] AS set_columns
      FROM pg_constraint con JOIN pg_attribute t ON t.attrelid = con.conrelid AND t.attname = 'team_id' AND NOT t.attisdropped
      WHERE con.contype = 'f' AND con.confdeltype = 'n' AND t.attnum = ANY (con.conkey)
      ORDER BY 1`);
    expect(setNull.length).toBeGreaterThan(0);
    expect(setNull.filter((r) => r.set_columns.length === 0 || r.set_columns.includes("team_id")).map((r) => r.name)).toEqual([]);
  });
});
