/**
 * Demo categories: the category names the seeded poll results use (lib/seed/content.ts
 * PROCESS_SUGGESTIONS), one row per (open-ended question, name), with keywords computed from the
 * suggestions filed under each name so the offline categorizer matches later answers to them.
 */
import { keywordsForNamedCategory } from "@/lib/categorize/offline";
import { PROCESS_SUGGESTIONS } from "@/lib/seed/content";
import type { CategorizationPlan } from "@/lib/seed/history";

export type SeedCategoryRow = { checkinKey: string; questionIndex: number; name: string; keywords: Record<string, number> };

/** One row per (checkin, question) of the plan's categorizations and per name used, names in a-z order. */
export function seedCategoryRows(categorizations: readonly CategorizationPlan[]): SeedCategoryRow[] {
  const names = [...new Set(PROCESS_SUGGESTIONS.flatMap((s) => s.categories))].sort();
  const keywords = new Map(
    names.map((name) => [
      name,
      keywordsForNamedCategory(
        name,
        PROCESS_SUGGESTIONS.filter((s) => s.categories.includes(name)).map((s) => s.text),
      ),
    ]),
  );
  const pairs = new Map<string, { checkinKey: string; questionIndex: number }>();
  for (const c of categorizations)
    pairs.set(`${c.checkinKey}:${c.questionIndex}`, { checkinKey: c.checkinKey, questionIndex: c.questionIndex });
  return [...pairs.values()].flatMap((p) => names.map((name) => ({ ...p, name, keywords: keywords.get(name) ?? {} })));
}
