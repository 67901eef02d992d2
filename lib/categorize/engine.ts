/**
 * Chooses the categorization engine: the language model when one is configured (lib/categorize/llm.ts),
 * else — and on any model error, timeout or invalid reply — the offline engine (lib/categorize/offline.ts).
 *
 * With a model: it receives the question, the existing category names and the answers as
 * `{"i": index, "text": ...}` — never a user id, name or e-mail, whatever the poll's anonymity — and
 * must answer `{"assignments": [{"i": 0, "categories": ["Meetings"]}, ...]}`, one entry per answer,
 * 1–3 short names each, reusing existing names where they fit. A name equal to an existing one
 * (case-insensitively) is that category; any other becomes a new category (keywords computed from
 * its answers so the offline engine can keep matching it).
 */
import { z } from "zod";
import { completeJson, type LlmConfig } from "@/lib/categorize/llm";
import { categorizeOffline, keywordsForNamedCategory } from "@/lib/categorize/offline";
import type { CategorizeInput, CategorizeOutput, StoredCategory } from "@/lib/categorize/types";

const MAX_ANSWER_CHARS = 1000;
const MAX_NAME_CHARS = 40;

const assignmentsSchema = z.object({
  assignments: z.array(
    z.object({
      i: z.number().int().min(0),
      categories: z.array(z.string().trim().min(1).max(MAX_NAME_CHARS)).min(1).max(3),
    }),
  ),
});

const SYSTEM_PROMPT = [
  "You group a team's answers to one open-ended poll question into themes.",
  'Reply with a JSON object only: {"assignments": [{"i": <answer index>, "categories": [<1 to 3 theme names>]}]} with one entry per answer.',
  'Theme names are short human phrases of 1 to 3 words taken from the answers\' own vocabulary (e.g. "Meetings", "Code review").',
  "Reuse an existing category name exactly whenever it fits; create a new name only when none fits.",
].join(" ");

/** Asks the model (see the module comment). @throws LlmError or Error when the reply is unusable. */
async function categorizeWithModel(input: CategorizeInput, config: LlmConfig): Promise<CategorizeOutput> {
  const request = {
    question: input.question,
    existing_categories: input.categories.map((c) => c.name),
    answers: input.answers.map((text, i) => ({ i, text: text.slice(0, MAX_ANSWER_CHARS) })),
  };
  const reply = await completeJson(
    config,
    [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: JSON.stringify(request) },
    ],
    assignmentsSchema,
  );
  const byIndex = new Map(reply.assignments.map((a) => [a.i, a.categories]));
  const missing = input.answers.findIndex((_, i) => !byIndex.has(i));
  if (missing >= 0) throw new Error(`model reply has no categories for answer ${missing}`);
  const known = new Map(input.categories.map((c) => [c.name.toLowerCase(), c.name]));
  const createdAnswers = new Map<string, string[]>();
  const labels = input.answers.map((text, i) => {
    const names: string[] = [];
    for (const raw of byIndex.get(i) ?? []) {
      const proposed = raw.replace(/\s+/g, " ");
      const name = known.get(proposed.toLowerCase()) ?? proposed.charAt(0).toUpperCase() + proposed.slice(1);
      if (!known.has(name.toLowerCase())) {
        known.set(name.toLowerCase(), name);
        createdAnswers.set(name, []);
      }
      createdAnswers.get(name)?.push(text);
      if (!names.includes(name)) names.push(name);
    }
    return names;
  });
  const created: StoredCategory[] = [...createdAnswers.entries()].map(([name, texts]) => ({
    name,
    keywords: keywordsForNamedCategory(name, texts),
  }));
  return { labels, created, engine: `model:${config.model}`, fallbackReason: null };
}

/**
 * Categorizes with the model when `llm` is set, falling back to the offline engine on any failure
 * (the reason is returned in `fallbackReason`). Never throws for model problems.
 */
export async function categorize(input: CategorizeInput, llm: LlmConfig | null): Promise<CategorizeOutput> {
  if (llm && input.answers.length) {
    try {
      return await categorizeWithModel(input, llm);
    } catch (err) {
      return { ...categorizeOffline(input), fallbackReason: (err as Error).message };
    }
  }
  return categorizeOffline(input);
}
