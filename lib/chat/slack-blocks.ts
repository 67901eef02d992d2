/**
 * Slack Block Kit payloads (issue 9): the "Answer" button of a question or reminder DM, the
 * choice buttons of a poll post, and the answer modal (`views.open`) holding all the questions of
 * an occurrence. Interaction ids are part of the contract with lib/chat/slack-interactions.ts:
 *   - button `open_report_form`, value = occurrence id;
 *   - button `poll_vote:<question index>:<choice index>`, value = JSON `{p, q, c}` (poll id,
 *     question id, choice text);
 *   - modal `callback_id` `report_form`, `private_metadata` = JSON `{o}`, one input block per
 *     question with `block_id` `q<question id>` and `action_id` `answer`.
 * Slack limits honoured: 3000 characters per text object, 25 elements per actions block, 75
 * characters per button label, 100 options per select.
 */
import { escapeSlackText } from "@/lib/chat/mrkdwn";
import { type AnswerRule, scalePoints } from "@/lib/domain/question-types";

type Question = { id: number; text: string; answer_type: string; choices: string[] };
/** A standup question with its type settings (issue 41 item 12); absent fields: required, default scale. */
type TypedQuestion = Question & Partial<Pick<AnswerRule, "optional" | "scale_min" | "scale_max" | "scale_labels">>;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const plain = (text: string, n = 3000) => ({ type: "plain_text", text: clip(text, n), emoji: true });
const section = (text: string) => ({ type: "section", text: { type: "mrkdwn", text: clip(text, 3000) } });

/** A question or reminder DM: the text and an "Answer" button that opens the modal. */
export function questionBlocks(text: string, occurrenceId: number): unknown[] {
  return [
    section(text),
    {
      type: "actions",
      elements: [{ type: "button", action_id: "open_report_form", text: plain("Answer"), style: "primary", value: String(occurrenceId) }],
    },
  ];
}

/** A poll post: the text and, per multiple-choice question, one button per choice. */
export function pollBlocks(text: string, pollId: number, questions: Question[]): unknown[] {
  const blocks: unknown[] = [section(text)];
  questions.forEach((q, qi) => {
    if (q.answer_type !== "multiple_choice" || q.choices.length === 0) return;
    if (questions.length > 1) blocks.push(section(`*${escapeSlackText(q.text)}*`));
    blocks.push({
      type: "actions",
      block_id: `poll_${q.id}`,
      elements: q.choices.slice(0, 25).map((choice, ci) => ({
        type: "button",
        action_id: `poll_vote:${qi}:${ci}`,
        text: plain(choice, 75),
        value: JSON.stringify({ p: pollId, q: q.id, c: choice }).slice(0, 2000),
      })),
    });
  });
  return blocks;
}

/** A select option: label (75 characters) and value (150). */
const option = (label: string, value: string) => ({ text: plain(label, 75), value: clip(value, 150) });

/**
 * The input element of one question (action id `answer`): multiple choice a select, rating radio
 * buttons over the scale (a select beyond 10 points), number a decimal `number_input`,
 * multi-select checkboxes (a multi-select beyond 10 choices; values joined by "\n" on submit),
 * text a multiline input.
 */
function answerElement(q: TypedQuestion): Record<string, unknown> {
  const choices = q.choices.slice(0, 100).map((c) => option(c, c));
  switch (q.answer_type) {
    case "rating": {
      const points = scalePoints({ scale_min: q.scale_min ?? null, scale_max: q.scale_max ?? null, scale_labels: q.scale_labels ?? [] });
      const options = points.map((p) => option(p.label, p.value));
      return options.length <= 10
        ? { type: "radio_buttons", action_id: "answer", options }
        : { type: "static_select", action_id: "answer", options };
    }
    case "number":
    case "numeric":
      return { type: "number_input", action_id: "answer", is_decimal_allowed: true };
    case "multi_select":
      return choices.length <= 10
        ? { type: "checkboxes", action_id: "answer", options: choices }
        : { type: "multi_static_select", action_id: "answer", options: choices };
    case "multiple_choice":
      if (choices.length > 0) return { type: "static_select", action_id: "answer", options: choices };
      return { type: "plain_text_input", action_id: "answer", multiline: true };
    default:
      return { type: "plain_text_input", action_id: "answer", multiline: true };
  }
}

/** Slack's limit on a plain_text_input's `initial_value`, characters. */
const INITIAL_VALUE_MAX = 3000;

/**
 * The answer modal for one occurrence: every question as an input block of its type
 * (`answerElement`); optional questions are optional blocks with a "nothing to report" hint.
 * `prefill` (issue 48, the activity pre-fill): the `initial_value` of one free-text question,
 * editable like any text, cut to Slack's 3000 characters at a line end.
 */
export function reportModal(input: {
  occurrenceId: number;
  standupName: string;
  questions: TypedQuestion[];
  prefill?: { questionId: number; text: string } | null;
}): Record<string, unknown> {
  return {
    type: "modal",
    callback_id: "report_form",
    private_metadata: JSON.stringify({ o: input.occurrenceId }),
    title: plain(input.standupName, 24),
    submit: plain("Submit"),
    close: plain("Cancel"),
    blocks: input.questions.map((q) => ({
      type: "input",
      block_id: `q${q.id}`,
      label: plain(q.text, 2000),
      optional: q.optional === true,
      ...(q.optional ? { hint: plain("Optional: leave it empty if there is nothing to report.") } : {}),
      element: withInitialValue(answerElement(q), input.prefill?.questionId === q.id ? input.prefill.text : ""),
    })),
  };
}

/** `element` with `initial_value` set when it is a text input and `text` is not empty. */
function withInitialValue(element: Record<string, unknown>, text: string): Record<string, unknown> {
  if (!text || element.type !== "plain_text_input") return element;
  let value = text;
  if (value.length > INITIAL_VALUE_MAX) {
    const cut = value.slice(0, INITIAL_VALUE_MAX);
    value = cut.includes("\n") ? cut.slice(0, cut.lastIndexOf("\n")) : cut;
  }
  return { ...element, initial_value: value };
}
