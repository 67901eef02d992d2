/**
 * Summary of one standup occurrence (issue 15, beyond the spec): pure functions over the
 * occurrence's submitted reports.
 *
 * Offline (default): an extractive digest — blockers (answers to a blocker question that are not
 * "no"/"none"/empty, and answers elsewhere with blocker phrases such as "blocked", "stuck",
 * "waiting on"), who is blocked, recurring themes (offline categorization of the free-text answers
 * other than short "nothing to report" ones, categories shared by ≥ 2 answers), mood (choice counts of multiple-choice questions) and
 * participation. With a language model: the same sections plus an abstractive `overview`; the model
 * never receives names when the standup or a report is anonymous. Any model failure falls back.
 *
 * Anonymous reports (standup- or report-level) are never attributed: `user_id` and `name` null.
 */
import { z } from "zod";
import { completeJson, type LlmConfig } from "@/lib/categorize/llm";
import { categorizeOffline } from "@/lib/categorize/offline";
import { OTHER_CATEGORY } from "@/lib/categorize/types";
import { splitMultiSelect } from "@/lib/domain/question-types";

/** One answer of a submitted report, with its author unless anonymous. */
export type SummaryAnswer = {
  questionId: number;
  question: string;
  answerType: string;
  /** The question carries the blocker flag (`questions.is_blocker`). */
  isBlockerQuestion: boolean;
  text: string;
  author: { userId: string; name: string } | null;
};

export type SummaryInput = {
  standupName: string;
  date: string;
  expected: number;
  responded: number;
  answers: SummaryAnswer[];
};

/** The stored sections (`occurrence_summaries.sections`, also the API's `sections`). */
export type SummarySections = {
  overview: string | null;
  participation: { responded: number; expected: number };
  blockers: Array<{ user_id: string | null; name: string | null; question: string; text: string }>;
  blocked_members: Array<{ user_id: string; name: string }>;
  themes: Array<{ name: string; count: number }>;
  mood: Array<{ question: string; choices: Array<{ text: string; count: number }> }>;
};

export type SummaryOutput = { sections: SummarySections; text: string; engine: string; fallbackReason: string | null };

/** Answer types whose answers are picked, not written: counted under mood, never themes or blocker phrases (issue 41 item 12). */
const COUNTED_TYPES: ReadonlySet<string> = new Set(["multiple_choice", "rating", "multi_select"]);
const STRUCTURED_TYPES: ReadonlySet<string> = new Set([...COUNTED_TYPES, "number"]);

const BLOCKER_PHRASE = /\b(blocked|blocking|blocker|stuck|waiting (on|for)|can'?t proceed|held up)\b/i;
/** Answers that say "nothing is blocking" ("No blockers.", "Nope, smooth sailing.", "None 👍", "-"). */
const NO_BLOCKER =
  /^(no|nope|nah|none|nothing|nil|n\/?a|not really|not at the moment|not today|all good|all clear|smooth sailing|no blockers?|no issues|i'?m good|fine)\b/i;

function isBlocker(a: SummaryAnswer): boolean {
  const text = a.text.trim();
  // Letters only at the start, so "None 👍" and "- " read as "none" and empty.
  const words = text.replace(/^[^\p{L}]+/u, "");
  if (!words || (NO_BLOCKER.test(words) && !BLOCKER_PHRASE.test(words))) return false;
  return a.isBlockerQuestion || (!STRUCTURED_TYPES.has(a.answerType) && BLOCKER_PHRASE.test(text));
}

/** A short "nothing to report" answer ("No blockers.", "Nothing right now."): it carries no theme (issue 41). */
function saysNothing(text: string): boolean {
  const words = text.trim().replace(/^[^\p{L}]+/u, "");
  return !words || (NO_BLOCKER.test(words) && !BLOCKER_PHRASE.test(words) && words.split(/\s+/).length <= 4);
}

/** Builds the offline sections (see the module comment). Deterministic. */
export function summarizeOffline(input: SummaryInput): SummarySections {
  const blockers = input.answers.filter(isBlocker).map((a) => ({
    user_id: a.author?.userId ?? null,
    name: a.author?.name ?? null,
    question: a.question,
    text: a.text.trim(),
  }));
  const blocked = new Map<string, string>();
  for (const a of input.answers) if (a.author && isBlocker(a)) blocked.set(a.author.userId, a.author.name);
  const free = input.answers.filter((a) => !STRUCTURED_TYPES.has(a.answerType) && !a.isBlockerQuestion && !saysNothing(a.text));
  const themeRun = categorizeOffline({ question: "", answers: free.map((a) => a.text), categories: [] });
  const counts = new Map<string, number>();
  for (const labels of themeRun.labels)
    for (const name of labels) if (name !== OTHER_CATEGORY) counts.set(name, (counts.get(name) ?? 0) + 1);
  const themes = [...counts]
    .filter(([, c]) => c >= 2)
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1))
    .slice(0, 6);
  const moodBy = new Map<string, Map<string, number>>();
  for (const a of input.answers) {
    if (!COUNTED_TYPES.has(a.answerType) || !a.text.trim()) continue;
    const row = moodBy.get(a.question) ?? new Map<string, number>();
    // A multi-select answer counts each picked choice (lib/domain/question-types.ts).
    const picks = a.answerType === "multi_select" ? splitMultiSelect(a.text) : [a.text.trim()];
    for (const pick of picks) row.set(pick, (row.get(pick) ?? 0) + 1);
    moodBy.set(a.question, row);
  }
  const mood = [...moodBy].map(([question, row]) => ({
    question,
    choices: [...row].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : 1)),
  }));
  return {
    overview: null,
    participation: { responded: input.responded, expected: input.expected },
    blockers,
    blocked_members: [...blocked].map(([user_id, name]) => ({ user_id, name })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    themes,
    mood,
  };
}

