import { describe, expect, it } from "vitest";
import { InvalidParameterError } from "@/lib/domain/errors";
import { instantAtLocal, isValidTimezone, localDateOf, nextRunAt, parseTimeOfDay } from "@/lib/domain/schedule";

const ALL = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const iso = (d: Date | null) => d?.toISOString() ?? null;

describe("parseTimeOfDay", () => {
  it("normalises the accepted formats to HH:MM:SS", () => {
    expect(parseTimeOfDay("09:30")).toBe("09:30:00");
    expect(parseTimeOfDay("09:30:15")).toBe("09:30:15");
    expect(parseTimeOfDay("0930")).toBe("09:30:00");
    expect(parseTimeOfDay("9:05")).toBe("09:05:00");
    expect(parseTimeOfDay("23:59:59")).toBe("23:59:59");
    expect(parseTimeOfDay("00:00")).toBe("00:00:00");
  });

  it.each(["", "24:00", "12:60", "12:00:60", "930", "09:3", "9am", "09-30", "12:00:00:00"])("rejects %j", (input) => {
    expect(() => parseTimeOfDay(input)).toThrow(InvalidParameterError);
  });
});

describe("isValidTimezone", () => {
  it("accepts IANA names and rejects the rest", () => {
    expect(isValidTimezone("Europe/Berlin")).toBe(true);
    expect(isValidTimezone("UTC")).toBe(true);
    expect(isValidTimezone("Asia/Kolkata")).toBe(true);
    expect(isValidTimezone("Mars/Olympus")).toBe(false);
    expect(isValidTimezone("")).toBe(false);
    expect(isValidTimezone(" UTC")).toBe(false);
    expect(isValidTimezone(undefined)).toBe(false);
  });
});

describe("localDateOf", () => {
  it("gives the local calendar date of an instant", () => {
    const instant = new Date("2026-01-05T23:30:00Z");
    expect(localDateOf(instant, "UTC")).toBe("2026-01-05");
    expect(localDateOf(instant, "Asia/Kolkata")).toBe("2026-01-06"); // 05:00 next day
    expect(localDateOf(instant, "America/New_York")).toBe("2026-01-05");
    expect(localDateOf(new Date("2026-01-06T03:00:00Z"), "America/Los_Angeles")).toBe("2026-01-05");
  });

  it("throws on an unknown timezone", () => {
    expect(() => localDateOf(new Date(), "Nowhere/City")).toThrow(RangeError);
  });
});

