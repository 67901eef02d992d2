/**
 * The import graph of our own TypeScript files, read with the TypeScript compiler API (issue 51):
 * which file imports which, and whether the import exists at run time (a value import) or only for
 * the type checker (`import type`, or every named import marked `type`). Used by
 * scripts/layers-report.ts (cycles, upward imports, a route's runtime import closure).
 *
 * Module specifiers are resolved with the project's tsconfig (the `@/*` path); only files of this
 * repository count (never node_modules, never `.d.ts`). `import("…")` calls are recorded as
 * dynamic edges: they load at run time, but not when the importing module loads.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** One import of one file. `kind`: value (loads with the module), type (erased), dynamic (`import()`). */
export type ImportEdge = { from: string; to: string; specifier: string; kind: "value" | "type" | "dynamic" };

/** The graph: files (repo-relative, forward slashes) → their imports of other repo files. */
export type ImportGraph = { root: string; files: string[]; edges: Map<string, ImportEdge[]> };

const SKIP_DIRS = new Set(["node_modules", ".next", ".data", ".git", "test-results", "playwright-report", "generated"]);

/** Every .ts/.tsx file under `dirs` (repo-relative), skipping build output and generated code. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const rel = `${dir}/${name}`;
      if (SKIP_DIRS.has(name)) continue;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(rel);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

function compilerOptions(root: string): ts.CompilerOptions {
  const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
}

function importsOf(file: string, text: string): Array<{ specifier: string; kind: ImportEdge["kind"] }> {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Array<{ specifier: string; kind: ImportEdge["kind"] }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      let typeOnly = false;
      if (clause) {
        const named = clause.namedBindings;
        typeOnly =
          clause.isTypeOnly ||
          (!clause.name &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly));
      }
      found.push({ specifier: node.moduleSpecifier.text, kind: typeOnly ? "type" : "value" });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly));
      found.push({ specifier: node.moduleSpecifier.text, kind: typeOnly ? "type" : "value" });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) found.push({ specifier: arg.text, kind: "dynamic" });
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) found.push({ specifier: arg.literal.text, kind: "type" });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Reads `dirs` (e.g. lib, app, components, scripts) under `root` into an ImportGraph. */
export function readImportGraph(root: string, dirs: readonly string[]): ImportGraph {
  const options = compilerOptions(root);
  const files = sourceFiles(root, dirs);
  const edges = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const abs = path.join(root, file);
    const list: ImportEdge[] = [];
    for (const { specifier, kind } of importsOf(file, readFileSync(abs, "utf8"))) {
      const resolved = ts.resolveModuleName(specifier, abs, options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport || resolved.resolvedFileName.includes("/node_modules/")) continue;
      if (/\.d\.[cm]?ts$/.test(resolved.resolvedFileName)) continue;
      const to = path.relative(root, resolved.resolvedFileName).split(path.sep).join("/");
      list.push({ from: file, to, specifier, kind });
    }
    edges.set(file, list);
  }
  return { root, files, edges };
}

/** The files `start` loads at run time when it loads (value imports, transitively; no `import()`, no types). */
export function runtimeClosure(graph: ImportGraph, start: string): string[] {
  const seen = new Set<string>([start]);
  const stack = [start];
  while (stack.length) {
    const file = stack.pop() as string;
    for (const e of graph.edges.get(file) ?? []) {
      if (e.kind !== "value" || seen.has(e.to)) continue;
      seen.add(e.to);
      stack.push(e.to);
    }
  }
  return [...seen].sort();
}

/** Lines of a repo file (newline count, + 1 when the file does not end with one). */
export function lineCount(root: string, file: string): number {
  const text = readFileSync(path.join(root, file), "utf8");
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * The import cycles of the graph over the kinds given (default value imports only: the ones that
 * run): the strongly connected components of more than one file (Tarjan), each with one shortest
 * cycle through its first file as an example.
 */
export function importCycles(
  graph: ImportGraph,
  kinds: ReadonlySet<ImportEdge["kind"]> = new Set(["value"]),
): Array<{ files: string[]; example: string[] }> {
  const next = (f: string) => (graph.edges.get(f) ?? []).filter((e) => kinds.has(e.kind) && graph.edges.has(e.to)).map((e) => e.to);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const sccs: string[][] = [];
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) sccs.push(scc.sort());
    }
  };
  for (const f of graph.files) if (!idx.has(f)) strong(f);
  return sccs.map((files) => {
    const inside = new Set(files);
    const start = files[0];
    // Breadth-first search for the shortest way back to `start` inside the component.
    const prev = new Map<string, string>();
    const queue = [start];
    let end: string | null = null;
    while (queue.length && end === null) {
      const f = queue.shift() as string;
      for (const w of next(f)) {
        if (!inside.has(w)) continue;
        if (w === start) {
          end = f;
          break;
        }
        if (!prev.has(w)) {
          prev.set(w, f);
          queue.push(w);
        }
      }
    }
    const example: string[] = [];
    for (let f: string | undefined = end ?? undefined; f && f !== start; f = prev.get(f)) example.unshift(f);
    return { files, example: [start, ...example, start] };
  });
}
