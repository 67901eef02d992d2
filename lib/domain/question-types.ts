/**
 * Question types of standups (issue 41 item 12): what each type asks, how a question of each type
 * is configured, and how an answer to it is checked and stored. Answers are always stored as text
 * in the `answers` table, so exports, CSV and every report reader keep working:
 *
 * | answer_type       | configured by                        | stored answer text                           |
 * |-------------------|--------------------------------------|----------------------------------------------|
 * | `text`            | —                                    | as typed                                     |
 * | `multiple_choice` | `choices` (2+)                       | one of the choices (unless own options)      |
 * | `rating`          | `scale` {min, max, labels} (1–5)     | the whole number picked, e.g. "4"            |
 * | `number`          | —                                    | a decimal number, e.g. "12" or "-3.5"        |
 * | `multi_select`    | `choices` (2+, no newlines)          | the picked choices in choice order, "\n"-joined |
 *
 * Every question may be `optional`: a report may leave it out or answer it blank ("nothing to
 * report", stored as ""). A required rating, number or multi-select question needs a valid answer;
 * a required text question keeps the API's historical rule (any string, even empty).
 * `numeric` and `open_ended` (legacy and poll values) are not checked. Polls keep text and multiple choice.
 */
import { InvalidParameterError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";

/** The answer types a standup question can be created with (v2 and the dashboard). */
export const QUESTION_TYPES = ["text", "multiple_choice", "rating", "number", "multi_select"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** The types beyond the spec's values (text, multiple_choice, open_ended): v2 extensions, mapped for v1. */
export const EXTENSION_TYPES: readonly string[] = ["rating", "number", "multi_select"];

/** How multi-select answers join their picked choices in the stored text. */
export const MULTI_SELECT_SEPARATOR = "\n";

/** Default rating scale (1–5) and the limits of a scale: 2 to 11 points, lowest point 0..10. */
export const RATING_SCALE = { defaultMin: 1, defaultMax: 5, minLowest: 0, maxLowest: 10, maxPoints: 11 } as const;

/** How a question of a new or changed standup says its type (all optional: absent = text / choices decide). */
export type QuestionTypeInput = {
  /** Absent: multiple_choice when `choices` is non-empty, else text (the v1 and historical rule). */
  answerType?: QuestionType;
  /** Default false. */
  optional?: boolean;
  /** Rating questions only; defaults 1–5, no labels. `labels`: empty or one per point. */
  scale?: { min?: number; max?: number; labels?: string[] } | null;
};

/** The stored columns of a question's type (`questions` table). */
export type QuestionTypeColumns = {
  answer_type: QuestionType;
  choices: string[];
  optional: boolean;
  scale_min: number | null;
  scale_max: number | null;
  scale_labels: string[];
};

/** What an answer to a question may say (the type columns as the report writes read them). */
export type AnswerRule = {
  answer_type: string;
  choices: string[];
  add_own_options: boolean;
  optional: boolean;
  scale_min: number | null;
  scale_max: number | null;
  scale_labels: string[] | null;
};

/** One point of a rating scale: its stored value ("4") and label ("4 – Good", or "4" when unlabelled). */
export type ScalePoint = { value: string; label: string };

/** The points of a rating question's scale, lowest first (defaults 1–5 when the columns are null). */
export function scalePoints(q: Pick<AnswerRule, "scale_min" | "scale_max" | "scale_labels">): ScalePoint[] {
  const min = q.scale_min ?? RATING_SCALE.defaultMin;
  const max = q.scale_max ?? RATING_SCALE.defaultMax;
  const labels = q.scale_labels ?? [];
  const out: ScalePoint[] = [];
  for (let v = min; v <= max; v++) {
    const label = labels[v - min];
    out.push({ value: String(v), label: label ? `${v} – ${label}` : String(v) });
  }
  return out;
}

/** Splits a stored multi-select answer into its picked choices (blank lines dropped). */
export function splitMultiSelect(text: string): string[] {
  return text
    .split(MULTI_SELECT_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);
}

function wholeNumber(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidParameterError(`${field}: must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/**
 * Validates the type part of question `i` (`field` prefix `questions.<i>`) into its columns.
 * @param choices the question's trimmed, non-empty choices.
 * @throws InvalidParameterError naming the field: unknown type, a multi-select without 2 choices
 *   or with a newline in a choice, a bad scale (not whole numbers, fewer than 2 or more than 11
 *   points, labels not one per point).
 */
export function parseQuestionType(i: number, q: QuestionTypeInput, choices: string[]): QuestionTypeColumns {
  const field = `questions.${i}`;
  const type = q.answerType ?? (choices.length ? "multiple_choice" : "text");
  if (!(QUESTION_TYPES as readonly string[]).includes(type)) {
    throw new InvalidParameterError(`${field}.answer_type: must be one of ${QUESTION_TYPES.join(", ")}`);
  }
  if (q.optional !== undefined && typeof q.optional !== "boolean") throw new InvalidParameterError(`${field}.optional: must be a boolean`);
  const out: QuestionTypeColumns = {
    answer_type: type,
    choices: type === "multiple_choice" || type === "multi_select" ? choices : [],
    optional: q.optional === true,
    scale_min: null,
    scale_max: null,
    scale_labels: [],
  };
  if (type === "multi_select") {
    if (new Set(choices).size < 2)
      throw new InvalidParameterError(`${field}.choices: a multi-select question needs at least two different choices`);
    if (choices.some((c) => c.includes(MULTI_SELECT_SEPARATOR)))
      throw new InvalidParameterError(`${field}.choices: multi-select choices must not contain line breaks`);
  }
  if (type === "multiple_choice" && choices.length === 0)
    throw new InvalidParameterError(`${field}.choices: a multiple-choice question needs choices`);
  if (type === "rating") {
    const scale = q.scale ?? {};
    const min = wholeNumber(`${field}.scale.min`, scale.min ?? RATING_SCALE.defaultMin, RATING_SCALE.minLowest, RATING_SCALE.maxLowest);
    const max = wholeNumber(`${field}.scale.max`, scale.max ?? RATING_SCALE.defaultMax, min + 1, min + RATING_SCALE.maxPoints - 1);
    const raw: unknown[] = Array.isArray(scale.labels) ? scale.labels : [];
    const labels = raw.map((l) => (typeof l === "string" ? l.trim() : ""));
    if (labels.length && (labels.length !== max - min + 1 || labels.some((l) => !l || l.length > LIMITS.choiceText))) {
      throw new InvalidParameterError(
        `${field}.scale.labels: give one non-empty label (at most ${LIMITS.choiceText} characters) per point (${max - min + 1}), or none`,
      );
    }
    Object.assign(out, { scale_min: min, scale_max: max, scale_labels: labels });
  }
  return out;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * The stored text of one answer to `q` (see the module comment), or throws.
 * @returns the canonical text: trimmed rating number, number, or multi-select choices in choice order.
 * @throws InvalidParameterError naming the question (`question_id N ("text")`).
 */
export function normalizeAnswer(q: { id: number; text: string } & AnswerRule, text: string): string {
  const name = `answers: the answer to question_id ${q.id} ("${q.text}")`;
  const value = text.trim();
  if (value === "") {
    if (q.optional) return "";
    if (EXTENSION_TYPES.includes(q.answer_type)) throw new InvalidParameterError(`${name} is required`);
  }
  switch (q.answer_type) {
    case "rating": {
      const points = scalePoints(q);
      const labels = q.scale_labels ?? [];
      const lower = value.toLowerCase();
      const byLabel = points.find((p, i) => p.value === value || p.label.toLowerCase() === lower || labels[i]?.toLowerCase() === lower);
      const n = Number(value);
      const hit = byLabel ?? points.find((p) => /^[+-]?\d+$/.test(value) && Number(p.value) === n);
      if (!hit) {
        const [lo, hi] = [points[0].value, points[points.length - 1].value];
        throw new InvalidParameterError(`${name} must be a whole number from ${lo} to ${hi}`);
      }
      return hit.value;
    }
    case "number": {
      const n = Number(value);
      if (!DECIMAL.test(value) || !Number.isFinite(n)) throw new InvalidParameterError(`${name} must be a number, e.g. 12 or 3.5`);
      return String(n);
    }
    case "multi_select": {
      const picked = new Set(splitMultiSelect(value));
      if (picked.size === 0) throw new InvalidParameterError(`${name} must pick at least one choice`);
      const unknown = [...picked].filter((p) => !q.choices.includes(p));
      if (unknown.length && !q.add_own_options) {
        throw new InvalidParameterError(
          `${name} must pick from its choices (one per line): ${q.choices.map((c) => `"${c}"`).join(", ")}; not ${unknown.map((u) => `"${u}"`).join(", ")}`,
        );
      }
      return [...q.choices.filter((c) => picked.has(c)), ...unknown].join(MULTI_SELECT_SEPARATOR);
    }
    case "multiple_choice": {
      if (q.choices.length > 0 && !q.add_own_options && !q.choices.includes(value)) {
        throw new InvalidParameterError(`${name} must be one of its choices: ${q.choices.map((c) => `"${c}"`).join(", ")}`);
      }
      return text;
    }
    default:
      return text;
  }
}

/**
 * Checks `answers` against their questions and returns them with canonical texts
 * (`normalizeAnswer`). With `requireAll`, every question that is not optional must be answered.
 * @throws InvalidParameterError naming the question.
 */
export function normalizeAnswers<A extends { questionId: number; text: string }>(
  answers: readonly A[],
  questions: ReadonlyArray<{ id: number; text: string } & AnswerRule>,
  requireAll: boolean,
): A[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  if (requireAll) {
    const given = new Set(answers.map((a) => a.questionId));
    const missing = questions.find((q) => !q.optional && !given.has(q.id));
    if (missing) throw new InvalidParameterError(`answers: question_id ${missing.id} ("${missing.text}") is required`);
  }
  return answers.map((a) => {
    const q = byId.get(a.questionId);
    return q ? { ...a, text: normalizeAnswer(q, a.text) } : a;
  });
}

/**
 * A question as a v1 client sees it (v1 keeps its shapes): `rating` is multiple choice over the
 * scale's values ("1".."5": the stored answers), `multi_select` multiple choice over its choices
 * (one pick is a valid answer), `number` text. Other types are unchanged.
 */
export function v1QuestionType(q: Pick<AnswerRule, "answer_type" | "choices" | "scale_min" | "scale_max" | "scale_labels">): {
  answer_type: string;
  answer_choices: string[];
} {
  switch (q.answer_type) {
    case "rating":
      return { answer_type: "multiple_choice", answer_choices: scalePoints(q).map((p) => p.value) };
    case "multi_select":
      return { answer_type: "multiple_choice", answer_choices: [...q.choices] };
    case "number":
      return { answer_type: "text", answer_choices: [] };
    default:
      return { answer_type: q.answer_type, answer_choices: q.answer_type === "multiple_choice" ? [...q.choices] : [] };
  }
}

/** The type columns of a question to load with Prisma (`questionTypeSelect` → `AnswerRule` minus own options). */
export const questionTypeSelect = {
  answer_type: true,
  choices: true,
  optional: true,
  scale_min: true,
  scale_max: true,
  scale_labels: true,
} as const;

/** A question as the answer forms (dashboard and e-mailed link) render it. */
export type FormQuestion = {
  id: number;
  text: string;
  answerType: string;
  choices: string[];
  optional: boolean;
  /** Rating questions: the scale's points, lowest first; empty otherwise. */
  scale: ScalePoint[];
};

/** A question loaded with `questionTypeSelect` (plus id and text) as a `FormQuestion`. */
export function toFormQuestion(
  q: { id: number; text: string } & Pick<AnswerRule, "answer_type" | "choices" | "optional" | "scale_min" | "scale_max" | "scale_labels">,
): FormQuestion {
  return {
    id: q.id,
    text: q.text,
    answerType: q.answer_type,
    choices: [...q.choices],
    optional: q.optional,
    scale: q.answer_type === "rating" ? scalePoints(q) : [],
  };
}

/** One line describing a question's type for people ("Rating 1–5: Awful … Great · optional"); "" for required text. */
export function describeQuestionType(
  q: Pick<AnswerRule, "answer_type" | "choices" | "optional" | "scale_min" | "scale_max" | "scale_labels">,
): string {
  const parts: string[] = [];
  if (q.answer_type === "multiple_choice") parts.push(`Choices: ${q.choices.join(", ")}`);
  if (q.answer_type === "multi_select") parts.push(`Pick any: ${q.choices.join(", ")}`);
  if (q.answer_type === "number" || q.answer_type === "numeric") parts.push("Number");
  if (q.answer_type === "rating") {
    const points = scalePoints(q);
    const labels = q.scale_labels ?? [];
    const ends = labels.length ? `: ${labels[0]} … ${labels[labels.length - 1]}` : "";
    parts.push(`Rating ${points[0].value}–${points[points.length - 1].value}${ends}`);
  }
  if (q.optional) parts.push("optional");
  return parts.join(" · ");
}
