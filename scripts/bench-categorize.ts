/**
 * `npm run bench:categorize`: quality and speed of the offline categorization engine
 * (lib/categorize/offline.ts) on the labelled corpus of lib/bench/categorize-corpus.ts
 * (218 answers, 4 questions). No database, no network. Prints:
 * - per question and overall: purity and adjusted Rand index of each answer's first category
 *   against the reference labels, categories made, share of answers filed under "Other";
 *   once with all answers of a question in one run ("one run") and once as the product sees them:
 *   weekly instances of 12 answers in a fixed shuffled order, categories persisting between runs
 *   ("weekly");
 * - throughput: answers categorized per second and ms per 1,000 answers, for 1,000 answers as 50
 *   instances of 20 (categories persisting, as in production) and as one single run of 1,000.
 * Numbers only, no pass/fail. Targets (issue 15): purity ≥ 0.7, ≥ 1,000 answers/s.
 */

import { CATEGORIZE_CORPUS } from "@/lib/bench/categorize-corpus";
import { adjustedRandIndex, purity } from "@/lib/bench/clustering";
import { printTable } from "@/lib/bench/stats";
import { categorizeOffline } from "@/lib/categorize/offline";
import { extractFeatures } from "@/lib/categorize/text";
import { OTHER_CATEGORY, type StoredCategory } from "@/lib/categorize/types";

/** Deterministic shuffle (xorshift seeded) so weekly batches mix the themes. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

type Run = { truth: string[]; predicted: string[]; categories: number; other: number };

function runQuestion(question: string, answers: Array<[string, string]>, batch: number): Run {
  let categories: StoredCategory[] = [];
  let context: string[] = [];
  const truth: string[] = [];
  const predicted: string[] = [];
  for (let start = 0; start < answers.length; start += batch) {
    const slice = answers.slice(start, start + batch);
    const out = categorizeOffline({ question, answers: slice.map(([, t]) => t), categories, context });
    categories = [...categories, ...out.created];
    // As the job does: earlier answers filed under "Other", newest first, are the next runs' context.
    context = [
      ...slice
        .filter((_, i) => out.labels[i][0] === OTHER_CATEGORY)
        .map(([, t]) => t)
        .reverse(),
      ...context,
    ];
    slice.forEach(([label], i) => {
      truth.push(label);
      predicted.push(out.labels[i][0]);
    });
  }
  return { truth, predicted, categories: categories.length, other: predicted.filter((p) => p === "Other").length };
}

function report(title: string, batchOf: (n: number) => number): void {
  console.log(`\n${title}`);
  const rows: string[][] = [];
  const all: Run = { truth: [], predicted: [], categories: 0, other: 0 };
  CATEGORIZE_CORPUS.forEach((q, qi) => {
    const answers = shuffled(q.answers, 1000 + qi);
    const run = runQuestion(q.question, answers, batchOf(answers.length));
    const labels = new Set(run.truth).size;
    rows.push([
      q.question.slice(0, 48),
      String(run.truth.length),
      String(labels),
      String(run.categories),
      purity(run.truth, run.predicted).toFixed(3),
      adjustedRandIndex(run.truth, run.predicted).toFixed(3),
      `${((100 * run.other) / run.truth.length).toFixed(0)}%`,
    ]);
    // Prefix with the question so categories of different questions never merge in the totals.
    all.truth.push(...run.truth.map((t) => `${qi}:${t}`));
    all.predicted.push(...run.predicted.map((p) => `${qi}:${p}`));
    all.categories += run.categories;
    all.other += run.other;
  });
  rows.push([
    "all questions",
    String(all.truth.length),
    String(new Set(all.truth).size),
    String(all.categories),
    purity(all.truth, all.predicted).toFixed(3),
    adjustedRandIndex(all.truth, all.predicted).toFixed(3),
    `${((100 * all.other) / all.truth.length).toFixed(0)}%`,
  ]);
  printTable(["question", "answers", "labels", "categories", "purity", "ARI", "Other"], rows);
}

function throughput(): void {
  const flat = CATEGORIZE_CORPUS.flatMap((q, qi) => q.answers.map(([, t]) => ({ qi, text: t })));
  const thousand = Array.from({ length: 1000 }, (_, i) => flat[(i * 7) % flat.length]);
  // Warm up the model and the JIT.
  for (const a of flat.slice(0, 50)) extractFeatures(a.text);
  const rows: string[][] = [];
  const time = (label: string, fn: () => void) => {
    const reps: number[] = [];
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      fn();
      reps.push(performance.now() - t);
    }
    const best = Math.min(...reps);
    rows.push([label, best.toFixed(0), ((1000 / best) * 1000).toFixed(0)]);
  };
  time("50 instances x 20 answers, categories persisting", () => {
    const byQuestion = new Map<number, StoredCategory[]>();
    for (let start = 0; start < thousand.length; start += 20) {
      const slice = thousand.slice(start, start + 20);
      const qi = slice[0].qi;
      const categories = byQuestion.get(qi) ?? [];
      const out = categorizeOffline({ question: "", answers: slice.map((a) => a.text), categories });
      byQuestion.set(qi, [...categories, ...out.created]);
    }
  });
  time("one run of 1,000 answers, no categories yet", () => {
    categorizeOffline({ question: "", answers: thousand.map((a) => a.text), categories: [] });
  });
  console.log("\nThroughput (best of 3 runs, this machine)");
  printTable(["workload", "ms per 1,000 answers", "answers/s"], rows);
}

console.log("Offline categorization benchmark: lib/bench/categorize-corpus.ts");
report("One run per question (all answers at once)", (n) => n);
report("Weekly instances of 12 answers, categories persisting", () => 12);
throughput();
