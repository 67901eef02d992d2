/**
 * Toward sharding by team_id (issue 14, docs/scaling.md): on every tenant table (a table with a
 * `team_id` column), every unique constraint/index and every foreign key must include `team_id`,
 * so that a distributed PostgreSQL (e.g. Citus) can co-locate a team's rows and enforce them per
 * shard. Checked over the migrated schema of the test database (pg_catalog), not over the Prisma file.
 *
 * `KNOWN_GAPS` lists the constraints of the current schema that do not comply yet (see
 * docs/scaling.md for the migration they need). The test fails on any NEW violation (a table or
 * constraint added without team_id) and on a listed gap that has been fixed (so the list shrinks).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Constraints known not to include team_id yet, by name. Remove an entry when its migration lands. */
const KNOWN_GAPS = new Set([
  // unique
  "users_chat_id_key",
  "channels_chat_id_key",
  "occurrences_checkin_id_date_key",
  "answers_report_id_question_id_key",
  "api_keys_hash_key",
  "chat_messages_ts_key",
  // foreign keys to another tenant table by id alone
  "channel_members_channel_id_fkey",
  "channel_members_user_id_fkey",
  "checkins_owner_id_fkey",
  "checkins_broadcast_channel_id_fkey",
  "checkins_sync_channel_id_fkey",
  "questions_checkin_id_fkey",
  "checkin_members_checkin_id_fkey",
  "checkin_members_user_id_fkey",
  "occurrences_checkin_id_fkey",
  "occurrence_members_occurrence_id_fkey",
  "occurrence_members_user_id_fkey",
  "reports_checkin_id_fkey",
  "reports_occurrence_id_fkey",
  "reports_user_id_fkey",
  "answers_report_id_fkey",
  "answers_question_id_fkey",
  "votes_occurrence_id_fkey",
  "votes_question_id_fkey",
  "votes_user_id_fkey",
  "categorizations_occurrence_id_fkey",
  "categorizations_question_id_fkey",
  "absences_user_id_fkey",
  "api_keys_user_id_fkey",
  "idempotency_records_user_id_fkey",
  "chat_messages_channel_id_fkey",
  "chat_messages_recipient_id_fkey",
  "chat_messages_checkin_id_fkey",
  "chat_messages_occurrence_id_fkey",
  "chat_messages_report_id_fkey",
  // added on 2026-11-22 by the delivery, categorization and summaries work, before this test existed
  "categories_question_id_fkey",
  "categories_question_id_name_key",
  "occurrence_summaries_checkin_id_fkey",
  "occurrence_summaries_occurrence_id_fkey",
  "occurrence_summaries_occurrence_id_key",
  "webhook_deliveries_endpoint_id_fkey",
  "webhook_deliveries_message_id_key",
  // added on 2026-11-22 by the onboarding and manager-dashboard work (auth tokens, audit log, blocker marker)
  "answers_blocker_resolved_by_id_fkey",
  "audit_entries_actor_id_fkey",
  "auth_tokens_hash_key",
  "auth_tokens_user_id_fkey",
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

  it("no constraint without team_id beyond the known gaps", () => {
    const violations = rows.filter((r) => !r.columns.includes("team_id"));
    const unexpected = violations
      .filter((v) => !KNOWN_GAPS.has(v.name))
      .map((v) => `${v.kind} ${v.name} on ${v.table}(${v.columns.join(", ")})`);
    expect(unexpected, "add team_id to these (a new table or constraint must be shard-ready)").toEqual([]);
  });

  it("every known gap still exists (remove fixed ones from KNOWN_GAPS)", () => {
    const stillBad = new Set(rows.filter((r) => !r.columns.includes("team_id")).map((r) => r.name));
    expect([...KNOWN_GAPS].filter((name) => !stillBad.has(name))).toEqual([]);
  });
});
