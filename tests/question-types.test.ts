/**
 * Question types (issue 41 item 12), pure functions: question configuration, answer checks and
 * canonical texts, the v1 mapping, and how the answer forms read multi-select boxes.
 */
import { describe, expect, it } from "vitest";
import { answerErrorMessage, answersFromForm } from "@/components/checkins/form-answers";
import { InvalidParameterError } from "@/lib/domain/errors";
import {
  type AnswerRule,
  describeQuestionType,
  normalizeAnswer,
  normalizeAnswers,
  parseQuestionType,
  v1QuestionType,
} from "@/lib/domain/question-types";

const rule = (over: Partial<AnswerRule & { id: number }>): { id: number; text: string } & AnswerRule => ({
  id: 7,
  text: "Q?",
  answer_type: "text",
  choices: [],
  add_own_options: false,
  optional: false,
  scale_min: null,
  scale_max: null,
  scale_labels: [],
  ...over,
});

describe("parseQuestionType", () => {
  it("defaults: choices make multiple choice, otherwise text; rating 1–5", () => {
    expect(parseQuestionType(0, {}, [])).toMatchObject({ answer_type: "text", optional: false });
    expect(parseQuestionType(0, {}, ["a", "b"])).toMatchObject({ answer_type: "multiple_choice", choices: ["a", "b"] });
    expect(parseQuestionType(0, { answerType: "rating" }, [])).toMatchObject({ scale_min: 1, scale_max: 5, scale_labels: [] });
    expect(parseQuestionType(0, { answerType: "number", optional: true }, ["x"])).toMatchObject({ choices: [], optional: true });
  });
  it("refuses a multi-select choice with a line break (the stored separator)", () => {
    expect(() => parseQuestionType(2, { answerType: "multi_select" }, ["a\nb", "c"])).toThrow(/questions\.2\.choices/);
  });
});

describe("normalizeAnswer", () => {
  it("rating: whole numbers on the scale, or a label; canonical digits", () => {
    const q = rule({ answer_type: "rating", scale_min: 0, scale_max: 3, scale_labels: ["No", "Low", "Mid", "High"] });
    expect(normalizeAnswer(q, " 2 ")).toBe("2");
    expect(normalizeAnswer(q, "high")).toBe("3");
    expect(normalizeAnswer(q, "+1")).toBe("1");
    for (const bad of ["4", "-1", "1.5", "x", "1e0"]) expect(() => normalizeAnswer(q, bad), bad).toThrow(InvalidParameterError);
  });
  it("number: decimals only, written as JavaScript prints them", () => {
    const q = rule({ answer_type: "number" });
    expect(normalizeAnswer(q, "007.50")).toBe("7.5");
    expect(normalizeAnswer(q, "-.5")).toBe("-0.5");
    for (const bad of ["1,5", "1e3", "NaN", "0x10", "1 2"]) expect(() => normalizeAnswer(q, bad), bad).toThrow(/must be a number/);
  });
  it("multi-select: picks in choice order, duplicates dropped; own options only where allowed", () => {
    const q = rule({ answer_type: "multi_select", choices: ["A", "B", "C"] });
    expect(normalizeAnswer(q, "C\nA\n\nC")).toBe("A\nC");
    expect(() => normalizeAnswer(q, "A\nZ")).toThrow(/"Z"/);
    expect(normalizeAnswer({ ...q, add_own_options: true }, "Z\nB")).toBe("B\nZ");
  });
  it("blank: optional questions store an empty answer, required typed ones are refused, text keeps the historical rule", () => {
    expect(normalizeAnswer(rule({ answer_type: "rating", optional: true }), "  ")).toBe("");
    expect(() => normalizeAnswer(rule({ answer_type: "number" }), "")).toThrow(/is required/);
    expect(normalizeAnswer(rule({}), "")).toBe("");
  });
  it("normalizeAnswers requires every required question when asked to", () => {
    const qs = [rule({ id: 1 }), rule({ id: 2, optional: true })];
    expect(normalizeAnswers([{ questionId: 1, text: "x" }], qs, true)).toEqual([{ questionId: 1, text: "x" }]);
    expect(() => normalizeAnswers([{ questionId: 2, text: "x" }], qs, true)).toThrow(/question_id 1 .* is required/);
    expect(normalizeAnswers([{ questionId: 2, text: "x" }], qs, false)).toHaveLength(1);
  });
});

describe("v1 and people", () => {
  it("maps extension types to the nearest v1 type", () => {
    expect(v1QuestionType(rule({ answer_type: "rating", scale_min: 1, scale_max: 3 }))).toEqual({
      answer_type: "multiple_choice",
      answer_choices: ["1", "2", "3"],
    });
    expect(v1QuestionType(rule({ answer_type: "multi_select", choices: ["A", "B"] }))).toEqual({
      answer_type: "multiple_choice",
      answer_choices: ["A", "B"],
    });
    expect(v1QuestionType(rule({ answer_type: "number" }))).toEqual({ answer_type: "text", answer_choices: [] });
    expect(v1QuestionType(rule({ answer_type: "open_ended" }))).toEqual({ answer_type: "open_ended", answer_choices: [] });
  });
  it("describes a type in one line", () => {
    expect(describeQuestionType(rule({ answer_type: "rating", scale_min: 1, scale_max: 5, scale_labels: ["a", "b", "c", "d", "e"] }))).toBe(
      "Rating 1–5: a … e",
    );
    expect(describeQuestionType(rule({ optional: true }))).toBe("optional");
  });
});

describe("answer forms", () => {
  it("join a multi-select's boxes by newlines and leave blank answers out", () => {
    const form = new FormData();
    form.append("answer-1", "Planning");
    form.append("answer-1", "Testing");
    form.append("answer-2", "  ");
    form.append("answer-3", " 4 ");
    form.append("anonymous", "on");
    expect(answersFromForm(form)).toEqual({
      answers: [
        { questionId: 1, text: "Planning\nTesting" },
        { questionId: 3, text: "4" },
      ],
      blank: true,
    });
    expect(answerErrorMessage(new Error('answers: the answer to question_id 4 ("Mood?") must be a number'))).toBe(
      'The answer to "Mood?" must be a number',
    );
  });
});
