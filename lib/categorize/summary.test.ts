/** Blocker detection of the offline summary: "no blocker" answers in their many forms, blocker phrases elsewhere. */
import { describe, expect, it } from "vitest";
import { type SummaryAnswer, summarizeOffline } from "@/lib/categorize/summary";
import { looksLikeBlockerQuestion } from "@/lib/domain/standup-config";

const answer = (text: string, question = "Anything blocking you?"): SummaryAnswer => ({
  questionId: 1,
  question,
  answerType: "text",
  isBlockerQuestion: looksLikeBlockerQuestion(question),
  text,
  author: null,
});

const blockersOf = (answers: SummaryAnswer[]) =>
  summarizeOffline({ standupName: "Daily", date: "2026-11-20", expected: 3, responded: 3, answers }).blockers.map((b) => b.text);

describe("offline summary blockers", () => {
  it("ignores answers that say nothing is blocking, however they are written", () => {
    const none = ["No blockers.", "None 👍", "Nothing right now.", "No", "All good!", "Nope, smooth sailing.", "-", "", "n/a"];
    expect(blockersOf(none.map((t) => answer(t)))).toEqual([]);
  });

  it("keeps real blockers, a 'no, but blocked' answer, and blocker phrases in other questions", () => {
    const texts = ["Waiting on Ana for a review.", "No, but blocked on CI.", "Need a decision from product."];
    expect(
      blockersOf([...texts.map((t) => answer(t)), answer("Stuck on the flaky pipeline all day.", "What did you do yesterday?")]),
    ).toEqual([...texts, "Stuck on the flaky pipeline all day."]);
    expect(blockersOf([answer("Shipped the billing fix.", "What did you do yesterday?")])).toEqual([]);
  });
});

describe("offline summary: question types (issue 41 item 12)", () => {
  it("counts ratings and each multi-select pick under mood, never as themes; numbers are neither", () => {
    const typed = (answerType: string, question: string, text: string): SummaryAnswer => ({
      ...answer(text, question),
      answerType,
      isBlockerQuestion: false,
    });
    const sections = summarizeOffline({
      standupName: "Daily",
      date: "2026-11-20",
      expected: 2,
      responded: 2,
      answers: [
        typed("rating", "Mood?", "4"),
        typed("rating", "Mood?", "4"),
        typed("multi_select", "Areas?", "Testing\nPlanning"),
        typed("multi_select", "Areas?", "Testing"),
        typed("number", "Hours blocked?", "3"),
        typed("number", "Hours blocked?", "3"),
      ],
    });
    expect(sections.mood).toEqual([
      { question: "Mood?", choices: [{ text: "4", count: 2 }] },
      {
        question: "Areas?",
        choices: [
          { text: "Testing", count: 2 },
          { text: "Planning", count: 1 },
        ],
      },
    ]);
    expect(sections.themes).toEqual([]);
    expect(sections.blockers).toEqual([]);
  });
});