/** Plain-text rendering of the sections (chat digest, e-mail, plain clients). */
export function renderSummaryText(input: Pick<SummaryInput, "standupName" | "date">, s: SummarySections): string {
  const lines = [`${input.standupName} — ${input.date}: ${s.participation.responded} of ${s.participation.expected} answered.`];
  if (s.overview) lines.push("", s.overview);
  lines.push("", s.blockers.length ? `Blockers (${s.blockers.length}):` : "Blockers: none reported.");
  for (const b of s.blockers) lines.push(`- ${b.name ? `${b.name}: ` : ""}${b.text}`);
  if (s.themes.length) lines.push("", `Themes: ${s.themes.map((t) => `${t.name} (${t.count})`).join(", ")}`);
  for (const m of s.mood) lines.push("", `${m.question} ${m.choices.map((c) => `${c.text} ${c.count}`).join(", ")}`);
  return lines.join("\n");
}

const modelSummarySchema = z.object({
  overview: z.string().trim().min(1).max(2000),
  blockers: z.array(z.object({ person: z.string().nullable().optional(), text: z.string().trim().min(1).max(500) })).max(50),
  themes: z.array(z.object({ name: z.string().trim().min(1).max(40), count: z.number().int().min(1) })).max(10),
});

/**
 * Summarizes with the model when `llm` is set (overview, blockers and themes from the model;
 * participation and mood always computed here), else — or on any failure — offline.
 * Names are sent only for answers that carry an author (never for anonymous ones).
 */
export async function summarize(input: SummaryInput, llm: LlmConfig | null): Promise<SummaryOutput> {
  const offline = summarizeOffline(input);
  const done = (sections: SummarySections, engine: string, fallbackReason: string | null): SummaryOutput => ({
    sections,
    text: renderSummaryText(input, sections),
    engine,
    fallbackReason,
  });
  if (!llm || !input.answers.length) return done(offline, "offline", null);
  try {
    const request = {
      standup: input.standupName,
      date: input.date,
      answers: input.answers.map((a) => ({ person: a.author?.name ?? null, question: a.question, answer: a.text.slice(0, 1000) })),
    };
    const reply = await completeJson(
      llm,
      [
        {
          role: "system",
          content:
            'Summarize a team\'s standup answers for their manager. Reply with a JSON object only: {"overview": "<2-4 sentences>", "blockers": [{"person": <name or null>, "text": "<blocker>"}], "themes": [{"name": "<1-3 words>", "count": <answers>}]}. Use a person only as given (null stays null); never guess who wrote an anonymous answer.',
        },
        { role: "user", content: JSON.stringify(request) },
      ],
      modelSummarySchema,
    );
    const byName = new Map(input.answers.filter((a) => a.author).map((a) => [a.author?.name ?? "", a.author]));
    const blockers = reply.blockers.map((b) => {
      const author = b.person ? byName.get(b.person) : undefined;
      return { user_id: author?.userId ?? null, name: author?.name ?? null, question: "", text: b.text };
    });
    return done({ ...offline, overview: reply.overview, blockers, themes: reply.themes }, `model:${llm.model}`, null);
  } catch (err) {
    return done(offline, "offline", (err as Error).message);
  }
}
