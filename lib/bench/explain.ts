/**
 * EXPLAIN (ANALYZE, BUFFERS) of SQL captured as the server's client sends it (lib/db.ts
 * `newPrismaClient`'s `onStatement`), summarised per plan:
 * how each table is accessed, whether any Seq Scan happens, execution time and buffers.
 */
import pg from "pg";

/** One statement as sent to pg: its text and bind values. */
export type CapturedQuery = { query: string; values: unknown[] };

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};

export type PlanSummary = {
  /** "Index Scan reports_team_id_… on reports" style entries, one per scan node. */
  scans: string[];
  /** Tables read with a Seq Scan. */
  seqScans: string[];
  /** The scan node types used on `reports` (empty when the statement does not read reports). */
  reportsAccess: string[];
  /**
   * Rows of `reports` the statement's scans visited: returned or removed by a filter or recheck,
   * over all loops. What a lookup costs as the table grows, whichever index it takes.
   */
  reportsRowsVisited: number;
  executionMs: number;
  sharedHit: number;
  sharedRead: number;
  text: string;
};

/**
 * The most report rows a plan of a report list page of `items` reports may visit
 * (`PlanSummary.reportsRowsVisited`) when the caller may read every report: the page and the row
 * that tells more exist, twice over, plus a few. A plan that reads the whole window and sorts it
 * (lib/domain/report-pages.ts `reportPageCte`) visits thousands on a busy week. Checked by `npm run
 * bench:data` (scripts/bench-targets.ts) and tests/api/report-page-plan.test.ts.
 */
export function pageReadLimit(items: number): number {
  return 2 * (items + 1) + 10;
}

function walk(node: PlanNode, visit: (n: PlanNode) => void) {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of one captured statement, as JSON (summary) and text (for printing).
 * With `generic`, of its generic plan: the plan PostgreSQL may cache for a named statement (the
 * server names its statements, lib/db.ts) and reuse whatever the parameter values, which can be far
 * worse than the plan made for the values at hand.
 */
export async function explain(client: pg.Client, q: CapturedQuery, opts: { generic?: boolean } = {}): Promise<PlanSummary> {
  if (opts.generic) {
    // EXECUTE takes no bind parameters: the values go in as literals.
    const args = q.values.map((v) => sqlLiteral(client, v));
    await client.query("BEGIN");
    try {
      await client.query(`PREPARE bench_generic AS ${q.query}`);
      await client.query("SET LOCAL plan_cache_mode = force_generic_plan");
      return await summarize(client, `EXECUTE bench_generic${args.length ? `(${args.join(", ")})` : ""}`, []);
    } finally {
      await client.query("ROLLBACK");
      await client.query("DEALLOCATE ALL");
    }
  }
  return summarize(client, q.query, q.values);
}

/** pg's own conversion of a bind value to its text form (arrays as PostgreSQL array literals); untyped in @types/pg. */
const prepareValue = (pg as unknown as { utils: { prepareValue: (v: unknown) => unknown } }).utils.prepareValue;

/** A bind value as an SQL literal, converted as pg converts bind values. */
function sqlLiteral(client: pg.Client, v: unknown): string {
  const text = prepareValue(v);
  return text === null || text === undefined ? "NULL" : client.escapeLiteral(String(text));
}

async function summarize(client: pg.Client, sql: string, values: unknown[]): Promise<PlanSummary> {
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, values);
  const root = (rows[0]["QUERY PLAN"] as Array<{ Plan: PlanNode; "Execution Time": number }>)[0];
  const scans: string[] = [];
  const seqScans: string[] = [];
  const reportsAccess: string[] = [];
  let reportsRowsVisited = 0;
  walk(root.Plan, (n) => {
    if (!n["Relation Name"]) return;
    const type = n["Node Type"];
    scans.push(`${type}${n["Index Name"] ? ` ${n["Index Name"]}` : ""} on ${n["Relation Name"]}`);
    if (type === "Seq Scan") seqScans.push(n["Relation Name"]);
    if (n["Relation Name"] !== "reports") return;
    reportsAccess.push(type);
    if (!type.endsWith("Scan")) return; // e.g. an INSERT's ModifyTable
    // EXPLAIN gives rows and removed rows per loop.
    const perLoop = (n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0);
    reportsRowsVisited += Math.round(perLoop * (n["Actual Loops"] ?? 1));
  });
  const plan = root.Plan as unknown as Record<string, number>;
  const { rows: textRows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values);
  return {
    scans,
    seqScans,
    reportsAccess,
    reportsRowsVisited,
    executionMs: root["Execution Time"],
    sharedHit: plan["Shared Hit Blocks"] ?? 0,
    sharedRead: plan["Shared Read Blocks"] ?? 0,
    text: textRows.map((r) => r["QUERY PLAN"]).join("\n"),
  };
}
