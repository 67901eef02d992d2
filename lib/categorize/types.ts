/**
 * Shapes shared by the categorization engines (offline and language model) and their callers.
 */

/**
 * A category of one poll question, persisted across instances (table `categories`). `name` is
 * published and never changes; `keywords` (term → weight 0..1, the share of the answers that
 * formed the category containing the term) let later answers be matched to it offline.
 */
export type StoredCategory = { name: string; keywords: Record<string, number> };

/** Input of one categorization run: the answers of one (poll instance, open-ended question). */
export type CategorizeInput = {
  /** The question text (context for a language model; unused offline). */
  question: string;
  /** Answers in a stable order (vote id order). Never carries user identities. */
  answers: string[];
  /** The question's existing categories, oldest first. */
  categories: StoredCategory[];
  /**
   * Earlier answers to the same question (other instances) that fit no category, newest first:
   * extra evidence for forming new categories; they are not labelled again (published labels
   * never change).
   */
  context?: string[];
};

/** Result of a run: per answer (same order) its category names, best first; the categories created. */
export type CategorizeOutput = {
  labels: string[][];
  created: StoredCategory[];
  /** How the categorization was made: "offline" or "model:<LLM_MODEL>". */
  engine: string;
  /** Why the language model was not used when one is configured (fallback reason), else null. */
  fallbackReason: string | null;
};

/** Name of the catch-all category for answers that fit no theme. */
export const OTHER_CATEGORY = "Other";
