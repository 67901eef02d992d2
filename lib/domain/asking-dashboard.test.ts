/**
 * The domain reads and writes behind the dashboard's asking screens, against the real test
 * database: asking settings through the standup writes (one path for API and form), the
 * per-member occurrence states of the standup page, the pending occurrence dates of My check-ins,
 * and a zone ICU lists only under an alias (Asia/Kolkata) surviving an edit.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { listMyCheckins } from "@/lib/domain/dashboard";
import { InvalidParameterError } from "@/lib/domain/errors";
import { listOccurrenceStatuses } from "@/lib/domain/occurrence-status";
import { startStandup } from "@/lib/domain/occurrences";
import { type CreateStandupInput, updateStandup } from "@/lib/domain/standup-writes";
import { getStandupSettings } from "@/lib/domain/standups";
import { createTestTeam, type TestTeam } from "@/tests/fixtures";
import { createDailyStandup } from "@/tests/standup-fixtures";

let team: TestTeam;

beforeAll(async () => {
  team = await createTestTeam({ members: 3 });
});

const newStandup = (extra: Partial<CreateStandupInput> = {}) =>
  createDailyStandup(team, { name: "Asking settings", timezone: "Asia/Kolkata", ...extra });

describe("asking settings through the standup writes", () => {
  it("creates with defaults, then saves reminders, window, late days and manual mode without touching the zone", async () => {
    const { id } = await newStandup();
    let s = await getStandupSettings(team.admin.actor, id);
    expect([s.reminder_count, s.reminder_after_minutes, s.response_window_minutes, s.late_answer_days]).toEqual([1, 60, null, 7]);
    expect(s.wait_time).toBe(0);
    expect(s.next_run_at).not.toBeNull();

    s = await updateStandup(team.admin.actor, id, {
      name: "Asking settings",
      timezone: s.timezone,
      reminderCount: 3,
      reminderAfterMinutes: 30,
      responseWindowMinutes: 240,
      lateAnswerDays: 0,
      waitTime: null,
    });
    expect([s.reminder_count, s.reminder_after_minutes, s.response_window_minutes, s.late_answer_days]).toEqual([3, 30, 240, 0]);
    expect(s.wait_time).toBeNull();
    expect(s.next_run_at).toBeNull();
    expect(s.timezone).toBe("Asia/Kolkata");

    s = await updateStandup(team.admin.actor, id, { responseWindowMinutes: null, waitTime: 15 });
    expect(s.response_window_minutes).toBeNull();
    expect(s.wait_time).toBe(15);
    expect(s.next_run_at).not.toBeNull();
  });

  it("refuses out-of-range values, naming the field", async () => {
    const { id } = await newStandup();
    await expect(updateStandup(team.admin.actor, id, { reminderCount: 6 })).rejects.toThrow(/^reminder_count: /);
    await expect(updateStandup(team.admin.actor, id, { reminderAfterMinutes: 0 })).rejects.toThrow(/^reminder_after_minutes: /);
    await expect(updateStandup(team.admin.actor, id, { responseWindowMinutes: 1.5 })).rejects.toThrow(/^response_window_minutes: /);
    await expect(updateStandup(team.admin.actor, id, { lateAnswerDays: -1 })).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(newStandup({ reminderCount: 9 })).rejects.toThrow(/^reminder_count: /);
  });
});

describe("occurrence states and pending dates", () => {
  it("lists each member's state after Ask now, and the pending date on My check-ins", async () => {
    const { id } = await newStandup({ waitTime: null });
    const [, a, b, c] = team.users;
    const now = new Date();
    const started = await startStandup(team.admin.actor, id, {}, db, now);
    expect(started.asked).toEqual([a.id, b.id, c.id].sort((x, y) => x - y));

    // b answers; c gets a reminder; a is left pending.
    await db.report.updateMany({
      where: { occurrence_id: started.occurrenceId, user_id: b.id },
      data: { status: "submitted", submitted_at: now },
    });
    await db.occurrenceMember.update({
      where: { occurrence_id_user_id: { occurrence_id: started.occurrenceId, user_id: c.id } },
      data: { reminded_at: [new Date(now.getTime() + 60_000)] },
    });

    const [latest] = await listOccurrenceStatuses(a.actor, { standupId: id });
    expect(latest.occurrenceId).toBe(started.occurrenceId);
    expect(latest.date).toBe(started.date);
    const byUser = new Map(latest.members.map((m) => [m.userId, m]));
    expect(byUser.get(a.id)?.state).toBe("pending");
    expect(byUser.get(b.id)?.state).toBe("answered");
    expect(byUser.get(c.id)?.state).toBe("reminded");
    expect(byUser.get(c.id)?.reminders).toBe(1);

    const mine = (await listMyCheckins(a.actor)).find((x) => x.standupId === id);
    expect(mine?.pendingOccurrences).toEqual([{ occurrenceId: started.occurrenceId, date: started.date }]);
  });

  it("hides the states of a standup the actor cannot read", async () => {
    const { id } = await newStandup({ users: [team.users[1].chat_id] });
    const outsider = team.users[3];
    await expect(listOccurrenceStatuses(outsider.actor, { standupId: id })).rejects.toThrow(/not found/i);
  });
});
