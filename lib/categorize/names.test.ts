/**
 * Issue 41 item 13: the names the offline categorizer gives its categories, on a fixed corpus of
 * standup answers as the demo team writes them. Theme names are theme words from the answers,
 * never a filler or stop word ("Times", "Right", "No") nor a token that is not a word ("No.").
 */
import { describe, expect, it } from "vitest";
import { categorizeOffline, isNameable } from "@/lib/categorize/offline";
import { summarizeOffline } from "@/lib/categorize/summary";
import { OTHER_CATEGORY } from "@/lib/categorize/types";

const CORPUS = [
  "Finished CI build times.",
  "Refactored CI build times.",
  "Benchmark CI build times.",
  "Review CI build times.",
  "No blockers.",
  "No",
  "No blockers.",
  "Nothing right now.",
  "Nothing right now.",
  "All good!",
  "Nope, smooth sailing.",
  "Shipped the fleet telemetry dashboard.",
  "Debugged the fleet telemetry dashboard.",
  "Start on the firmware OTA pipeline.",
  "Wrap up the firmware OTA pipeline.",
  "Polish the 4.2 mobile release.",
  "Demo the 4.2 mobile release.",
  "Right now I am on the search indexing job.",
  "Deployed the search indexing job. Also joined the planning session.",
  "Spent some time on support tickets.",
  "Spent some time on support tickets.",
  "Times are tough.",
  "No. 5 is done",
  "No. 7 tomorrow",
];
const JUNK = ["Times", "Time", "No.", "No", "Right", "Now", "Nothing", "Tomorrow"];

describe("category names (issue 41)", () => {
  it("names the corpus's themes with theme words only", () => {
    const out = categorizeOffline({ question: "What did you do?", answers: CORPUS, categories: [] });
    const names = out.created.map((c) => c.name);
    expect(names).toEqual([
      "CI",
      "Blockers",
      "Fleet telemetry",
      "Firmware OTA",
      "Mobile release",
      "Indexing job",
      "Support tickets",
      OTHER_CATEGORY,
    ]);
    for (const junk of JUNK) expect(names).not.toContain(junk);
    // Fillers fall to "Other" instead of forming a theme of their own.
    expect(out.labels[CORPUS.indexOf("Nothing right now.")]).toEqual([OTHER_CATEGORY]);
    expect(out.labels[CORPUS.indexOf("No. 5 is done")]).toEqual([OTHER_CATEGORY]);
    expect(out.labels[CORPUS.indexOf("Spent some time on support tickets.")]).toEqual(["Support tickets"]);
  });

  it("keeps 'no blocker' answers out of a summary's themes", () => {
    const answers = CORPUS.map((text, i) => ({
      questionId: 1,
      question: "Updates?",
      answerType: "text",
      isBlockerQuestion: false,
      text,
      author: { userId: `U${i}`, name: `Person ${i}` },
    }));
    const sections = summarizeOffline({ standupName: "Daily", date: "2026-11-27", expected: 24, responded: 24, answers });
    const themes = sections.themes.map((t) => t.name);
    expect(themes.length).toBeGreaterThan(0);
    for (const junk of [...JUNK, "Blockers"]) expect(themes).not.toContain(junk);
  });

  it("accepts theme words and rejects fillers and non-words as names", () => {
    for (const ok of ["Meetings", "Code reviews", "CI", "Firmware OTA", "On-call rota"]) expect(isNameable(ok), ok).toBe(true);
    for (const bad of ["Times", "No.", "Right", "Now", "A", "Right now", "Nothing", "4.2", ""]) expect(isNameable(bad), bad).toBe(false);
  });
});
