/**
 * `npm run check:route-chunks [-- /v2/reports ...]` after `npm run build`: prints the server chunks
 * each app route loads when its module loads (read from .next/server/app/<route>/route.js) and
 * whether they contain the offline NLP model of lib/categorize (wink-eng-lite-web-model), found by
 * strings of its data and loader. Issue 51: the POST /v2/reports chunk must not hold the model (the
 * model belongs to the scheduler tick's categorization, never to a write). Exits 1 when a route's
 * chunks hold the model or its route.js is missing (no build yet).
 *
 * Chunks are found both ways Next.js writes them: Turbopack's `R.c("server/chunks/…js")` / quoted
 * `server/chunks/…js` paths, and webpack's numeric chunk ids (`.next/server/chunks/<id>.js`).
 * Printed in two groups: the chunks that load with the route (route.js names them), and those
 * the route's code may load later through `import()`; the model in either fails the check.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Strings found only in the model's data and loader (eng-core-web-model.json, read-core-model.js). */
const MODEL_MARKERS = ['"efSize"', "efSize:", "Unsupproted browser or node.js version", "eng-core-web-model"];

const root = path.resolve(import.meta.dirname, "..");
const next = path.join(root, ".next");

/** Chunk files (absolute) a compiled module names. */
function chunksNamed(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/["'`]((?:server\/)?chunks\/[^"'`]+?\.js)["'`]/g)) {
    const rel = m[1].startsWith("server/") ? m[1] : `server/${m[1]}`;
    found.add(path.join(next, rel));
  }
  // webpack: require("../../chunks/123.js") is caught above; ids passed to the runtime (t.X(0, [12, 345], …)).
  for (const m of text.matchAll(/\.X\(\s*0\s*,\s*\[([\d,\s]+)\]/g)) {
    for (const id of m[1]
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean))
      found.add(path.join(next, "server", "chunks", `${id}.js`));
  }
  return [...found].filter((f) => existsSync(f));
}

/** Prints one chunk line; true when it holds the model. */
function report(file: string): { holds: boolean; bytes: number } {
  const text = readFileSync(file, "utf8");
  const markers = MODEL_MARKERS.filter((m) => text.includes(m));
  const bytes = statSync(file).size;
  console.log(
    `    ${path.relative(root, file)} ${(bytes / 1024).toFixed(0)} kB${markers.length ? `  NLP MODEL (${markers.join(", ")})` : ""}`,
  );
  return { holds: markers.length > 0, bytes };
}

function check(route: string): boolean {
  const entry = path.join(next, "server", "app", route.replace(/^\//, ""), "route.js");
  if (!existsSync(entry)) {
    console.log(`${route}: ${path.relative(root, entry)} is missing (run npm run build first)`);
    return false;
  }
  // What loads with the route: route.js and the chunks it names. What those chunks name in turn
  // (import() targets) loads only when that code runs.
  const initial = [entry, ...chunksNamed(readFileSync(entry, "utf8"))];
  const seen = new Set<string>(initial);
  const lazy: string[] = [];
  const queue = [...initial];
  while (queue.length) {
    for (const chunk of chunksNamed(readFileSync(queue.shift() as string, "utf8"))) {
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      lazy.push(chunk);
      queue.push(chunk);
    }
  }
  const summary = (label: string, files: string[]) => {
    console.log(`  ${label}: ${files.length} files`);
    const rows = files.map(report);
    const holds = rows.some((r) => r.holds);
    console.log(`    total ${(rows.reduce((n, r) => n + r.bytes, 0) / 1024).toFixed(0)} kB; NLP model: ${holds ? "yes" : "no"}`);
    return holds;
  };
  console.log(route);
  const atLoad = summary("loaded with the route", initial);
  const later = summary("loaded later by import()", lazy);
  return !atLoad && !later;
}

const routes = process.argv.slice(2).filter((a) => a.startsWith("/"));
const ok = (routes.length ? routes : ["/v2/reports"]).map(check).every(Boolean);
process.exit(ok ? 0 : 1);
