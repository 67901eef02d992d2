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
