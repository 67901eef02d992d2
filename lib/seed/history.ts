/**
 * The 90 days of demo history as a pure plan: occurrences (with the asked-members snapshot),
 * reports with answers and their channel messages, poll votes and open-ended categorization state.
 * Deterministic: each checkin draws from its own PRNG stream seeded by its name.
 *
 * Rules the plan keeps: occurrences only on scheduled local days and only once their scheduled
 * instant has passed; nobody absent (vacation / out of office) on a date gets a report or a vote;
 * every timestamp is at or before `now`; participation varies by person (base rate) and weekday.
 */

import { windowEnd } from "@/lib/domain/asking-times";
import { LUNCH_CHOICES, PROCESS_SUGGESTIONS } from "@/lib/seed/content";
import { addDays, type DateKey, localDateKey, weekdayOf, zonedInstant } from "@/lib/seed/dates";
import type { UserPlan } from "@/lib/seed/people";
import type { CheckinPlan, TeamPlan } from "@/lib/seed/plan";
import { hashString, Rng } from "@/lib/seed/random";

export type OccurrencePlan = {
  checkinKey: string;
  date: DateKey;
  scheduled_at: Date;
  closes_at: Date | null;
  closed_at: Date | null;
  /** Asked members; `asked_at` is null for members excused by an absence. */
  members: { userKey: string; asked_at: Date | null }[];
};

export type MessagePlan = { ts: string; text: string; created_at: Date; channelKey: string | null; recipientKey: string | null };

export type ReportPlan = {
  checkinKey: string;
  date: DateKey;
  userKey: string;
  status: "pending" | "submitted" | "discarded";
  anonymous_requested: boolean;
  is_anonymous: boolean;
  started_at: Date | null;
  submitted_at: Date | null;
  discarded_at: Date | null;
  created_at: Date;
  /** Answer texts by question position (submitted reports only; empty otherwise). */
  answers: string[];
  message: MessagePlan | null;
};

export type VotePlan = {
  checkinKey: string;
  date: DateKey;
  questionIndex: number;
  userKey: string;
  choice: string | null;
  text: string | null;
  categories: string[];
  created_at: Date;
};

export type CategorizationPlan = {
  checkinKey: string;
  date: DateKey;
  questionIndex: number;
  status: "pending" | "completed";
  categories: { name: string; count: number }[] | null;
};

export type PollMessagePlan = { checkinKey: string; date: DateKey; message: MessagePlan };

export type HistoryPlan = {
  occurrences: OccurrencePlan[];
  reports: ReportPlan[];
  votes: VotePlan[];
  categorizations: CategorizationPlan[];
  pollMessages: PollMessagePlan[];
};

const MINUTE = 60_000;
/** Weekday multiplier on participation: Mondays a bit lower, Fridays clearly lower. */
const WEEKDAY_FACTOR: Record<string, number> = { Mon: 0.96, Tue: 1, Wed: 0.99, Thu: 0.97, Fri: 0.85, Sat: 0.8, Sun: 0.8 };

/** Chat message ids: `<unix seconds>.<6 digits>`, the digits a per-seed counter (+ namespace offset). */
class TsCounter {
  private n = 0;
  constructor(private readonly offset: number) {}
  next(at: Date): string {
    const value = this.offset + this.n++;
    return `${Math.floor(at.getTime() / 1000)}.${String(value % 1_000_000).padStart(6, "0")}`;
  }
}

function absenceIndex(teams: TeamPlan[]): (userKey: string, date: DateKey) => boolean {
  const byUser = new Map<string, { start: DateKey; end: DateKey }[]>();
  for (const t of teams) for (const a of t.absences) byUser.set(a.userKey, [...(byUser.get(a.userKey) ?? []), a]);
  return (userKey, date) => (byUser.get(userKey) ?? []).some((a) => a.start <= date && date <= a.end);
}

/** Local dates (oldest first) of the checkin's scheduled runs whose instant is at or before `now`. */
function runDates(c: CheckinPlan, now: Date, days: number): { date: DateKey; at: Date }[] {
  const today = localDateKey(now, c.timezone);
  const out: { date: DateKey; at: Date }[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const date = addDays(today, -i);
    if (!c.days.includes(weekdayOf(date))) continue;
    if (c.pausedFrom && date >= c.pausedFrom) continue;
    const at = zonedInstant(date, c.time, c.timezone);
    if (at.getTime() > now.getTime() || at.getTime() < c.created_at.getTime()) continue;
    out.push({ date, at });
  }
  return out;
}

