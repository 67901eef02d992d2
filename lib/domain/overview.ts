/**
 * The manager's Overview (dashboard, issue 16): today across every standup the viewer may read —
 * asked / answered / excused / pending per standup with the names of who has not answered yet
 * (never for anonymous standups) — and this week's participation against last week's.
 * Counting follows lib/domain/member-participation.ts (the API's participation rule).
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { addDaysIso } from "@/lib/domain/dashboard";
import { listDashboardStandups, listMemberOccurrences, type MemberOccurrence } from "@/lib/domain/member-participation";
import { localDateOf } from "@/lib/domain/schedule";

/** Today's run of one standup. */
export type TodayStandup = {
  standupId: number;
  name: string;
  occurrenceId: number;
  /** Local date of the run in the standup's timezone. */
  date: string;
  asked: number;
  answered: number;
  excused: number;
  pending: number;
  /** Who has not answered yet (sorted by name); null for anonymous standups. */
  pendingMembers: Array<{ chatId: string; realname: string }> | null;
};

/** Participation of a period: answered / expected (expected = asked − excused). */
export type PeriodRate = { from: string; to: string; answered: number; expected: number; rate: number | null };

export type TodayOverview = {
  today: string;
  standups: TodayStandup[];
  thisWeek: PeriodRate;
  lastWeek: PeriodRate;
};

function rate(rows: MemberOccurrence[], from: string, to: string): PeriodRate {
  const inRange = rows.filter((r) => r.date >= from && r.date <= to);
  const answered = inRange.filter((r) => r.status === "answered").length;
  const expected = inRange.filter((r) => r.status !== "excused").length;
  return { from, to, answered, expected, rate: expected > 0 ? answered / expected : null };
}

/**
 * Today's runs of the standups visible to the actor (`dashboardStandupWhere`), each in its own
 * timezone, and the participation of this week (Monday to today, in `timezone`) and last week.
 */
export async function getTodayOverview(actor: Actor, input: { timezone: string; now?: Date }, client: Tx = db): Promise<TodayOverview> {
  const now = input.now ?? new Date();
  const standups = await listDashboardStandups(actor, client);
  const today = localDateOf(now, input.timezone);
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const weekStart = addDaysIso(today, -((weekday + 6) % 7));
  const lastWeekStart = addDaysIso(weekStart, -7);
  const localToday = new Map(standups.map((s) => [s.id, localDateOf(now, s.timezone)]));
  const todays = [...localToday.values()].sort();
  const since = todays.length && todays[0] < lastWeekStart ? todays[0] : lastWeekStart;
  const until = todays.length && todays[todays.length - 1] > today ? todays[todays.length - 1] : today;
  const rows = await listMemberOccurrences(actor.teamId, { checkinIds: standups.map((s) => s.id), since, until }, client);

  const byOccurrence = new Map<number, MemberOccurrence[]>();
  for (const r of rows) {
    if (r.date !== localToday.get(r.checkinId)) continue;
    byOccurrence.set(r.occurrenceId, [...(byOccurrence.get(r.occurrenceId) ?? []), r]);
  }
  const names = new Map(standups.map((s) => [s.id, s]));
  const todayRuns: TodayStandup[] = [...byOccurrence.values()].map((members) => {
    const first = members[0];
    const pending = members.filter((m) => m.status === "missed");
    return {
      standupId: first.checkinId,
      name: names.get(first.checkinId)?.name ?? "",
      occurrenceId: first.occurrenceId,
      date: first.date,
      asked: members.length,
      answered: members.filter((m) => m.status === "answered").length,
      excused: members.filter((m) => m.status === "excused").length,
      pending: pending.length,
      pendingMembers: first.anonymous ? null : pending.map((m) => ({ chatId: m.chatId, realname: m.realname })),
    };
  });
  todayRuns.sort((a, b) => b.pending - a.pending || a.name.localeCompare(b.name));
  return {
    today,
    standups: todayRuns,
    thisWeek: rate(rows, weekStart, today),
    lastWeek: rate(rows, lastWeekStart, addDaysIso(weekStart, -1)),
  };
}
