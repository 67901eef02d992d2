/**
 * Calendars excuse people (issue 48): ICS feeds served by the local fake (tests/fakes/ics-server.ts)
 * are refreshed into calendar-sourced absences and team holidays in the real database, and the
 * asking path (`startStandup`) does not ask the excused member. Dates: "now" is Saturday
 * 2026-11-28; Monday–Wednesday is 2026-11-30..2026-12-02.
 */
import type { JobHelpers } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { addAbsence, listTeamMembers } from "@/lib/domain/absences";
import {
  addCalendarFeed,
  listMyCalendarFeeds,
  maskFeedUrl,
  removeCalendarFeed,
  setAbsenceWords,
  setHolidayFeed,
} from "@/lib/domain/calendar-feeds";
import { refreshCalendarFeed } from "@/lib/domain/calendar-refresh";
import { erasePerson } from "@/lib/domain/erasure";
import { isTeamHoliday } from "@/lib/domain/holidays";
import { listOccurrenceStatuses } from "@/lib/domain/occurrence-status";
import { startStandup } from "@/lib/domain/occurrences";
import { createTaskList } from "@/lib/jobs/tasks";
import { BERLIN_VTIMEZONE, type IcsServer, ics, startIcsServer, vevent } from "@/tests/fakes/ics-server";
import { createTestCheckin, createTestTeam, createTestUser, type TestTeam, type TestUser } from "@/tests/fixtures";

const NOW = new Date("2026-11-28T12:00:00Z");
const allow = { allowPrivate: true, now: NOW };

const VACATION = vevent("vac-1", "SUMMARY:Vacation", "DTSTART;VALUE=DATE:20261130", "DTEND;VALUE=DATE:20261203");
const OTHERS = [
  // Weekly all-day OOO on Fridays, 4 times, the second one excluded (EXDATE).
  vevent(
    "ooo-fri",
    "SUMMARY:OOO",
    "DTSTART;VALUE=DATE:20261204",
    "DTEND;VALUE=DATE:20261205",
    "RRULE:FREQ=WEEKLY;COUNT=4",
    "EXDATE;VALUE=DATE:20261211",
  ),
  // A whole Berlin day (local midnight to midnight) out of office, timed with a TZID.
  vevent("tz-1", "SUMMARY:Out of office", "DTSTART;TZID=Europe/Berlin:20261207T000000", "DTEND;TZID=Europe/Berlin:20261208T000000"),
  // A TZID the feed does not define (an IANA name): 24 h from 20:00 New York = 02:00–02:00 Berlin.
  vevent("ny", "SUMMARY:OOO", "DTSTART;TZID=America/New_York:20261221T200000", "DTEND;TZID=America/New_York:20261222T200000"),
  // A floating time is the person's own wall-clock time (Berlin): exactly Monday 28 December.
  vevent("float", "SUMMARY:Vacation", "DTSTART:20261228T000000", "DTEND:20261229T000000"),
  // Not absences: a short OOO, an all-day meeting, a cancelled vacation, a word inside a word.
  vevent("short", "SUMMARY:OOO dentist", "DTSTART:20261209T090000Z", "DTEND:20261209T110000Z"),
  vevent("meet", "SUMMARY:Team offsite planning", "DTSTART;VALUE=DATE:20261210", "DTEND;VALUE=DATE:20261211"),
  vevent("cancel", "SUMMARY:Vacation", "STATUS:CANCELLED", "DTSTART;VALUE=DATE:20261214", "DTEND;VALUE=DATE:20261215"),
  vevent("zoo", "SUMMARY:Zooo visit", "DTSTART;VALUE=DATE:20261216", "DTEND;VALUE=DATE:20261217"),
];

let server: IcsServer;
let team: TestTeam;
let member: TestUser;
let feedId: number;

async function calendarAbsences(userId: number) {
  const rows = await db.absence.findMany({
    where: { user_id: userId, source: "calendar" },
    orderBy: { start_date: "asc" },
    select: { id: true, kind: true, start_date: true, end_date: true, calendar_feed_id: true },
  });
  return rows.map((r) => ({ ...r, start: r.start_date.toISOString().slice(0, 10), end: r.end_date.toISOString().slice(0, 10) }));
}

