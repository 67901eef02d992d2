/** Display formatting shared by dashboard pages (server and client). */

/** "21 Nov 2026, 09:30" in a timezone (UTC when unknown). */
export function formatDateTime(value: Date | string | null | undefined, timeZone = "UTC"): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(value) : value;
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: safeTz(timeZone) }).format(d);
}

/** "21 Nov 2026" for a calendar date (Date at UTC midnight or "YYYY-MM-DD"). */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(`${value.slice(0, 10)}T00:00:00Z`) : value;
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }).format(d);
}

/** "Mon 21" short label of a calendar date. */
export function formatShortDate(value: Date | string): string {
  const d = typeof value === "string" ? new Date(`${value.slice(0, 10)}T00:00:00Z`) : value;
  return new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }).format(d);
}

/** "73%" from a 0..1 rate, "—" for null. */
export function formatPercent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || Number.isNaN(rate)) return "—";
  return `${Math.round(rate * 100)}%`;
}

/** "09:30" from "09:30:00". */
export function formatTime(time: string): string {
  return time.slice(0, 5);
}

function safeTz(tz: string): string {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: tz });
    return tz;
  } catch {
    return "UTC";
  }
}
