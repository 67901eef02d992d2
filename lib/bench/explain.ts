/**
 * EXPLAIN (ANALYZE, BUFFERS) of SQL captured from Prisma query events, summarised per plan:
 * how each table is accessed, whether any Seq Scan happens, execution time and buffers.
 */
import type pg from "pg";

export type CapturedQuery = { query: string; params: string };

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
};

export type PlanSummary = {
  /** "Index Scan reports_team_id_… on reports" style entries, one per scan node. */
  scans: string[];
  /** Tables read with a Seq Scan. */
  seqScans: string[];
  /** The scan node types used on `reports` (empty when the statement does not read reports). */
  reportsAccess: string[];
  executionMs: number;
  sharedHit: number;
  sharedRead: number;
  text: string;
};

function walk(node: PlanNode, visit: (n: PlanNode) => void) {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/** Parses Prisma's `params` (a JSON array string) into pg bind values. */
export function bindValues(params: string): unknown[] {
  const values = JSON.parse(params) as unknown[];
  return values.map((v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? JSON.stringify(v) : v));
}

/** EXPLAIN (ANALYZE, BUFFERS) of one captured statement, as JSON (summary) and text (for printing). */
export async function explain(client: pg.Client, q: CapturedQuery): Promise<PlanSummary> {
  const values = bindValues(q.params);
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${q.query}`, values);
  const root = (rows[0]["QUERY PLAN"] as Array<{ Plan: PlanNode; "Execution Time": number }>)[0];
  const scans: string[] = [];
  const seqScans: string[] = [];
  const reportsAccess: string[] = [];
  walk(root.Plan, (n) => {
    if (!n["Relation Name"]) return;
    const type = n["Node Type"];
    scans.push(`${type}${n["Index Name"] ? ` ${n["Index Name"]}` : ""} on ${n["Relation Name"]}`);
    if (type === "Seq Scan") seqScans.push(n["Relation Name"]);
    if (n["Relation Name"] === "reports") reportsAccess.push(type);
  });
  const plan = root.Plan as unknown as Record<string, number>;
  const { rows: textRows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.query}`, values);
  return {
    scans,
    seqScans,
    reportsAccess,
    executionMs: root["Execution Time"],
    sharedHit: plan["Shared Hit Blocks"] ?? 0,
    sharedRead: plan["Shared Read Blocks"] ?? 0,
    text: textRows.map((r) => r["QUERY PLAN"]).join("\n"),
  };
}
