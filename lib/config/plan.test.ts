/**
 * The plan of a "check-ins as code" document (lib/config/plan.ts): canonical forms compare equal,
 * questions are compared by key, a left-out `is_blocker` is not a change, reordering is one change.
 */
import { describe, expect, it } from "vitest";
import { canonicalConfig, planConfig } from "@/lib/config/plan";
import { type TeamConfig, validateTeamConfig } from "@/lib/config/schema";

function doc(input: unknown): TeamConfig {
  const r = validateTeamConfig(input);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return canonicalConfig(r.config);
}

const standup = (over: Record<string, unknown> = {}) => ({
  name: "Daily",
  time: "09:00:00",
  timezone: "UTC",
  days: ["Mon", "Tue"],
  members: ["a@x.example", "b@x.example"],
  questions: [
    { key: "done", text: "Done?", answer_type: "text", choices: [], is_blocker: false },
    { key: "block", text: "Blocked?", answer_type: "text", choices: [], is_blocker: true },
  ],
  ...over,
});

describe("planConfig", () => {
  it("sees no change between spellings of the same configuration", () => {
    const current = doc({ standups: [standup()] });
    const desired = doc({
      standups: [
        standup({
          time: "9:00",
          days: ["tue", "MON"],
          members: ["B@x.example", "a@x.example"],
          questions: [
            { key: "done", text: " Done? " },
            { key: "block", text: "Blocked?" },
          ],
        }),
      ],
    });
    expect(planConfig(current, desired, { prune: true })).toEqual({ changes: [], unmanaged: [] });
  });

  it("lists changed fields, questions by key, and a new order as one change", () => {
    const current = doc({ standups: [standup()] });
    const desired = doc({
      standups: [
        standup({
          time: "10:15",
          questions: [
            { key: "block", text: "Anything in your way?" },
            { key: "done", text: "Done?" },
            { key: "mood", text: "Mood?", choices: ["good", "bad"] },
          ],
        }),
      ],
    });
    const [change] = planConfig(current, desired, { prune: false }).changes;
    expect(change).toMatchObject({ action: "change", kind: "standup", name: "Daily" });
    expect(change.fields.map((f) => f.field)).toEqual(["time", "questions[key=block].text", "questions[key=mood]", "questions.order"]);
    expect(change.fields[0]).toEqual({ field: "time", from: "09:00:00", to: "10:15:00" });
    expect(change.fields[2].to).toMatchObject({ answer_type: "multiple_choice", choices: ["good", "bad"] });
  });

  it("deletes only with prune, otherwise lists what the document does not name", () => {
    const current = doc({ standups: [standup()], holidays: [{ date: "2026-12-25", name: "Xmas" }] });
    const desired = doc({});
    expect(planConfig(current, desired, { prune: false })).toEqual({
      changes: [],
      unmanaged: [
        { kind: "standup", name: "Daily" },
        { kind: "holiday", name: "2026-12-25" },
      ],
    });
    expect(planConfig(current, desired, { prune: true }).changes.map((c) => `${c.action} ${c.kind} ${c.name}`)).toEqual([
      "delete standup Daily",
      "delete holiday 2026-12-25",
    ]);
  });

  it("validation names the path of each problem", () => {
    const r = validateTeamConfig({
      standups: [
        standup(),
        standup({
          questions: [
            { key: "a", text: "x" },
            { key: "a", text: "y" },
          ],
        }),
      ],
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([
      { path: "standups[1].name", message: 'duplicate name "Daily"' },
      { path: "standups[1].questions[1].key", message: 'duplicate key "a"' },
    ]);
  });
});