describe("nextRunAt", () => {
  it("returns today's run when it is still ahead, else the next matching day", () => {
    // Monday 2026-01-05
    const base = { time: "09:00:00", timezone: "UTC", days: ["Mon", "Wed"] };
    expect(iso(nextRunAt({ ...base, after: new Date("2026-01-05T08:00:00Z") }))).toBe("2026-01-05T09:00:00.000Z");
    expect(iso(nextRunAt({ ...base, after: new Date("2026-01-05T09:00:00Z") }))).toBe("2026-01-07T09:00:00.000Z");
    expect(iso(nextRunAt({ ...base, after: new Date("2026-01-07T09:00:01Z") }))).toBe("2026-01-12T09:00:00.000Z");
  });

  it("wraps the week (Friday evening -> Monday, Sunday -> Sunday a week later)", () => {
    const after = new Date("2026-01-09T18:00:00Z"); // Friday
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "UTC", days: ["Mon", "Tue", "Wed", "Thu", "Fri"], after }))).toBe(
      "2026-01-12T09:00:00.000Z",
    );
    const sunday = new Date("2026-01-11T10:00:00Z");
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "UTC", days: ["Sun"], after: sunday }))).toBe("2026-01-18T09:00:00.000Z");
    // the only day is today, time already passed -> same weekday next week
    expect(iso(nextRunAt({ time: "09:00", timezone: "UTC", days: ["fri"], after }))).toBe("2026-01-16T09:00:00.000Z");
  });

  it("uses the local weekday, not the UTC one", () => {
    // 2026-01-05T20:00Z is Monday in UTC but Tuesday 01:30 in Kolkata.
    const after = new Date("2026-01-05T20:00:00Z");
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "Asia/Kolkata", days: ["Tue"], after }))).toBe("2026-01-06T03:30:00.000Z");
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "Asia/Kolkata", days: ["Mon"], after }))).toBe("2026-01-12T03:30:00.000Z");
  });

  it("handles the half-hour offset of Asia/Kolkata (UTC+05:30, no DST)", () => {
    const after = new Date("2026-06-01T00:00:00Z");
    expect(iso(nextRunAt({ time: "09:15:00", timezone: "Asia/Kolkata", days: ALL, after }))).toBe("2026-06-01T03:45:00.000Z");
    expect(iso(nextRunAt({ time: "00:10:00", timezone: "Asia/Kolkata", days: ALL, after }))).toBe("2026-06-01T18:40:00.000Z");
  });

  it("America/New_York spring forward: offset changes and a skipped time runs at the transition", () => {
    // DST starts Sunday 2026-03-08 at 02:00 EST -> 03:00 EDT (07:00Z).
    const sat = new Date("2026-03-07T12:00:00Z");
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "America/New_York", days: ["Sat"], after: new Date("2026-03-07T00:00:00Z") }))).toBe(
      "2026-03-07T14:00:00.000Z",
    ); // EST
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "America/New_York", days: ["Sun"], after: sat }))).toBe("2026-03-08T13:00:00.000Z"); // EDT
    // 02:30 does not exist on 2026-03-08: first valid instant after it is 03:00 EDT = 07:00Z
    expect(iso(nextRunAt({ time: "02:30:00", timezone: "America/New_York", days: ["Sun"], after: sat }))).toBe("2026-03-08T07:00:00.000Z");
    expect(iso(nextRunAt({ time: "02:00:00", timezone: "America/New_York", days: ["Sun"], after: sat }))).toBe("2026-03-08T07:00:00.000Z");
    // the next run after the gap run is the next week's regular 02:30 EDT
    expect(iso(nextRunAt({ time: "02:30:00", timezone: "America/New_York", days: ["Sun"], after: new Date("2026-03-08T07:00:00Z") }))).toBe(
      "2026-03-15T06:30:00.000Z",
    );
    expect(instantAtLocal("2026-03-08", "01:59:59", "America/New_York").toISOString()).toBe("2026-03-08T06:59:59.000Z");
  });

  it("America/New_York fall back: an ambiguous time runs once, at the earlier instant", () => {
    // DST ends Sunday 2026-11-01 at 02:00 EDT -> 01:00 EST; 01:30 happens at 05:30Z and 06:30Z.
    const after = new Date("2026-10-31T12:00:00Z");
    const first = nextRunAt({ time: "01:30:00", timezone: "America/New_York", days: ALL, after });
    expect(iso(first)).toBe("2026-11-01T05:30:00.000Z");
    // after the first run, the second 01:30 is skipped: next is Monday 01:30 EST
    expect(iso(nextRunAt({ time: "01:30:00", timezone: "America/New_York", days: ALL, after: first as Date }))).toBe(
      "2026-11-02T06:30:00.000Z",
    );
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "America/New_York", days: ["Sun"], after }))).toBe("2026-11-01T14:00:00.000Z"); // EST
  });

  it("Europe/Berlin transitions (spring gap at 02:00 CET, autumn overlap at 03:00 CEST)", () => {
    // 2026-03-29: 02:00 CET -> 03:00 CEST (01:00Z)
    const beforeSpring = new Date("2026-03-28T12:00:00Z");
    expect(iso(nextRunAt({ time: "02:30:00", timezone: "Europe/Berlin", days: ["Sun"], after: beforeSpring }))).toBe(
      "2026-03-29T01:00:00.000Z",
    );
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "Europe/Berlin", days: ["Sat"], after: new Date("2026-03-28T00:00:00Z") }))).toBe(
      "2026-03-28T08:00:00.000Z",
    ); // CET
    expect(iso(nextRunAt({ time: "09:00:00", timezone: "Europe/Berlin", days: ["Sun"], after: beforeSpring }))).toBe(
      "2026-03-29T07:00:00.000Z",
    ); // CEST
    // 2026-10-25: 03:00 CEST -> 02:00 CET; 02:30 happens at 00:30Z and 01:30Z -> earlier one, once.
    const beforeAutumn = new Date("2026-10-24T12:00:00Z");
    const first = nextRunAt({ time: "02:30:00", timezone: "Europe/Berlin", days: ["Sun", "Mon"], after: beforeAutumn });
    expect(iso(first)).toBe("2026-10-25T00:30:00.000Z");
    expect(iso(nextRunAt({ time: "02:30:00", timezone: "Europe/Berlin", days: ["Sun", "Mon"], after: first as Date }))).toBe(
      "2026-10-26T01:30:00.000Z",
    );
  });

  it("returns null without valid days and rejects bad input", () => {
    const after = new Date("2026-01-05T00:00:00Z");
    expect(nextRunAt({ time: "09:00:00", timezone: "UTC", days: [], after })).toBeNull();
    expect(nextRunAt({ time: "09:00:00", timezone: "UTC", days: ["Funday"], after })).toBeNull();
    expect(() => nextRunAt({ time: "25:00", timezone: "UTC", days: ALL, after })).toThrow(InvalidParameterError);
    expect(() => nextRunAt({ time: "09:00", timezone: "Bad/Zone", days: ALL, after })).toThrow(RangeError);
  });

  it("is consistent with localDateOf across a year of daily runs in several zones", () => {
    for (const timezone of ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Sydney", "Pacific/Chatham"]) {
      let after = new Date("2026-01-01T00:00:00Z");
      let previousDate = "";
      for (let i = 0; i < 366; i++) {
        const next = nextRunAt({ time: "08:45:00", timezone, days: ALL, after }) as Date;
        expect(next.getTime()).toBeGreaterThan(after.getTime());
        const date = localDateOf(next, timezone);
        expect(date > previousDate).toBe(true);
        previousDate = date;
        after = next;
      }
    }
  });
});
