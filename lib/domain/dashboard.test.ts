/**
 * Integration tests (real PostgreSQL) of the dashboard's own domain modules: participation
 * aggregates and heatmap (dashboard.ts), absences (absences.ts), API key management
 * (api-key-admin.ts), pause/resume (standup-writes.ts) and the channel feed (lib/domain/channel-feed.ts).
 */
import { describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db";
import { addAbsence, listTeamMembers, removeAbsence } from "@/lib/domain/absences";
import { createApiKeyForActor, listApiKeys, revokeApiKey } from "@/lib/domain/api-key-admin";
import { listChannelFeed } from "@/lib/domain/channel-feed";
import { addDaysIso, getOverview, getStandupHeatmap, getStandupParticipation, getStandupSummaries } from "@/lib/domain/dashboard";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { setStandupState } from "@/lib/domain/standup-writes";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam } from "@/tests/fixtures";

const ALL_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const today = () => new Date().toISOString().slice(0, 10);

describe("participation aggregates", () => {
  it("counts responded / expected per occurrence and excludes absent members who did not report", async () => {
    const team = await createTestTeam({ members: 3 });
    const [admin, a, b, c] = team.users;
    const standup = await createTestCheckin(team, { days: ALL_DAYS, members: [admin, a, b, c] });
    const day = addDaysIso(today(), -1);
    const occ = await createTestOccurrence(standup, day, [admin, a, b, c]);
    await createTestReport(standup, a, { occurrence_id: occ.id });
    await createTestReport(standup, b, { occurrence_id: occ.id, status: "discarded" });

    let [entry] = await getStandupParticipation(admin.actor, { standupId: standup.id, days: 7, today: today() });
    expect(entry).toMatchObject({ date: day, asked: 4, responded: 1, excused: 0, expected: 4, rate: 0.25 });

    // c on vacation that day → excluded; a reported while absent → still counted.
    await addAbsence(admin.actor, { userId: c.id, kind: "vacation", startDate: day, endDate: day });
    await addAbsence(admin.actor, { userId: a.id, kind: "out_of_office", startDate: day, endDate: today() });
    [entry] = await getStandupParticipation(admin.actor, { standupId: standup.id, days: 7, today: today() });
    expect(entry).toMatchObject({ responded: 1, excused: 1, expected: 3 });
    expect(entry.rate).toBeCloseTo(1 / 3);

    const summaries = await getStandupSummaries(admin.actor, { standupIds: [standup.id], days: 7 });
    expect(summaries.get(standup.id)).toMatchObject({ responded: 1, expected: 3, occurrences: 1 });

    const heatmap = await getStandupHeatmap(admin.actor, { standupId: standup.id, days: 7 });
    expect(heatmap.dates).toEqual([day]);
    const status = Object.fromEntries(heatmap.members.map((m) => [m.id, m.cells[0]]));
    expect(status).toEqual({ [admin.id]: "missed", [a.id]: "reported", [b.id]: "missed", [c.id]: "excused" });

    const overview = await getOverview(admin.actor, { timezone: "UTC" });
    expect(overview.trend).toHaveLength(30);
    expect(overview.trend.find((p) => p.date === day)).toMatchObject({ responded: 1, expected: 3 });
  });

  it("never shows another team's standup", async () => {
    const team = await createTestTeam({ members: 1 });
    const other = await createTestTeam({ members: 1 });
    const standup = await createTestCheckin(team, { days: ALL_DAYS });
    await expect(getStandupParticipation(other.admin.actor, { standupId: standup.id })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getStandupHeatmap(other.admin.actor, { standupId: standup.id })).rejects.toBeInstanceOf(NotFoundError);
    const overview = await getOverview(other.admin.actor, { timezone: "UTC" });
    expect(overview.week.every((o) => o.checkinId !== standup.id)).toBe(true);
  });
});

