import { describe, expect, it } from "vitest";
import { backupBeforeMigrating, listBaseBackups } from "@/lib/runtime/backup";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "@/lib/runtime/embedded-postgres";
import { applyMigrations, listMigrationNames } from "@/lib/runtime/migrate";
import { queryOnce } from "@/lib/runtime/pg-once";
import { tempDatabaseFolder } from "@/tests/temp-database";

/** The release before this one (CHANGELOG.md) and the newest migration folder it shipped. */
const PREVIOUS_RELEASE = { version: "0.1.0", lastMigration: "20261128111500_retention" };

let database: EmbeddedDatabase | null = null;
const { dir, backups } = tempDatabaseFolder("checkin-upgrade-", () => database);

/** Data as version 0.1.0 stored it: a team, 4 users, a standup with 2 runs of reports, a poll with votes. */
const OLD_DATA = `
INSERT INTO teams (id, chat_id, name, timezone) VALUES (1, 'T0UPGRADE', 'Upgraders', 'Europe/Berlin');
INSERT INTO users (id, chat_id, team_id, username, realname, firstname, email, role, is_admin) VALUES
  (1, 'U01ADMIN', 1, 'ada', 'Ada Admin', 'Ada', 'ada@example.com', 'admin', true),
  (2, 'U02BOB', 1, 'bob', 'Bob Builder', 'Bob', 'bob@example.com', 'member', false),
  (3, 'U03CY', 1, 'cy', 'Cy Clerk', 'Cy', 'cy@example.com', 'manager', false),
  (4, 'U04DEE', 1, 'dee', 'Dee Dev', 'Dee', 'dee@example.com', 'member', false);
SELECT setval(pg_get_serial_sequence('teams', 'id'), 1), setval(pg_get_serial_sequence('users', 'id'), 4);
INSERT INTO checkins (id, team_id, kind, name, days, owner_id, time, timezone) VALUES
  (1, 1, 'standup', 'Daily standup', '{mon,tue,wed,thu,fri}', 1, '09:30:00', 'Europe/Berlin'),
  (2, 1, 'poll', 'Lunch poll', '{}', 1, '12:00:00', 'Europe/Berlin');
INSERT INTO questions (id, team_id, checkin_id, position, text, answer_type, choices, is_blocker) VALUES
  (1, 1, 1, 0, 'What did you do yesterday?', 'text', '{}', false),
  (2, 1, 1, 1, 'Anything blocking you?', 'text', '{}', true),
  (3, 1, 2, 0, 'Where do we eat?', 'multiple_choice', '{Pizza,Sushi,Salad}', false);
INSERT INTO checkin_members (checkin_id, user_id, team_id)
  SELECT c, u, 1 FROM generate_series(1, 2) c, generate_series(1, 4) u;
INSERT INTO occurrences (id, team_id, checkin_id, date, scheduled_at, started_at, closes_at, closed_at) VALUES
  (1, 1, 1, current_date - 2, now() - interval '2 days', now() - interval '2 days', NULL, now() - interval '1 day'),
  (2, 1, 1, current_date - 1, now() - interval '1 day', now() - interval '1 day', NULL, NULL),
  (3, 1, 2, current_date - 1, now() - interval '1 day', now() - interval '1 day', now() - interval '1 hour', now() - interval '1 hour');
SELECT setval(pg_get_serial_sequence('checkins', 'id'), 2), setval(pg_get_serial_sequence('questions', 'id'), 3),
  setval(pg_get_serial_sequence('occurrences', 'id'), 3);
INSERT INTO occurrence_members (occurrence_id, user_id, team_id, asked_at)
  SELECT o, u, 1, now() - interval '1 day' FROM generate_series(1, 3) o, generate_series(1, 4) u;
-- 7 submitted reports (user 4 skipped the second run) and one pending.
INSERT INTO reports (id, team_id, checkin_id, occurrence_id, user_id, status, started_at, submitted_at) VALUES
  (1, 1, 1, 1, 1, 'submitted', now() - interval '47 hours', now() - interval '47 hours'),
  (2, 1, 1, 1, 2, 'submitted', now() - interval '46 hours', now() - interval '46 hours'),
  (3, 1, 1, 1, 3, 'submitted', now() - interval '45 hours', now() - interval '45 hours'),
  (4, 1, 1, 1, 4, 'submitted', now() - interval '44 hours', now() - interval '44 hours'),
  (5, 1, 1, 2, 1, 'submitted', now() - interval '23 hours', now() - interval '23 hours'),
  (6, 1, 1, 2, 2, 'submitted', now() - interval '22 hours', now() - interval '22 hours'),
  (7, 1, 1, 2, 3, 'submitted', now() - interval '21 hours', now() - interval '21 hours'),
  (8, 1, 1, 2, 4, 'pending', now() - interval '20 hours', NULL);
SELECT setval(pg_get_serial_sequence('reports', 'id'), 8);
INSERT INTO answers (team_id, report_id, question_id, text)
  SELECT 1, r, q, format('report %s answer %s: shipped the %s', r, q, CASE q WHEN 1 THEN 'upgrade' ELSE 'nothing' END)
  FROM generate_series(1, 7) r, generate_series(1, 2) q;
INSERT INTO votes (team_id, occurrence_id, question_id, user_id, choice, categories) VALUES
  (1, 3, 3, 1, 'Pizza', '{}'), (1, 3, 3, 2, 'Pizza', '{}'), (1, 3, 3, 3, 'Sushi', '{}'), (1, 3, 3, 4, 'Pizza', '{}');
`;

