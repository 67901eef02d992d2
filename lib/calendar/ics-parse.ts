/**
 * Reading an ICS feed into the event occurrences of a date window (issue 48), with `ical.js`: the
 * library expands recurrences (RRULE, RDATE, EXDATE, moved or changed occurrences with
 * RECURRENCE-ID) and converts times through the feed's VTIMEZONE definitions. Nothing here does
 * date arithmetic by hand; local dates of timed events come from `Intl` in the given IANA zone, and
 * floating times (or a TZID the feed does not define) are placed in their zone by `@date-fns/tz`.
 */
import { TZDate } from "@date-fns/tz";
import ICAL from "ical.js";

/** One occurrence of an event: local dates "YYYY-MM-DD", `endDate` inclusive. */
export type IcsOccurrence = {
  uid: string;
  title: string;
  /** STATUS (CONFIRMED / TENTATIVE / CANCELLED), upper case, or "" */
  status: string;
  /** X-MICROSOFT-CDO-BUSYSTATUS (Outlook: FREE / TENTATIVE / BUSY / OOF), upper case, or "" */
  busyStatus: string;
  /** TRANSP (OPAQUE / TRANSPARENT), upper case, or "" */
  transp: string;
  allDay: boolean;
  /** Length of a timed occurrence, minutes (all-day: whole days × 1440). */
  durationMinutes: number;
  startDate: string;
  endDate: string;
};

/** Most occurrences read from one feed (a safety cap against unbounded rules). */
const MAX_OCCURRENCES = 5000;

/** "YYYY-MM-DD" of instant `d` in IANA zone `timeZone`. */
function localDate(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
}

/** Whether `zone` is an IANA time zone name this runtime knows. */
function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant of a date-time. A time the feed's VTIMEZONEs resolve converts through them; a
 * floating time (no zone) or one whose TZID has no VTIMEZONE in the feed is read as wall-clock time
 * in that TZID when it names an IANA zone, else in `fallbackZone` (the person's or team's zone), by
 * `@date-fns/tz`.
 */
function instantOf(t: ICAL.Time, tzid: string | null, fallbackZone: string): Date {
  if (t.zone !== ICAL.Timezone.localTimezone) return t.toJSDate();
  const zone = tzid && knownZone(tzid) ? tzid : fallbackZone;
  return new Date(new TZDate(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, zone).getTime());
}

function tzidOf(comp: ICAL.Component, name: string): string | null {
  const v = comp.getFirstProperty(name)?.getParameter("tzid");
  return typeof v === "string" ? v : null;
}

function upper(comp: ICAL.Component, name: string): string {
  const v = comp.getFirstPropertyValue(name);
  return typeof v === "string" ? v.toUpperCase() : "";
}

/** One occurrence row from an occurrence's start/end (ICAL.Time) and its defining component. */
function toOccurrence(item: ICAL.Event, start: ICAL.Time, end: ICAL.Time, timeZone: string): IcsOccurrence {
  const base = {
    uid: item.uid ?? "",
    title: item.summary ?? "",
    status: upper(item.component, "status"),
    busyStatus: upper(item.component, "x-microsoft-cdo-busystatus"),
    transp: upper(item.component, "transp"),
  };
  if (start.isDate) {
    // DTEND of an all-day event is exclusive; a missing or equal end means that one day.
    const last = end.compare(start) > 0 ? end.clone() : start.clone();
    if (end.compare(start) > 0) last.adjust(-1, 0, 0, 0);
    const days = Math.max(1, Math.round((end.toUnixTime() - start.toUnixTime()) / 86_400));
    return {
      ...base,
      allDay: true,
      durationMinutes: days * 1440,
      startDate: start.toString().slice(0, 10),
      endDate: last.toString().slice(0, 10),
    };
  }
  const s = instantOf(start, tzidOf(item.component, "dtstart"), timeZone);
  const e = end.compare(start) > 0 ? instantOf(end, tzidOf(item.component, "dtend") ?? tzidOf(item.component, "dtstart"), timeZone) : s;
  const lastInstant = e.getTime() > s.getTime() ? new Date(e.getTime() - 1) : s;
  return {
    ...base,
    allDay: false,
    durationMinutes: Math.round((e.getTime() - s.getTime()) / 60_000),
    startDate: localDate(s, timeZone),
    endDate: localDate(lastInstant, timeZone),
  };
}

/**
 * The occurrences of the feed's events that overlap local dates `from`..`to` ("YYYY-MM-DD",
 * inclusive). Timed events get local dates in `timeZone` (the person's or the team's).
 * @throws Error when the text is not iCalendar.
 */
export function readIcsOccurrences(text: string, window: { from: string; to: string; timeZone: string }): IcsOccurrence[] {
  const root = new ICAL.Component(ICAL.parse(text) as unknown as unknown[]);
  const cal = root.name === "vcalendar" ? root : root.getFirstSubcomponent("vcalendar");
  if (!cal) throw new Error("not an iCalendar feed (no VCALENDAR)");
  // The feed's own time zones resolve its TZIDs while it is read (synchronously), and only then:
  // ical.js keeps them in a process-wide registry, so they are removed again afterwards.
  const registered: string[] = [];
  for (const tz of cal.getAllSubcomponents("vtimezone")) {
    const tzid = tz.getFirstPropertyValue("tzid");
    if (typeof tzid !== "string" || ICAL.TimezoneService.has(tzid)) continue;
    ICAL.TimezoneService.register(tz);
    registered.push(tzid);
  }
  try {
    return occurrencesIn(cal, window);
  } finally {
    for (const tzid of registered) ICAL.TimezoneService.remove(tzid);
  }
}

/** The occurrences of `cal`'s events in `window` (see `readIcsOccurrences`); time zones already registered. */
function occurrencesIn(cal: ICAL.Component, window: { from: string; to: string; timeZone: string }): IcsOccurrence[] {
  const events = cal.getAllSubcomponents("vevent").map((c) => new ICAL.Event(c));
  const masters = new Map<string, ICAL.Event>();
  for (const ev of events) if (!ev.isRecurrenceException()) masters.set(ev.uid, ev);
  const orphans: ICAL.Event[] = [];
  for (const ev of events) {
    if (!ev.isRecurrenceException()) continue;
    const master = masters.get(ev.uid);
    if (master) master.relateException(ev);
    else orphans.push(ev);
  }

  const out: IcsOccurrence[] = [];
  const from = ICAL.Time.fromDateString(window.from);
  const until = ICAL.Time.fromDateString(window.to);
  until.adjust(1, 0, 0, 0);
  const overlaps = (o: IcsOccurrence) => o.endDate >= window.from && o.startDate <= window.to;

  for (const ev of [...masters.values(), ...orphans]) {
    if (!ev.startDate) continue;
    if (!ev.isRecurring()) {
      const o = toOccurrence(ev, ev.startDate, ev.endDate ?? ev.startDate, window.timeZone);
      if (overlaps(o)) out.push(o);
      continue;
    }
    const it = ev.iterator();
    for (let next = it.next(); next && out.length < MAX_OCCURRENCES; next = it.next()) {
      if (next.compare(until) >= 0) break;
      const d = ev.getOccurrenceDetails(next);
      if (d.endDate.compare(from) < 0) continue;
      const o = toOccurrence(d.item, d.startDate, d.endDate, window.timeZone);
      if (overlaps(o)) out.push(o);
    }
    if (out.length >= MAX_OCCURRENCES) break;
  }
  return out;
}
