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

type Question = { id: number; text: string; answer_type: string; choices: string[] };

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

/** The answer modal for one occurrence: every question as an input (multiple choice as a select). */
export function reportModal(input: { occurrenceId: number; standupName: string; questions: Question[] }): Record<string, unknown> {
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
      optional: false,
      element:
        q.answer_type === "multiple_choice" && q.choices.length > 0
          ? {
              type: "static_select",
              action_id: "answer",
              options: q.choices.slice(0, 100).map((c) => ({ text: plain(c, 75), value: clip(c, 150) })),
            }
          : { type: "plain_text_input", action_id: "answer", multiline: q.answer_type !== "numeric" },
    })),
  };
}