/** Every row of every table of the public schema (bookkeeping excluded), as JSON, sorted. */
async function snapshot(url: string): Promise<Map<string, Record<string, unknown>[]>> {
  const tables = await queryOnce<{ name: string }>(
    url,
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> '_prisma_migrations' ORDER BY 1`,
  );
  const out = new Map<string, Record<string, unknown>[]>();
  for (const { name } of tables) {
    const rows = await queryOnce<{ row: Record<string, unknown> }>(
      url,
      `SELECT to_jsonb(t) AS row FROM "${name}" t ORDER BY to_jsonb(t)::text`,
    );
    out.set(
      name,
      rows.map((r) => r.row),
    );
  }
  return out;
}

/** `row` without the columns `old` does not have (a migration may add columns, never change old values). */
function oldColumns(row: Record<string, unknown>, old: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(old).map((k) => [k, row[k]]));
}

describe(`upgrade from ${PREVIOUS_RELEASE.version}`, () => {
  it("backs up first, applies only the newer migrations, keeps every row and the current code reads them", async () => {
    database = await start();
    const url = database.url;
    const all = listMigrationNames();
    const older = all.filter((n) => n <= PREVIOUS_RELEASE.lastMigration);
    const newer = all.filter((n) => n > PREVIOUS_RELEASE.lastMigration);
    expect(older.at(-1)).toBe(PREVIOUS_RELEASE.lastMigration);

    // The previous release's schema, and its data.
    const noBackupOfAFreshDatabase = async () => {
      throw new Error("beforeApply ran on a fresh database");
    };
    const fresh = await applyMigrations(url, () => {}, { upTo: PREVIOUS_RELEASE.lastMigration, beforeApply: noBackupOfAFreshDatabase });
    expect(fresh.applied).toEqual(older);
    await queryOnce(url, OLD_DATA);
    const before = await snapshot(url);
    expect(before.get("reports")).toHaveLength(8);
    expect(before.get("votes")).toHaveLength(4);

    // A backup that fails stops the upgrade before any migration.
    if (newer.length) {
      const failing = applyMigrations(url, () => {}, { beforeApply: () => Promise.reject(new Error("disk full")) });
      await expect(failing).rejects.toThrow("disk full");
      const [{ n }] = await queryOnce<{ n: number }>(url, `SELECT count(*)::int AS n FROM "_prisma_migrations"`);
      expect(n).toBe(older.length);
    }

    // The upgrade, as `npm start` runs it on the embedded database.
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    const beforeApply = backupBeforeMigrating({ url, dataDir: dir, backupDir: backups, keep: 7, log });
    const result = await applyMigrations(url, log, { beforeApply });
    expect(result.applied).toEqual(newer);
    expect(result.alreadyApplied).toBe(older.length);
    if (newer.length) {
      const [backup] = listBaseBackups(backups);
      expect(backup, "a base backup is taken before the first migration").toBeDefined();
      const firstApplied = lines.findIndex((l) => l.startsWith("Applying migration"));
      expect(lines.findIndex((l) => l.startsWith(`Base backup ${backup.name}:`))).toBeLessThan(firstApplied);
      const [{ started_at }] = await queryOnce<{ started_at: Date }>(
        url,
        `SELECT started_at FROM "_prisma_migrations" WHERE migration_name = $1`,
        [newer[0]],
      );
      expect(new Date(backup.finished_at).getTime()).toBeLessThanOrEqual(started_at.getTime());
    }
    // Again: nothing pending, so no second backup.
    expect((await applyMigrations(url, log, { beforeApply })).applied).toEqual([]);
    expect(listBaseBackups(backups)).toHaveLength(newer.length ? 1 : 0);

    // Every row the old version wrote is still there with the same values.
    const after = await snapshot(url);
    for (const [table, rows] of before) {
      const now = after.get(table);
      expect(now, `table ${table} still exists`).toBeDefined();
      // A migration may queue a one-time job (e.g. anonymise_poll_voters): the job outbox may gain
      // rows; every row it held before must still be there unchanged.
      const oldIds = new Set(rows.map((r) => r.id));
      const mine = table === "job_outbox" ? (now ?? []).filter((r) => oldIds.has(r.id)) : (now ?? []);
      // Compared on the old columns only, in one order (a new column changes the snapshot's order).
      const byText = (a: Record<string, unknown>, b: Record<string, unknown>) => JSON.stringify(a).localeCompare(JSON.stringify(b));
      const kept = mine.map((r) => (rows[0] ? oldColumns(r, rows[0]) : r)).sort(byText);
      expect(kept, `rows of ${table}`).toEqual([...rows].sort(byText));
    }

    // The current code reads them (the same domain functions as the API and the dashboard).
    process.env.DATABASE_URL = url;
    const { listReports } = await import("@/lib/domain/reports");
    const { getPollVotes } = await import("@/lib/domain/votes");
    const { disconnectDb } = await import("@/lib/db");
    try {
      const admin = { teamId: 1, userId: 1, userChatId: "U01ADMIN", isAdmin: true, role: "admin" as const };
      const reports = await listReports(admin, {
        since: new Date(Date.now() - 7 * 86_400_000),
        until: new Date(Date.now() + 60_000),
        standupId: 1,
        limit: 50,
        withAnswers: true,
        teamWide: "readers",
      });
      expect(reports.map((r) => r.id).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(JSON.stringify(reports)).toContain("report 5 answer 1: shipped the upgrade");
      const results = await getPollVotes(admin, 2);
      const choices = results.instances[0]?.questions[0]?.choices?.map((c) => [c.text, c.votes, c.voters?.length]);
      expect(choices).toEqual([
        ["Pizza", 3, 3],
        ["Sushi", 1, 1],
        ["Salad", 0, 0],
      ]);
    } finally {
      await disconnectDb();
    }
  }, 60_000);
});

function start(): Promise<EmbeddedDatabase> {
  return startEmbeddedPostgres({ dir, purpose: "upgrade test", persistent: true, backupDir: backups });
}
