/**
 * The offline categorizer on a fixed corpus: determinism, stability across runs (adding answers
 * never renames or drops a category, earlier answers keep their labels), multi-label, names taken
 * from the answers, "Other" for answers that fit nothing. No database, no network.
 */
import { describe, expect, it } from "vitest";
import { categorizeOffline, keywordsForNamedCategory } from "@/lib/categorize/offline";
import { OTHER_CATEGORY, type StoredCategory } from "@/lib/categorize/types";
import { MEETING_AND_REVIEW_ANSWERS } from "@/tests/categorize-answers";

const WEEK1 = [
  ...MEETING_AND_REVIEW_ANSWERS,
  "Our documentation is out of date.",
  "Update the documentation when an API changes.",
  "I would love a pony.",
];
const WEEK2 = [
  "Shorter meetings please.",
  "Nobody reviews my code, code review takes days.",
  "Better documentation for the internal libraries.",
  "Flaky tests make everyone ignore red builds.",
  "Fix or delete the flaky tests.",
];

const run = (answers: string[], categories: StoredCategory[] = [], context: string[] = []) =>
  categorizeOffline({ question: "What should we improve?", answers, categories, context });

describe("offline categorization", () => {
  it("gives the same categories for the same answers, every time", () => {
    const a = run(WEEK1);
    const b = run([...WEEK1]);
    expect(b).toEqual(a);
    expect(a.engine).toBe("offline");
  });

  it("groups answers by theme and names categories with words from the answers", () => {
    const out = run(WEEK1);
    const first = (i: number) => out.labels[i][0];
    expect(first(0)).toBe(first(1));
    expect(first(1)).toBe(first(2));
    expect(first(3)).toBe(first(4));
    expect(first(4)).toBe(first(5));
    expect(first(6)).toBe(first(7));
    expect(new Set([first(0), first(3), first(6)]).size).toBe(3);
    expect(first(0)).toBe("Meetings");
    expect(first(3)).toMatch(/^Code review/);
    expect(first(6)).toBe("Documentation");
    expect(out.labels[8]).toEqual([OTHER_CATEGORY]);
    expect(out.created.map((c) => c.name)).toContain(OTHER_CATEGORY);
  });

  it("adding answers in a later run never renames a category and keeps earlier labels", () => {
    const first = run(WEEK1);
    const stored = first.created;
    const second = run([...WEEK1, ...WEEK2], stored);
    // Earlier answers: same labels from the same stored categories.
    expect(second.labels.slice(0, WEEK1.length)).toEqual(first.labels);
    // New answers join existing categories; only a new theme creates a category, never a rename.
    expect(second.labels[WEEK1.length][0]).toBe("Meetings");
    expect(second.labels[WEEK1.length + 2][0]).toBe("Documentation");
    const createdNames = second.created.map((c) => c.name);
    for (const c of stored) expect(createdNames).not.toContain(c.name);
    expect(second.labels[WEEK1.length + 3][0]).toBe(second.labels[WEEK1.length + 4][0]);
    expect(createdNames).toContain(second.labels[WEEK1.length + 3][0]);
  });

  it("gives an answer several categories when it speaks of several themes", () => {
    const stored: StoredCategory[] = [
      { name: "Meetings", keywords: keywordsForNamedCategory("Meetings", ["Fewer meetings.", "Shorter meetings."]) },
      { name: "Documentation", keywords: keywordsForNamedCategory("Documentation", ["Better documentation.", "Update documentation."]) },
    ];
    const out = run(["Fewer meetings and better documentation.", "Shorter meetings."], stored);
    expect([...out.labels[0]].sort()).toEqual(["Documentation", "Meetings"]);
    expect(out.labels[1]).toEqual(["Meetings"]);
    expect(out.created).toEqual([]);
  });

  it("uses earlier unmatched answers as evidence for a new category without relabelling them", () => {
    const alone = run(["Flaky tests on main again."]);
    expect(alone.labels).toEqual([[OTHER_CATEGORY]]);
    const withContext = run(["Flaky tests on main again."], alone.created, ["The flaky tests failed my build twice."]);
    expect(withContext.labels[0][0]).toMatch(/^Flaky tests?$/);
    expect(withContext.labels).toHaveLength(1);
  });

  it("files empty or wordless answers under Other", () => {
    const out = run(["", "...", "👍"]);
    expect(out.labels).toEqual([[OTHER_CATEGORY], [OTHER_CATEGORY], [OTHER_CATEGORY]]);
  });
});
