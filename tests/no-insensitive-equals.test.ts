/**
 * Issue 40 item 5: Prisma runs `{ equals: x, mode: "insensitive" }` as `ILIKE x` and
 * `contains` / `startsWith` / `endsWith` as LIKE, none of them escaping `%` and `_` (prisma/orm
 * #19506), so a user's `%` matched every address. Lookups compare exactly instead
 * (lib/domain/exact-lookup.ts). This test reads the source of lib/, app/ and scripts/ and fails on
 * any `mode: "insensitive"` and on any Prisma LIKE filter whose value is not escaped on the same
 * line (a call of a function named `escapeLike…`).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated" && entry.name !== "node_modules") out.push(...sourceFiles(full));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** `file:line: text` of every line matching `pattern` (comments skipped), optionally unless `allowed` matches too. */
function offending(pattern: RegExp, allowed?: RegExp): string[] {
  const hits: string[] = [];
  for (const file of ["lib", "app", "scripts"].flatMap((d) => sourceFiles(path.join(ROOT, d)))) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      const code = line.trim();
      if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) return;
      if (pattern.test(line) && !(allowed?.test(line) ?? false)) hits.push(`${path.relative(ROOT, file)}:${i + 1}: ${code}`);
    });
  }
  return hits;
}

describe("no pattern matching where an exact match is meant", () => {
  it('no Prisma filter uses mode: "insensitive" (an unescaped ILIKE)', () => {
    expect(offending(/mode:\s*["']insensitive["']/)).toEqual([]);
  });

  it("no Prisma contains / startsWith / endsWith filter takes an unescaped value", () => {
    expect(offending(/\b(contains|startsWith|endsWith):\s*[^\s{]/, /escapeLike\w*\(/)).toEqual([]);
  });

  it("sees a planted offence (the scan itself works)", () => {
    expect(/mode:\s*["']insensitive["']/.test('where: { email: { equals: e, mode: "insensitive" } }')).toBe(true);
    expect(offending(/exact-lookup/).length).toBeGreaterThan(0);
  });
});