describe("absences", () => {
  it("lets admins add and remove ranges and lists upcoming ones", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, member] = team.users;
    const { id } = await addAbsence(admin.actor, {
      userId: member.id,
      kind: "vacation",
      startDate: today(),
      endDate: addDaysIso(today(), 3),
      note: "Beach",
    });
    const listed = (await listTeamMembers(member.actor)).find((m) => m.id === member.id);
    expect(listed?.absences).toEqual([
      { id, userId: member.id, kind: "vacation", startDate: today(), endDate: addDaysIso(today(), 3), note: "Beach", source: "manual" },
    ]);
    // issue 11: everyone enters their own vacations, only admins those of others
    await expect(
      addAbsence(member.actor, { userId: admin.id, kind: "vacation", startDate: today(), endDate: today() }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const own = await addAbsence(member.actor, { userId: member.id, kind: "out_of_office", startDate: today(), endDate: today() });
    await expect(removeAbsence(admin.actor, { absenceId: own.id })).resolves.toBeUndefined();
    await expect(
      addAbsence(admin.actor, { userId: member.id, kind: "vacation", startDate: today(), endDate: addDaysIso(today(), -1) }),
    ).rejects.toThrow(/before/);
    const other = await createTestTeam({ members: 0 });
    await expect(removeAbsence(other.admin.actor, { absenceId: id })).rejects.toBeInstanceOf(NotFoundError);
    await removeAbsence(admin.actor, { absenceId: id });
    expect((await listTeamMembers(admin.actor)).find((m) => m.id === member.id)?.absences).toEqual([]);
  });
});

describe("API key management", () => {
  it("creates a key shown once, lists it, and revocation makes it fail at once", async () => {
    const team = await createTestTeam({ members: 1 });
    const [admin, member] = team.users;
    const created = await createApiKeyForActor(member.actor, { name: "script" });
    expect(await authenticateApiKey(db, created.key)).toMatchObject({ userId: member.id, teamId: team.id });
    expect((await listApiKeys(member.actor)).map((k) => k.id)).toContain(created.id);
    expect((await listApiKeys(member.actor)).every((k) => k.isOwn)).toBe(true);
    expect((await listApiKeys(admin.actor)).map((k) => k.id)).toContain(created.id);

    const other = await createTestTeam({ members: 0 });
    await expect(revokeApiKey(other.admin.actor, { id: created.id })).rejects.toBeInstanceOf(NotFoundError);
    await revokeApiKey(admin.actor, { id: created.id });
    expect(await authenticateApiKey(db, created.key)).toBeNull();
  });
});

describe("pause / resume", () => {
  it("lets the creator or an admin pause and resume; others get Forbidden", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, owner, member] = team.users;
    const standup = await createTestCheckin(team, { owner, days: ALL_DAYS });
    await expect(setStandupState(member.actor, { standupId: standup.id, state: "paused" })).rejects.toBeInstanceOf(ForbiddenError);
    /** The standup's state and next run, as stored. */
    const schedule = () => db.checkin.findUniqueOrThrow({ where: { id: standup.id }, select: { state: true, next_run_at: true } });
    await setStandupState(owner.actor, { standupId: standup.id, state: "paused" });
    expect(await schedule()).toEqual({ state: "paused", next_run_at: null });
    await setStandupState(admin.actor, { standupId: standup.id, state: "active" });
    const row = await schedule();
    expect(row.state).toBe("active");
    expect(row.next_run_at?.getTime()).toBeGreaterThan(Date.now());
  });
});

describe("channel feed", () => {
  it("lists the team's channel messages newest first and hides confidential ones from non-owners", async () => {
    const team = await createTestTeam({ members: 1 });
    const [admin, member] = team.users;
    const open = await createTestCheckin(team, { name: "Open" });
    const secret = await createTestCheckin(team, { name: "Secret", is_confidential: true, owner: admin });
    const channel = team.channels[0];
    const mk = (text: string, checkinId: number) =>
      db.chatMessage.create({
        data: {
          team_id: team.id,
          ts: `${Date.now()}.${Math.random().toString().slice(2, 8)}`,
          kind: "report",
          channel_id: channel.id,
          checkin_id: checkinId,
          text,
        },
      });
    await mk("first", open.id);
    await mk("secret", secret.id);
    await mk("second", open.id);
    expect((await listChannelFeed(member.actor)).messages.map((m) => m.text)).toEqual(["second", "first"]);
    expect((await listChannelFeed(admin.actor)).messages.map((m) => m.text)).toEqual(["second", "secret", "first"]);
    const other = await createTestTeam({ members: 0 });
    expect((await listChannelFeed(other.admin.actor)).messages).toEqual([]);
  });
});
