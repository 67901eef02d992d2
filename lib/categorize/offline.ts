/**
 * The offline categorization engine (issue 15): deterministic, no network, no model download.
 *
 * 1. Features per answer from wink-nlp (lib/categorize/text.ts): content-word lemmas and noun phrases.
 * 2. Match first: an answer joins every existing category whose keyword profile it resembles
 *    (cosine of the answer's term set with the category's keyword weights ≥ MATCH_THRESHOLD),
 *    best first — so categories persist across instances and names never change.
 * 3. Answers that fit none are clustered with `ml-hclust` (agglomerative, average linkage over
 *    TF-IDF cosine distances, cut at CUT_DISTANCE), at most CHUNK_SIZE at a time (agnes is cubic).
 *    Each cluster of ≥ 2 answers becomes a new category named by its most shared noun phrase or
 *    noun as written in the answers ("Code reviews", "Meetings"), never a filler or stop word nor
 *    a token that is not a word (`isNameable`: no "Times", "No.", "Right"); its keywords are the terms
 *    shared by ≥ 20% of its answers. Answers are then matched again (multi-label across old and
 *    new categories); what still fits nothing goes to "Other".
 *
 * Same input → same output (stable orders, lexicographic tie-breaks).
 */
import { agnes } from "ml-hclust";
import { type AnswerFeatures, extractFeatures, isGenericTerm } from "@/lib/categorize/text";
import { type CategorizeInput, type CategorizeOutput, OTHER_CATEGORY, type StoredCategory } from "@/lib/categorize/types";

/** Minimum cosine between an answer's terms and a category's keywords for the answer to join it. */
export const MATCH_THRESHOLD = 0.3;
/** Average-linkage cosine distance under which answers are grouped into one new category. */
export const CUT_DISTANCE = 0.8;
/** Most unmatched answers clustered at once (agglomerative clustering is O(n³)). */
export const CHUNK_SIZE = 120;
/** Most earlier unmatched answers (`context`) read per run. */
export const CONTEXT_SIZE = 60;
const MIN_CLUSTER = 2;
/** Clustering weight of a term used by a single answer of the run (shared terms weigh log(1 + df)). */
const SINGLE_WEIGHT = 0.2;
const KEYWORD_SHARE = 0.2;
const MAX_KEYWORDS = 12;
const MAX_NAME_LENGTH = 40;

type Profile = { name: string; weights: Map<string, number>; norm: number };

function toProfile(category: StoredCategory): Profile {
  const weights = new Map(Object.entries(category.keywords).filter(([, w]) => Number.isFinite(w) && w > 0));
  let sq = 0;
  for (const w of weights.values()) sq += w * w;
  return { name: category.name, weights, norm: Math.sqrt(sq) };
}

/** Cosine of a binary term vector with a weighted profile; 0 when either is empty. */
function matchScore(terms: readonly string[], profile: Profile): number {
  if (!terms.length || profile.norm === 0) return 0;
  let dot = 0;
  for (const t of terms) dot += profile.weights.get(t) ?? 0;
  return dot / (Math.sqrt(terms.length) * profile.norm);
}