beforeAll(async () => {
  server = await startIcsServer({ slowMs: 2000, hugeBytes: 3 * 1024 * 1024 });
  team = await createTestTeam({ members: 1 });
  member = await createTestUser(team.id, { timezone: "Europe/Berlin" });
  server.setFeed("/member.ics", ics(BERLIN_VTIMEZONE, VACATION, ...OTHERS));
  process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
  feedId = (await addCalendarFeed(member.actor, { url: `${server.url}/member.ics` })).id;
  delete process.env.WEBHOOKS_ALLOW_PRIVATE;
});

afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_PRIVATE;
  await server?.close();
});

describe("calendar feeds", () => {
  it("turns Vacation Mon–Wed, a recurring OOO with EXDATE and a TZID day into calendar absences; the member is not asked those days", async () => {
    const r = await refreshCalendarFeed(feedId, allow);
    expect(r).toMatchObject({ status: "updated", entries: 7 });
    const rows = await calendarAbsences(member.id);
    expect(rows.map((a) => [a.start, a.end])).toEqual([
      ["2026-11-30", "2026-12-02"],
      ["2026-12-04", "2026-12-04"],
      ["2026-12-07", "2026-12-07"],
      ["2026-12-18", "2026-12-18"],
      ["2026-12-22", "2026-12-23"],
      ["2026-12-25", "2026-12-25"],
      ["2026-12-28", "2026-12-28"],
    ]);
    expect(rows.every((a) => a.kind === "out_of_office" && a.calendar_feed_id === feedId)).toBe(true);

    const standup = await createTestCheckin(team, { members: [member, team.admin], timezone: "UTC" });
    const tuesday = await startStandup(team.admin.actor, standup.id, {}, db, new Date("2026-12-01T10:00:00Z"));
    expect(tuesday.asked).not.toContain(member.id);
    const excused = await db.occurrenceMember.findFirst({ where: { occurrence_id: tuesday.occurrenceId, user_id: member.id } });
    expect(excused?.excused).toBe("out_of_office");
    // The standup page's member states say "excused (calendar)"; the Team page's absence list shows the source.
    const [latest] = await listOccurrenceStatuses(team.admin.actor, { standupId: standup.id, limit: 1 });
    expect(latest.members.find((m) => m.userId === member.id)).toMatchObject({ state: "excused", excusedByCalendar: true });
    expect(latest.members.find((m) => m.userId === team.admin.id)?.excusedByCalendar).toBe(false);
    const roster = await listTeamMembers(team.admin.actor, { today: "2026-11-28" });
    expect(roster.find((m) => m.id === member.id)?.absences[0]).toMatchObject({ startDate: "2026-11-30", source: "calendar" });
    const thursday = await startStandup(team.admin.actor, standup.id, {}, db, new Date("2026-12-03T10:00:00Z"));
    expect(thursday.asked).toContain(member.id);
  });

  it("never shows the secret address again: the owner sees it masked", async () => {
    const [feed] = await listMyCalendarFeeds(member.actor);
    expect(feed.maskedUrl).toBe(maskFeedUrl(`${server.url}/member.ics`));
    expect(feed.maskedUrl).not.toContain("member");
    expect(JSON.stringify(feed)).not.toContain("/member.ics");
  });

  it("an unchanged feed answers 304 to If-None-Match and nothing changes", async () => {
    const before = await calendarAbsences(member.id);
    const r = await refreshCalendarFeed(feedId, allow);
    expect(r.status).toBe("not_modified");
    const last = server.requests.filter((q) => q.path === "/member.ics").at(-1)!;
    expect(last.ifNoneMatch).not.toBeNull();
    expect(last.status).toBe(304);
    expect(await calendarAbsences(member.id)).toEqual(before);
  });

  it("the refresh_calendars job (crontab) and refresh_calendar_feed task refresh through the same path", async () => {
    const lines: string[] = [];
    const tasks = createTaskList((l) => lines.push(l));
    const before = server.requests.length;
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    try {
      await tasks.refresh_calendar_feed!({ feedId }, {} as JobHelpers);
      await tasks.refresh_calendars!({}, {} as JobHelpers);
    } finally {
      delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    }
    const mine = server.requests.slice(before).filter((q) => q.path === "/member.ics");
    expect(mine.map((q) => q.status)).toEqual([304, 304]);
    expect(lines.filter((l) => l.includes("failed"))).toEqual([]);
  });

  it("removing the event removes its absence (new ETag); a manual absence stays", async () => {
    const manual = await addAbsence(member.actor, { userId: member.id, kind: "vacation", startDate: "2026-12-01", endDate: "2026-12-01" });
    server.setFeed("/member.ics", ics(BERLIN_VTIMEZONE, ...OTHERS));
    const r = await refreshCalendarFeed(feedId, allow);
    expect(r).toMatchObject({ status: "updated", entries: 6 });
    const rows = await calendarAbsences(member.id);
    expect(rows.map((a) => a.start)).toEqual(["2026-12-04", "2026-12-07", "2026-12-18", "2026-12-22", "2026-12-25", "2026-12-28"]);
    const kept = await db.absence.findUnique({ where: { id: manual.id } });
    expect(kept).toMatchObject({ source: "manual", calendar_feed_id: null });
    // Excused by the manual absence now: not "excused (calendar)".
    const standup = await createTestCheckin(team, { members: [member], timezone: "UTC" });
    const started = await startStandup(team.admin.actor, standup.id, {}, db, new Date("2026-12-01T10:00:00Z"));
    expect(started.asked).toEqual([]);
    const [latest] = await listOccurrenceStatuses(team.admin.actor, { standupId: standup.id, limit: 1 });
    expect(latest.members[0]).toMatchObject({ state: "excused", excused: "vacation", excusedByCalendar: false });
  });

  it("refuses private addresses unless allowed, keeping the feed's absences", async () => {
    const before = await calendarAbsences(member.id);
    const r = await refreshCalendarFeed(feedId, { allowPrivate: false, now: NOW });
    expect(r.status).toBe("error");
    expect(r.error).toMatch(/address refused: resolves to a loopback address/);
    expect(await calendarAbsences(member.id)).toEqual(before);
    const feed = await db.calendarFeed.findUniqueOrThrow({ where: { id: feedId } });
    expect(feed.last_error).toMatch(/loopback/);
    await expect(addCalendarFeed(member.actor, { url: `${server.url}/member.ics` })).rejects.toThrow(/loopback/);
  });

  it("a slow feed times out and an oversized one is cut off, both recorded as errors", async () => {
    const slow = await db.calendarFeed.create({
      data: { team_id: team.id, user_id: member.id, kind: "absences", url: `${server.url}/slow/member.ics` },
    });
    const t0 = Date.now();
    const r1 = await refreshCalendarFeed(slow.id, { ...allow, timeoutMs: 300 });
    expect(r1.error).toMatch(/no answer within 300 ms/);
    expect(Date.now() - t0).toBeLessThan(1800);
    const huge = await db.calendarFeed.create({
      data: { team_id: team.id, user_id: member.id, kind: "absences", url: `${server.url}/huge.ics` },
    });
    const r2 = await refreshCalendarFeed(huge.id, { ...allow, maxBytes: 1024 * 1024 });
    expect(r2.error).toMatch(/larger than 1048576 bytes/);
    await db.calendarFeed.deleteMany({ where: { id: { in: [slow.id, huge.id] } } });
  });

  it("two refreshes of a changed feed at once leave one set of absences", async () => {
    server.setFeed("/member.ics", ics(BERLIN_VTIMEZONE, VACATION, ...OTHERS));
    const both = await Promise.all([refreshCalendarFeed(feedId, allow), refreshCalendarFeed(feedId, allow)]);
    expect(both.map((r) => r.status)).toEqual(["updated", "updated"]);
    expect((await calendarAbsences(member.id)).map((a) => a.start)).toEqual([
      "2026-11-30",
      "2026-12-04",
      "2026-12-07",
      "2026-12-18",
      "2026-12-22",
      "2026-12-25",
      "2026-12-28",
    ]);
  });

  it("removing the feed removes its current and future absences; past ones and manual ones stay", async () => {
    const past = await db.absence.create({
      data: {
        team_id: team.id,
        user_id: member.id,
        kind: "out_of_office",
        start_date: new Date("2026-01-05T00:00:00Z"),
        end_date: new Date("2026-01-06T00:00:00Z"),
        source: "calendar",
        calendar_feed_id: feedId,
      },
    });
    await removeCalendarFeed(member.actor, { feedId });
    expect((await calendarAbsences(member.id)).map((a) => [a.id, a.calendar_feed_id])).toEqual([[past.id, null]]);
    expect(await db.absence.count({ where: { user_id: member.id, source: "manual" } })).toBe(1);
  });

  it("a team's public-holidays feed becomes team holidays with their source; typed-in holidays stay", async () => {
    await db.teamHoliday.create({ data: { team_id: team.id, date: new Date("2026-12-25T00:00:00Z"), name: "Our Christmas" } });
    server.setFeed(
      "/holidays.ics",
      ics(
        vevent("h1", "SUMMARY:Christmas", "DTSTART;VALUE=DATE:20261224", "DTEND;VALUE=DATE:20261227"),
        vevent("h2", "SUMMARY:New Year", "DTSTART;VALUE=DATE:20270101", "RRULE:FREQ=YEARLY;COUNT=3"),
      ),
    );
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    const feed = await setHolidayFeed(team.admin.actor, { url: `${server.url}/holidays.ics` });
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    const r = await refreshCalendarFeed(feed.id, allow);
    expect(r).toMatchObject({ status: "updated", entries: 3 });
    const rows = await db.teamHoliday.findMany({ where: { team_id: team.id }, orderBy: { date: "asc" } });
    expect(rows.map((h) => [h.date.toISOString().slice(0, 10), h.name, h.calendar_feed_id])).toEqual([
      ["2026-12-24", "Christmas", feed.id],
      ["2026-12-25", "Our Christmas", null],
      ["2026-12-26", "Christmas", feed.id],
      ["2027-01-01", "New Year", feed.id],
    ]);
    expect(await isTeamHoliday(db, team.id, "2026-12-24")).toBe(true);
  });

  it("erasing a person removes their calendar feeds (secret addresses) and keeps the absences as history", async () => {
    const person = await createTestUser(team.id);
    server.setFeed("/person.ics", ics(VACATION));
    const feed = await db.calendarFeed.create({
      data: { team_id: team.id, user_id: person.id, kind: "absences", url: `${server.url}/person.ics` },
    });
    await refreshCalendarFeed(feed.id, allow);
    expect(await calendarAbsences(person.id)).toHaveLength(1);
    await erasePerson(person.actor, { userId: person.id, confirm: person.email });
    expect(await db.calendarFeed.count({ where: { user_id: person.id } })).toBe(0);
    expect((await calendarAbsences(person.id)).map((a) => [a.start, a.calendar_feed_id])).toEqual([["2026-11-30", null]]);
  });

  it("the team chooses the absence words (admins only); a refresh applies them", async () => {
    const person = await createTestUser(team.id);
    await expect(setAbsenceWords(person.actor, { words: "Elternzeit" })).rejects.toThrow(/admins/);
    expect(await setAbsenceWords(team.admin.actor, { words: "Elternzeit, elternzeit,\nSabbatical" })).toEqual(["Elternzeit", "Sabbatical"]);
    server.setFeed(
      "/words.ics",
      ics(VACATION, vevent("ez", "SUMMARY:ELTERNZEIT", "DTSTART;VALUE=DATE:20261207", "DTEND;VALUE=DATE:20261209")),
    );
    const feed = await db.calendarFeed.create({
      data: { team_id: team.id, user_id: person.id, kind: "absences", url: `${server.url}/words.ics` },
    });
    await refreshCalendarFeed(feed.id, allow);
    expect((await calendarAbsences(person.id)).map((a) => [a.start, a.end])).toEqual([["2026-12-07", "2026-12-08"]]);
    expect(await setAbsenceWords(team.admin.actor, { words: " " })).toContain("vacation");
  });
});
