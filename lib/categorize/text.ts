/**
 * Text features of one open-ended answer for the offline categorizer, from `wink-nlp` with the
 * `wink-eng-lite-web-model` English model (an npm package: no download, no network at run time,
 * deterministic). The model is loaded once per process on first use (~4 MB, ~150 ms).
 *
 * Features: lemmas of content words (nouns, proper nouns, verbs, adjectives that are not stop
 * words), and two-word phrases of adjacent content words (e.g. "code review"), each with the
 * surface form most often written in the answers (used for category names such as "Code reviews").
 */

import model from "wink-eng-lite-web-model";
import winkNLP, { type WinkMethods } from "wink-nlp";

/** Features of one answer. `terms`: distinct lemmas and phrases; `surface`: term → the words as written. */
export type AnswerFeatures = {
  terms: string[];
  /** Subset of `terms` that are two-word phrases ("code review"). */
  phrases: string[];
  /** Subset of `terms` that are nouns or noun phrases (preferred as category names). */
  nouns: string[];
  surface: Map<string, string>;
};

const CONTENT_POS = new Set(["NOUN", "PROPN", "VERB", "ADJ"]);
/**
 * Words that carry no theme in check-in answers even though the model does not list them as stop
 * words (light verbs, vague quantities, filler). Lowercase lemmas.
 */
const GENERIC = new Set([
  "be",
  "have",
  "do",
  "get",
  "make",
  "take",
  "keep",
  "go",
  "need",
  "want",
  "would",
  "could",
  "should",
  "let",
  "try",
  "feel",
  "think",
  "thing",
  "stuff",
  "lot",
  "bit",
  "way",
  "more",
  "less",
  "good",
  "great",
  "better",
  "nice",
  "really",
  "much",
  "many",
  "some",
  "other",
  "also",
  "still",
  "week",
  "today",
  "yesterday",
  "day",
  "team",
  "everyone",
  "people",
  "us",
  "we",
  "able",
  "sure",
  "like",
  // Issue 41: vague words and "no blocker" fillers that became theme names ("Times", "No.", "Right").
  "time",
  "times",
  "right",
  "now",
  "no",
  "yes",
  "ok",
  "okay",
  "nothing",
  "none",
  "nope",
  "thanks",
  "thank",
  "tomorrow",
  "morning",
  "afternoon",
]);

/** A term: starts with a letter, has at least two letters, and holds only letters, digits and + # - (no trailing "."). */
const WORD = /^(?=(?:.*\p{L}){2})\p{L}[\p{L}\p{N}+#-]*$/u;

/** True for a lemma that names no theme: a filler word (`GENERIC`) or not a word of at least two letters. */
export function isGenericTerm(lemma: string): boolean {
  return GENERIC.has(lemma) || !WORD.test(lemma);
}

let nlp: WinkMethods | undefined;

function getNlp(): WinkMethods {
  nlp ??= winkNLP(model);
  return nlp;
}

/**
 * Lowercase lemma, with the few model quirks that would split a theme mended (e.g. "reviews" →
 * "review") and trailing periods of abbreviations dropped ("No." → "no").
 */
function normalizeLemma(lemma: string): string {
  return lemma
    .toLowerCase()
    .replace(/[’']s$/, "")
    .replace(/\.+$/, "");
}

/**
 * Extracts the features of one answer (see the module comment). Pure and deterministic.
 * @param text the answer as written (any length; only the first 2,000 characters are read).
 */
export function extractFeatures(text: string): AnswerFeatures {
  const engine = getNlp();
  const its = engine.its;
  const doc = engine.readDoc(text.slice(0, 2000));
  const tokens = doc.tokens();
  // wink-nlp's typings declare `its.lemma` with a narrower signature than `out` accepts.
  const column = <T>(its_: unknown) => tokens.out(its_ as Parameters<typeof tokens.out>[0]) as unknown as T[];
  const lemmas = column<string>(its.lemma);
  const values = column<string>(its.value);
  const pos = column<string>(its.pos);
  const stop = column<boolean>(its.stopWordFlag);
  const type = column<string>(its.type);
  const terms = new Set<string>();
  const phrases = new Set<string>();
  const nouns = new Set<string>();
  const surface = new Map<string, string>();
  let prev: { lemma: string; value: string; pos: string } | null = null;
  for (let i = 0; i < lemmas.length; i++) {
    const lemma = normalizeLemma(lemmas[i]);
    const keep = type[i] === "word" && !stop[i] && CONTENT_POS.has(pos[i]) && !isGenericTerm(lemma);
    if (!keep) {
      prev = null;
      continue;
    }
    // As written, but lowercase unless an acronym ("CI", "API"), so sentence case does not split counts.
    const value = /^[A-Z0-9]{2,}$/.test(values[i]) ? values[i] : values[i].toLowerCase();
    terms.add(lemma);
    if (pos[i] === "NOUN" || pos[i] === "PROPN") nouns.add(lemma);
    if (!surface.has(lemma)) surface.set(lemma, value);
    // A phrase is "adjective/noun + noun" (noun compounds and qualified nouns), not verb chains.
    if (prev && prev.pos !== "VERB" && (pos[i] === "NOUN" || pos[i] === "PROPN")) {
      const phrase = `${prev.lemma} ${lemma}`;
      terms.add(phrase);
      phrases.add(phrase);
      nouns.add(phrase);
      if (!surface.has(phrase)) surface.set(phrase, `${prev.value} ${value}`);
    }
    prev = { lemma, value, pos: pos[i] };
  }
  return { terms: [...terms], phrases: [...phrases], nouns: [...nouns], surface };
}