function renderReport(c: CheckinPlan, author: string, answers: string[]): string {
  const lines = [`*${author}* posted an update for *${c.name}*`];
  c.questions.forEach((q, i) => {
    lines.push(`*${q.text}*`, answers[i] ?? "");
  });
  return lines.join("\n");
}

function min(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

/**
 * Plans the history of every active or paused checkin of `teams` over the last `days` local days.
 * @param namespace the seed namespace; offsets chat message ids so namespaced seeds never collide.
 */
export function planHistory(input: { teams: TeamPlan[]; now: Date; days: number; namespace: string }): HistoryPlan {
  const { now } = input;
  const isAbsent = absenceIndex(input.teams);
  const users = new Map<string, UserPlan>(input.teams.flatMap((t) => t.users.map((u) => [u.key, u] as const)));
  const ts = new TsCounter(input.namespace ? ((hashString(input.namespace) % 98) + 1) * 10_000 : 0);
  const plan: HistoryPlan = { occurrences: [], reports: [], votes: [], categorizations: [], pollMessages: [] };

  for (const team of input.teams) {
    for (const c of team.checkins) {
      if (c.state === "draft") continue;
      const rng = new Rng(`history:${c.name}`);
      const runs = runDates(c, now, input.days);
      runs.forEach(({ date, at }, index) => {
        const isLatest = index === runs.length - 1;
        const weekday = weekdayOf(date);
        // Polls close after their duration; standup runs at the end of the default response window
        // (next run or 24 h, lib/domain/asking-times.ts), so past runs are closed and today's is open.
        const closes =
          c.kind === "poll"
            ? c.duration
              ? new Date(at.getTime() + c.duration * MINUTE)
              : null
            : windowEnd(
                {
                  time: c.time,
                  timezone: c.timezone,
                  days: c.days,
                  personalised: false,
                  waitTime: c.wait_time ?? 0,
                  responseWindowMinutes: null,
                },
                at,
                null,
              );
        plan.occurrences.push({
          checkinKey: c.key,
          date,
          scheduled_at: at,
          closes_at: closes,
          closed_at: closes && closes.getTime() <= now.getTime() ? closes : null,
          members: c.memberKeys.map((userKey) => ({ userKey, asked_at: isAbsent(userKey, date) ? null : at })),
        });
        if (c.kind === "standup") planStandupRun({ c, date, at, weekday, isLatest, rng, users, isAbsent, now, ts, plan });
        else planPollRun({ c, date, at, closes, isLatest, rng, users, isAbsent, now, ts, plan });
      });
    }
  }
  return plan;
}

type RunContext = {
  c: CheckinPlan;
  date: DateKey;
  at: Date;
  isLatest: boolean;
  rng: Rng;
  users: Map<string, UserPlan>;
  isAbsent: (userKey: string, date: DateKey) => boolean;
  now: Date;
  ts: TsCounter;
  plan: HistoryPlan;
};

function planStandupRun(ctx: RunContext & { weekday: string }): void {
  const { c, date, at, rng, now } = ctx;
  for (const userKey of c.memberKeys) {
    if (ctx.isAbsent(userKey, date)) continue;
    const user = ctx.users.get(userKey) as UserPlan;
    const p = user.baseRate * (WEEKDAY_FACTOR[ctx.weekday] ?? 1) * c.participation;
    const submits = rng.chance(p);
    const delay = Math.min(150, Math.round(user.typicalDelay * rng.float(0.3, 1.8)) + rng.int(1, 6));
    const submittedAt = new Date(at.getTime() + delay * MINUTE + rng.int(0, 59_000));
    const startedAt = new Date(submittedAt.getTime() - rng.int(1, 8) * MINUTE);
    const base = { checkinKey: c.key, date, userKey, anonymous_requested: false, is_anonymous: c.is_anonymous, discarded_at: null };
    if (submits && submittedAt.getTime() <= now.getTime()) {
      const others = c.memberKeys.filter((k) => k !== userKey);
      const colleague = others.length ? (ctx.users.get(rng.pick(others)) as UserPlan).firstname : "the team";
      const answers = c.questions.map((q) => q.answer?.({ rng, colleague, weekday: ctx.weekday }) ?? "");
      const requested = !c.is_anonymous && c.anonymousRequestRate > 0 && rng.chance(c.anonymousRequestRate);
      const anonymous = c.is_anonymous || requested;
      const message: MessagePlan = {
        ts: ctx.ts.next(submittedAt),
        text: renderReport(c, anonymous ? "Anonymous" : user.realname, answers),
        created_at: submittedAt,
        channelKey: c.broadcastChannelKey,
        recipientKey: c.broadcastChannelKey ? null : c.ownerKey,
      };
      ctx.plan.reports.push({
        ...base,
        anonymous_requested: requested,
        is_anonymous: anonymous,
        status: "submitted",
        started_at: startedAt,
        submitted_at: submittedAt,
        created_at: at,
        answers,
        message,
      });
    } else if (ctx.isLatest || submits) {
      // Not answered yet: the latest run (or a started answer that is still in progress).
      const started = rng.chance(0.4) && startedAt.getTime() <= now.getTime() ? startedAt : null;
      ctx.plan.reports.push({
        ...base,
        status: "pending",
        started_at: started,
        submitted_at: null,
        created_at: at,
        answers: [],
        message: null,
      });
    } else if (rng.chance(0.12)) {
      const discardedAt = min(new Date(startedAt.getTime() + rng.int(2, 20) * MINUTE), now);
      ctx.plan.reports.push({
        ...base,
        status: "discarded",
        started_at: startedAt,
        submitted_at: null,
        discarded_at: discardedAt,
        created_at: at,
        answers: [],
        message: null,
      });
    }
  }
}

function planPollRun(ctx: RunContext & { closes: Date | null }): void {
  const { c, date, at, rng, now } = ctx;
  const question = c.questions[0];
  if (!question) return;
  const message: MessagePlan = {
    ts: ctx.ts.next(at),
    text: `📊 *${c.name}*\n${c.intro ?? ""}\n*${question.text}*${question.choices.length ? `\n${question.choices.map((x) => `• ${x}`).join("\n")}` : ""}`,
    created_at: at,
    channelKey: c.broadcastChannelKey,
    recipientKey: null,
  };
  ctx.plan.pollMessages.push({ checkinKey: c.key, date, message });
  const counts = new Map<string, number>();
  const open = question.answer_type === "open_ended";
  for (const userKey of c.memberKeys) {
    if (ctx.isAbsent(userKey, date)) continue;
    const user = ctx.users.get(userKey) as UserPlan;
    if (!rng.chance(user.baseRate * 0.88)) continue;
    const windowMinutes = Math.min(c.duration ?? 60, 55);
    const created = new Date(at.getTime() + rng.int(1, windowMinutes) * MINUTE + rng.int(0, 59_000));
    if (created.getTime() > now.getTime() || (ctx.closes && created.getTime() > ctx.closes.getTime())) continue;
    if (open) {
      const s = rng.pick(PROCESS_SUGGESTIONS);
      const categories = ctx.isLatest ? [] : s.categories;
      for (const cat of categories) counts.set(cat, (counts.get(cat) ?? 0) + 1);
      ctx.plan.votes.push({
        checkinKey: c.key,
        date,
        questionIndex: 0,
        userKey,
        choice: null,
        text: s.text,
        categories,
        created_at: created,
      });
    } else {
      const favourite = LUNCH_CHOICES[hashString(user.realname) % LUNCH_CHOICES.length] as string;
      const choice = rng.chance(0.45) ? favourite : rng.pick(question.choices);
      ctx.plan.votes.push({ checkinKey: c.key, date, questionIndex: 0, userKey, choice, text: null, categories: [], created_at: created });
    }
  }
  if (open) {
    ctx.plan.categorizations.push({
      checkinKey: c.key,
      date,
      questionIndex: 0,
      status: ctx.isLatest ? "pending" : "completed",
      categories: ctx.isLatest
        ? null
        : [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    });
  }
}
