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
 * A chunk an `import()` would load later is not counted: only what loads with the route.
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

function check(route: string): boolean {
  const entry = path.join(next, "server", "app", route.replace(/^\//, ""), "route.js");
  if (!existsSync(entry)) {
    console.log(`${route}: ${path.relative(root, entry)} is missing (run npm run build first)`);
    return false;
  }
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift() as string;
    for (const chunk of chunksNamed(readFileSync(file, "utf8"))) {
      if (!seen.has(chunk)) {
        seen.add(chunk);
        queue.push(chunk);
      }
    }
  }
  let holds = false;
  let bytes = 0;
  console.log(`${route}: ${seen.size} files`);
  for (const file of seen) {
    const text = readFileSync(file, "utf8");
    const markers = MODEL_MARKERS.filter((m) => text.includes(m));
    bytes += statSync(file).size;
    if (markers.length) holds = true;
    console.log(
      `  ${path.relative(root, file)} ${(statSync(file).size / 1024).toFixed(0)} kB${markers.length ? `  NLP MODEL (${markers.join(", ")})` : ""}`,
    );
  }
  console.log(`  total ${(bytes / 1024).toFixed(0)} kB; NLP model: ${holds ? "yes" : "no"}`);
  return !holds;
}

const routes = process.argv.slice(2).filter((a) => a.startsWith("/"));
const ok = (routes.length ? routes : ["/v2/reports"]).map(check).every(Boolean);
process.exit(ok ? 0 : 1);
