/**
 * Schedule maths of issue 10 over a whole year of DST transitions: Europe/Berlin, America/New_York,
 * Asia/Kolkata (no DST, +05:30), Australia/Lord_Howe (30-minute DST) and Pacific/Chatham (+12:45 /
 * +13:45). Expected offsets come from Intl (the platform's IANA data), never from our own code.
 */
import { describe, expect, it } from "vitest";
import { type AskingSchedule, closesAt, dueOn, nextOccurrenceStart, runsOn, windowEnd } from "@/lib/domain/asking-times";
import { localDateOf } from "@/lib/domain/schedule";

const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham"] as const;
const EVERY_DAY = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const H = 3_600_000;

/** Local wall-clock "HH:MM" of an instant, read through Intl. */
function wallTime(at: Date, tz: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: tz, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
}

/** Offset (minutes east of UTC) of `tz` at `at`, from Intl's longOffset name. */
function offsetMinutes(at: Date, tz: string): number {
  const name =
    new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName")
      ?.value ?? "";
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

function schedule(over: Partial<AskingSchedule> = {}): AskingSchedule {
  return { time: "09:30:00", timezone: "UTC", days: EVERY_DAY, personalised: false, waitTime: 0, responseWindowMinutes: null, ...over };
}

describe("nextOccurrenceStart over a year of DST transitions", () => {
  for (const tz of ZONES) {
    // Times inside each zone's transition hour (gap or overlap) plus an ordinary morning time.
    for (const time of ["02:00:00", "02:30:00", "02:45:00", "09:30:00"]) {
      it(`${tz} at ${time}: one run per local day, at the wall time or (in a gap) at the transition`, () => {
        const s = schedule({ time, timezone: tz });
        let after = new Date("2026-01-01T00:00:00Z");
        let previousDate: string | null = null;
        let gaps = 0;
        for (let i = 0; i < 366; i++) {
          const next = nextOccurrenceStart(s, [], after);
          expect(next).not.toBeNull();
          if (!next) return;
          expect(next.at.getTime()).toBeGreaterThan(after.getTime());
          expect(localDateOf(next.at, tz)).toBe(next.date);
          if (previousDate) {
            const expected = new Date(new Date(`${previousDate}T00:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
            expect(next.date).toBe(expected);
          }
          const wall = wallTime(next.at, tz);
          if (wall !== time.slice(0, 5)) {
            // A gap: the time does not exist that day; the run is at the first instant after it,
            // where the offset has just changed.
            gaps++;
            expect(offsetMinutes(new Date(next.at.getTime() - 1000), tz)).not.toBe(offsetMinutes(next.at, tz));
          } else {
            // An overlap resolves to the earlier instant: one hour (or 30 min) earlier is not the same wall time.
            const earlier = [30, 60].map((m) => wallTime(new Date(next.at.getTime() - m * 60_000), tz));
            expect(earlier).not.toContain(wall);
          }
          previousDate = next.date;
          after = next.at;
        }
        expect(gaps).toBeLessThanOrEqual(1);
      });
    }
  }

  it("skips the days not in `days` and never runs without automatic asking", () => {
    const s = schedule({ days: ["Mon", "Fri"], timezone: "Europe/Berlin" });
    const fri = nextOccurrenceStart(s, [], new Date("2026-11-20T07:00:00Z"));
    expect(fri?.date).toBe("2026-11-20");
    const mon = nextOccurrenceStart(s, [], new Date("2026-11-20T09:00:00Z"));
    expect(mon?.date).toBe("2026-11-23");
    expect(nextOccurrenceStart({ ...s, waitTime: null }, [], new Date("2026-11-20T07:00:00Z"))).toBeNull();
    expect(runsOn("2026-11-22", s.days)).toBe(false);
  });
});

describe("personalised asking", () => {
  const s = schedule({ personalised: true, timezone: "Europe/Berlin", days: ["Mon", "Tue", "Wed", "Thu", "Fri"] });

  it("asks each member at 09:30 in their own timezone, all in one occurrence dated by the local date", () => {
    const next = nextOccurrenceStart(s, ["Asia/Kolkata", "America/New_York"], new Date("2026-11-22T12:00:00Z"));
    expect(next).toEqual({ date: "2026-11-23", at: new Date("2026-11-23T04:00:00Z") }); // 09:30 IST
    expect(dueOn(s, "2026-11-23", "Asia/Kolkata").toISOString()).toBe("2026-11-23T04:00:00.000Z");
    expect(dueOn(s, "2026-11-23", "America/New_York").toISOString()).toBe("2026-11-23T14:30:00.000Z"); // 09:30 EST
    expect(wallTime(dueOn(s, "2026-11-23", "America/New_York"), "America/New_York")).toBe("09:30");
  });

  it("uses the standup's timezone for members without a valid one, and each zone's DST", () => {
    expect(dueOn(s, "2026-03-30", "not/a-zone").toISOString()).toBe("2026-03-30T07:30:00.000Z"); // Berlin CEST
    expect(dueOn(s, "2026-03-06", "America/New_York").toISOString()).toBe("2026-03-06T14:30:00.000Z"); // EST
    expect(dueOn(s, "2026-03-09", "America/New_York").toISOString()).toBe("2026-03-09T13:30:00.000Z"); // EDT
    expect(dueOn(s, "2026-10-05", "Australia/Lord_Howe").toISOString()).toBe("2026-10-04T22:30:00.000Z"); // +11:00 after the 30-min shift
    expect(dueOn(s, "2026-10-02", "Australia/Lord_Howe").toISOString()).toBe("2026-10-01T23:00:00.000Z"); // +10:30
  });

  it("skips a date whose earliest slot has passed as a whole", () => {
    const next = nextOccurrenceStart(s, ["Asia/Kolkata", "America/New_York"], new Date("2026-11-23T05:00:00Z"));
    expect(next?.date).toBe("2026-11-24");
  });

  it("adds wait_time minutes to the asking time", () => {
    expect(dueOn({ ...s, waitTime: 30 }, "2026-11-23", "Asia/Kolkata").toISOString()).toBe("2026-11-23T04:30:00.000Z");
  });
});

describe("response window", () => {
  it("defaults to the next slot or 24 h, whichever is first", () => {
    const daily = schedule({ timezone: "Europe/Berlin", days: ["Mon", "Tue", "Wed", "Thu", "Fri"] });
    // Friday 09:30 CET: 24 h (Saturday 09:30) comes before Monday's run.
    expect(windowEnd(daily, new Date("2026-11-20T08:30:00Z"), null).toISOString()).toBe("2026-11-21T08:30:00.000Z");
    // Twice a day: the next slot comes first.
    const twice = schedule({ time: "09:30:00", timezone: "UTC" });
    expect(windowEnd(twice, new Date("2026-11-20T20:00:00Z"), null).toISOString()).toBe("2026-11-21T09:30:00.000Z");
    // Across the autumn transition the 24 h are real hours.
    expect(windowEnd(daily, new Date("2026-10-23T07:30:00Z"), null).getTime() - new Date("2026-10-23T07:30:00Z").getTime()).toBe(24 * H);
  });

  it("uses the configured minutes, and closes when the last member's window ends", () => {
    const s = schedule({ responseWindowMinutes: 120, personalised: true });
    const asks = [
      { askedAt: new Date("2026-11-23T04:00:00Z"), timezone: "Asia/Kolkata" },
      { askedAt: new Date("2026-11-23T14:30:00Z"), timezone: "America/New_York" },
    ];
    expect(closesAt(s, asks)?.toISOString()).toBe("2026-11-23T16:30:00.000Z");
    expect(closesAt(s, [])).toBeNull();
  });
});
