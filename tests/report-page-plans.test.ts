/**
 * The report list statements (GET /v2/reports, GET /v1/reports/; lib/domain/report-pages.ts
 * `pageCte` with `perStandupOf`) read about standups × page size rows of `reports` under the plan
 * PostgreSQL caches for a named statement, whatever the number of reports in the time window
 * (issue 14). The generic plan cannot see the window's bounds; the earlier page read every report
 * of the window under it. Checked with EXPLAIN ANALYZE of the exact statement the domain function
 * sends, prepared under `plan_cache_mode = force_generic_plan`, on a window of 1,200 reports, and
 * compared with the rows of the plan for the actual values.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPrismaClient } from "@/lib/db";
import { listReportWires, searchReportWiresV1 } from "@/lib/domain/reports";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";

const PER_STANDUP = 600;
let A: TestTeam;
let client: PrismaClient;
let statements: Array<{ text: string; values: unknown[] }> = [];
let raw: pg.Client;

beforeAll(async () => {
  A = await createTestTeam({ members: 2 });
  raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
  for (const [i, name] of ["Plans one", "Plans two"].entries()) {
    const standup = await createTestCheckin(A, { name });
    // Reports every 14 minutes over the last six days, inside a 7-day window.
    await raw.query(
      `INSERT INTO reports (team_id, checkin_id, user_id, status, is_anonymous, submitted_at, created_at, updated_at)
       SELECT $1, $2, $3, 'submitted', false, now() - (n * interval '14 minutes'), now(), now() FROM generate_series(1, $4) n`,
      [A.id, standup.id, A.users[i].id, PER_STANDUP],
    );
  }
  await raw.query("ANALYZE reports");
  client = newPrismaClient(process.env.DATABASE_URL as string, { onStatement: (s) => statements.push(s) });
});

afterAll(async () => {
  await client?.$disconnect();
  await raw?.end();
});

/** A bind value as an SQL literal for EXECUTE (numbers, text, Dates as ISO text). */
function literal(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const text = v instanceof Date ? v.toISOString() : String(v);
  return `'${text.replace(/'/g, "''")}'`;
}

type PlanNode = { "Relation Name"?: string; "Actual Rows": number; "Actual Loops": number; Plans?: PlanNode[] };

/** Rows the plan read from `relation` (actual rows × loops of every node scanning it). */
function rowsRead(node: PlanNode, relation: string): number {
  const own = node["Relation Name"] === relation ? node["Actual Rows"] * node["Actual Loops"] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, relation), 0);
}

/** The one statement `run` sends, EXPLAIN ANALYZEd as a generic plan, and its rows under both plans. */
async function underGenericPlan(name: string, run: () => Promise<unknown>) {
  statements = [];
  await run();
  expect(statements).toHaveLength(1);
  const [{ text, values }] = statements;
  const args = values.map(literal).join(", ");
  await raw.query("SET plan_cache_mode = force_generic_plan");
  await raw.query(`PREPARE ${name} AS ${text}`);
  const [{ "QUERY PLAN": explained }] = (await raw.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}(${args})`)).rows;
  const generic = (await raw.query(`EXECUTE ${name}(${args})`)).rows;
  await raw.query(`DEALLOCATE ${name}`);
  await raw.query("SET plan_cache_mode = force_custom_plan");
  await raw.query(`PREPARE ${name}_c AS ${text}`);
  const custom = (await raw.query(`EXECUTE ${name}_c(${args})`)).rows;
  await raw.query(`DEALLOCATE ${name}_c`);
  await raw.query("RESET plan_cache_mode");
  return { read: rowsRead(explained[0].Plan as PlanNode, "reports"), generic, custom };
}

describe("report list pages under a cached generic plan", () => {
  const window = () => ({ since: new Date(Date.now() - 7 * 86_400_000), until: new Date(Date.now() + 60_000) });

  it("GET /v2/reports reads about standups × page size reports, not the 1,200 of the window", async () => {
    const filters = { ...window(), limit: 25, withAnswers: true };
    const { read, generic, custom } = await underGenericPlan("v2_page", () => listReportWires(A.admin.actor, filters, client));
    expect(generic).toHaveLength(26);
    expect(generic).toStrictEqual(custom);
    expect(read).toBeLessThanOrEqual(2 * 26);
  });

  it("a later page (keyset cursor) too", async () => {
    const first = await listReportWires(A.admin.actor, { ...window(), limit: 100, withAnswers: false }, client);
    const last = first[99];
    const filters = { ...window(), limit: 25, withAnswers: false, after: { postedAt: last.submitted_at, id: last.id } };
    const { read, generic, custom } = await underGenericPlan("v2_later", () => listReportWires(A.admin.actor, filters, client));
    expect(generic.map((r) => r.id)).toStrictEqual(custom.map((r) => r.id));
    expect(generic[0].id).not.toBe(first[0].id);
    expect(read).toBeLessThanOrEqual(2 * 26);
  });

  it("GET /v1/reports/ with a window (after and before) reads about standups × page size reports", async () => {
    const { since, until } = window();
    const filters = { limit: 30, after: since, before: until };
    const { read, generic, custom } = await underGenericPlan("v1_page", () => searchReportWiresV1(A.admin.actor, filters, client));
    expect(generic).toStrictEqual(custom);
    expect(JSON.parse(generic[0].json)).toHaveLength(30);
    expect(read).toBeLessThanOrEqual(2 * 30);
  });
});
