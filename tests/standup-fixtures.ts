/**
 * Standups and reports written through the domain's own writes (`createStandup` as the team admin,
 * `submitReport`), for the tests that start from what those writes leave.
 */
import type { Actor } from "@/lib/domain/actor";
import { submitReport } from "@/lib/domain/report-writes";
import { type CreateStandupInput, createStandup } from "@/lib/domain/standup-writes";
import type { TestTeam } from "@/tests/fixtures";

/**
 * Creates a standup of `team` as its admin: one question, asked every day at 09:30 UTC, posted to
 * the team's first channel, every member but the admin taking part; `extra` overrides any field.
 * @returns the new standup's id
 */
export function createDailyStandup(team: TestTeam, extra: Partial<CreateStandupInput> = {}): Promise<{ id: number }> {
  return createStandup(team.admin.actor, {
    name: "Daily",
    questions: [{ text: "What did you do?" }],
    days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    time: "09:30",
    timezone: "UTC",
    broadcastChannel: team.channels[0].chat_id,
    users: team.users.slice(1).map((u) => u.chat_id),
    ...extra,
  });
}

/**
 * Submits `actor`'s report on `standup` through the domain's `submitReport`, answering every
 * question with `text`.
 */
export function submitEveryAnswer(actor: Actor, standup: { id: number; questions: Array<{ id: number }> }, text: string) {
  return submitReport(actor, { standupId: standup.id, answers: standup.questions.map((q) => ({ questionId: q.id, text })) });
}
