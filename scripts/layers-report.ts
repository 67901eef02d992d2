/**
 * `npm run layers`: measures the direction of the imports (issue 51; the rules are in CODE_STYLE.md
 * "Layers" and enforced by biome.json). Prints
 * - import cycles among our files (value imports, the ones that run; and counting type imports),
 *   each with one shortest cycle as an example;
 * - upward imports: lib/domain or ground (lib/db.ts, lib/env.ts, lib/logger.ts, lib/generated,
 *   lib/jobs/enqueue.ts) importing an edge (lib/api, lib/chat, lib/jobs, lib/mcp, lib/openapi) or
 *   app/ / components/; ground importing lib/domain; anything under lib/ importing app/ or
 *   components/ (test files are listed apart);
 * - the runtime import closure of route modules (default app/v2/reports/route.ts, the POST
 *   /v2/reports module): the files it loads through value imports, and their lines.
 *
 * Usage: `npm run layers [-- --list] [-- route.ts ...]`. `--list` also prints the closure's files.
 * Read-only; exit code 0 always (a report, not a gate: Biome is the gate).
 */
import path from "node:path";
import { type ImportEdge, importCycles, lineCount, readImportGraph, runtimeClosure } from "@/scripts/import-graph";

type Layer = "top" | "edge" | "domain" | "ground" | "other";
const RANK: Record<Layer, number> = { ground: 0, domain: 1, edge: 2, top: 3, other: -1 };

/** The layer of a repo file (see CODE_STYLE.md "Layers"). */
function layerOf(file: string): Layer {
  if (file.startsWith("app/") || file.startsWith("components/")) return "top";
  if (["lib/db.ts", "lib/env.ts", "lib/logger.ts", "lib/jobs/enqueue.ts"].includes(file) || file.startsWith("lib/generated/"))
    return "ground";
  if (/^lib\/(api|chat|jobs|mcp|openapi)\//.test(file)) return "edge";
  if (file.startsWith("lib/domain/")) return "domain";
  return "other";
}

/** True when the import runs against the layer direction. */
function isUpward(e: ImportEdge): boolean {
  const from = layerOf(e.from);
  const to = layerOf(e.to);
  if (e.from.startsWith("lib/") && to === "top") return true;
  if (from === "other" || to === "other") return false;
  return RANK[to] > RANK[from];
}

const isTest = (f: string) => /\.test\.tsx?$/.test(f);

function main() {
  const args = process.argv.slice(2);
  const list = args.includes("--list");
  const routes = args.filter((a) => !a.startsWith("--"));
  const root = path.resolve(import.meta.dirname, "..");
  const graph = readImportGraph(root, ["lib", "app", "components", "scripts"]);
  const all = [...graph.edges.values()].flat();

  const valueCycles = importCycles(graph);
  const anyCycles = importCycles(graph, new Set(["value", "type"]));
  console.log(`== import cycles (strongly connected groups of files)`);
  console.log(`value imports: ${valueCycles.length} group(s), ${valueCycles.reduce((n, c) => n + c.files.length, 0)} files`);
  for (const c of valueCycles) console.log(`  [${c.files.length} files] e.g. ${c.example.join(" -> ")}`);
  console.log(`value + type imports: ${anyCycles.length} group(s), ${anyCycles.reduce((n, c) => n + c.files.length, 0)} files`);
  for (const c of anyCycles) console.log(`  [${c.files.length} files] e.g. ${c.example.join(" -> ")}`);

  const upward = all.filter(isUpward);
  const [tests, code] = [upward.filter((e) => isTest(e.from)), upward.filter((e) => !isTest(e.from))];
  console.log(
    `\n== upward imports: ${code.length} (${code.filter((e) => e.kind === "value").length} value, ${code.filter((e) => e.kind === "type").length} type, ${code.filter((e) => e.kind === "dynamic").length} import()); in test files: ${tests.length}`,
  );
  for (const e of code) console.log(`  ${e.from} -> ${e.to} (${e.kind})`);
  for (const e of tests) console.log(`  [test] ${e.from} -> ${e.to} (${e.kind})`);

  for (const route of routes.length ? routes : ["app/v2/reports/route.ts"]) {
    const closure = runtimeClosure(graph, route);
    const lines = closure.reduce((n, f) => n + lineCount(root, f), 0);
    console.log(`\n== runtime import closure of ${route}: ${closure.length} files, ${lines} lines`);
    if (list) for (const f of closure) console.log(`  ${f} (${lineCount(root, f)})`);
  }
}

main();