/** Names of the profiles an answer matches, best score first (ties: older category first). */
function matchAll(features: AnswerFeatures, profiles: readonly Profile[]): string[] {
  const scored: Array<{ name: string; score: number; order: number }> = [];
  profiles.forEach((p, order) => {
    const score = matchScore(features.terms, p);
    if (score >= MATCH_THRESHOLD) scored.push({ name: p.name, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map((s) => s.name);
}

/**
 * Unit vectors of the answers for clustering. A term's weight grows with the number of answers
 * of the run sharing it (log(1 + df)): in a handful of short answers the theme word ("meetings")
 * is the frequent one, so plain IDF would drown it; terms used once carry a small weight.
 */
function themeVectors(items: readonly AnswerFeatures[]): Array<Map<string, number>> {
  const df = new Map<string, number>();
  for (const f of items) for (const t of f.terms) df.set(t, (df.get(t) ?? 0) + 1);
  return items.map((f) => {
    const v = new Map<string, number>();
    let sq = 0;
    for (const t of f.terms) {
      const d = df.get(t) ?? 1;
      const w = d > 1 ? Math.log(1 + d) : SINGLE_WEIGHT;
      v.set(t, w);
      sq += w * w;
    }
    const norm = Math.sqrt(sq) || 1;
    for (const [t, w] of v) v.set(t, w / norm);
    return v;
  });
}

function cosineDistance(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [t, w] of small) dot += w * (large.get(t) ?? 0);
  return 1 - dot;
}

/** Groups of indices into `items` (clusters of ≥ MIN_CLUSTER, in order of their first member). */
function cluster(items: readonly AnswerFeatures[]): number[][] {
  if (items.length < MIN_CLUSTER) return [];
  const vectors = themeVectors(items);
  const n = items.length;
  const matrix: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const d = cosineDistance(vectors[i], vectors[j]);
      matrix[i][j] = d;
      matrix[j][i] = d;
    }
  }
  const tree = agnes(matrix, { isDistanceMatrix: true, method: "average" });
  const groups = tree
    .cut(CUT_DISTANCE)
    .map((c) => c.indices().sort((a, b) => a - b))
    .filter((g) => g.length >= MIN_CLUSTER);
  return groups.sort((a, b) => a[0] - b[0]);
}

/**
 * True when a category name is made of theme words (issue 41: no "Times", "No.", "Right"): every
 * word a term of at least two letters without punctuation, and neither its first nor its last
 * word a filler or stop word (`isGenericTerm`).
 */
export function isNameable(name: string): boolean {
  const words = name.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return false;
  if (words.some((w) => !/^[\p{L}\p{N}+#-]+$/u.test(w))) return false;
  return !isGenericTerm(words[0]) && !isGenericTerm(words[words.length - 1]);
}

function capitalize(text: string): string {
  const trimmed = text.trim().slice(0, MAX_NAME_LENGTH);
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/** Most frequent value (ties: lexicographically smallest). */
function mostFrequent(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/**
 * Builds a category from a cluster: name from the most shared noun phrase (shared by ≥ half the
 * answers) or else the most shared noun (else any term), written as most answers write it.
 */
function describeCluster(
  members: readonly AnswerFeatures[],
  taken: ReadonlySet<string>,
  runDf: ReadonlyMap<string, number>,
): StoredCategory | null {
  const df = new Map<string, number>();
  for (const f of members) for (const t of f.terms) df.set(t, (df.get(t) ?? 0) + 1);
  // Most shared in the cluster first; ties: the term more answers of the whole run use, then a-z.
  const ranked = [...df.entries()].sort((a, b) => b[1] - a[1] || (runDf.get(b[0]) ?? 0) - (runDf.get(a[0]) ?? 0) || (a[0] < b[0] ? -1 : 1));
  const isPhrase = (t: string) => t.includes(" ");
  const isNoun = (t: string) => members.some((f) => f.nouns.includes(t));
  const half = Math.max(MIN_CLUSTER, Math.ceil(members.length / 2));
  const candidates = [
    ...ranked.filter(([t, c]) => isPhrase(t) && c >= half && isNoun(t)),
    ...ranked.filter(([t]) => !isPhrase(t) && isNoun(t)),
    ...ranked.filter(([t]) => !isPhrase(t) && !isNoun(t)),
  ];
  for (const [term] of candidates) {
    const written = mostFrequent(members.map((f) => f.surface.get(term)).filter((s): s is string => !!s)) ?? term;
    const name = capitalize(written);
    if (!name || !isNameable(name) || taken.has(name.toLowerCase())) continue;
    return { name, keywords: keywordsOf(ranked, members.length, [term]) };
  }
  return null;
}

/** Keyword weights from terms ranked by answer count: the top ones shared by ≥ 20%, plus `core` at 1. */
function keywordsOf(ranked: ReadonlyArray<[string, number]>, size: number, core: readonly string[]): Record<string, number> {
  const keywords: Record<string, number> = {};
  for (const [t, c] of ranked.slice(0, MAX_KEYWORDS)) {
    const share = c / size;
    if (share >= KEYWORD_SHARE) keywords[t] = Math.round(share * 1000) / 1000;
  }
  for (const t of core) keywords[t] = 1;
  return keywords;
}

/**
 * Keywords for a category named elsewhere (by a language model) from the answers filed under it,
 * so the offline engine can match later answers to it: the name's own terms weigh 1.
 */
export function keywordsForNamedCategory(name: string, answers: readonly string[]): Record<string, number> {
  const members = answers.map((a) => extractFeatures(a));
  const df = new Map<string, number>();
  for (const f of members) for (const t of f.terms) df.set(t, (df.get(t) ?? 0) + 1);
  const ranked = [...df.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return keywordsOf(ranked, Math.max(1, members.length), extractFeatures(name).terms);
}

/**
 * Categorizes answers offline (see the module comment).
 * @param input answers in stable order and the question's existing categories (oldest first).
 * @param precomputed optional features of the answers (same order), e.g. when a caller already has them.
 * @returns labels per answer (never empty: at least "Other"), the categories created, engine "offline".
 */
export function categorizeOffline(input: CategorizeInput, precomputed?: AnswerFeatures[]): CategorizeOutput {
  const features = precomputed ?? input.answers.map((a) => extractFeatures(a));
  const profiles = input.categories.filter((c) => c.name !== OTHER_CATEGORY).map(toProfile);
  const taken = new Set(input.categories.map((c) => c.name.toLowerCase()));
  taken.add(OTHER_CATEGORY.toLowerCase());
  const created: StoredCategory[] = [];
  const labels: string[][] = features.map((f) => matchAll(f, profiles));

  const unmatched = labels.flatMap((l, i) => (l.length === 0 && features[i].terms.length > 0 ? [i] : []));
  const context = (input.context ?? [])
    .slice(0, CONTEXT_SIZE)
    .map((text) => extractFeatures(text))
    .filter((f) => f.terms.length > 0 && matchAll(f, profiles).length === 0);
  for (let start = 0; start < unmatched.length; start += CHUNK_SIZE) {
    // Answers of earlier chunks may already fit a category created meanwhile.
    const chunk = unmatched.slice(start, start + CHUNK_SIZE).filter((i) => {
      if (start === 0) return true;
      labels[i] = matchAll(features[i], profiles);
      return labels[i].length === 0;
    });
    const extra = context.slice(0, Math.max(0, CHUNK_SIZE - chunk.length));
    const items = [...chunk.map((i) => features[i]), ...extra];
    const runDf = new Map<string, number>();
    for (const f of items) for (const t of f.terms) runDf.set(t, (runDf.get(t) ?? 0) + 1);
    for (const group of cluster(items)) {
      // A category needs at least one answer of this run; earlier answers only add evidence.
      if (group[0] >= chunk.length) continue;
      const category = describeCluster(
        group.map((g) => items[g]),
        taken,
        runDf,
      );
      if (!category) continue;
      created.push(category);
      profiles.push(toProfile(category));
      taken.add(category.name.toLowerCase());
    }
    for (const i of chunk) labels[i] = matchAll(features[i], profiles);
  }
  // Multi-label across old and new categories for answers matched before the new ones existed.
  if (created.length) {
    for (let i = 0; i < labels.length; i++) if (labels[i].length) labels[i] = matchAll(features[i], profiles);
  }
  const hasOther = input.categories.some((c) => c.name === OTHER_CATEGORY);
  for (let i = 0; i < labels.length; i++) {
    if (labels[i].length) continue;
    labels[i] = [OTHER_CATEGORY];
    if (!hasOther && !created.some((c) => c.name === OTHER_CATEGORY)) created.push({ name: OTHER_CATEGORY, keywords: {} });
  }
  return { labels, created, engine: "offline", fallbackReason: null };
}
