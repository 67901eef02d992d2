/**
 * The whole demo data set as a pure plan (no ids, no database): teams, users, channels, standups,
 * polls and absences, wired by stable string keys. `planDemoData` is deterministic: the same
 * `now` and `namespace` always give the same plan. History is added by lib/seed/history.ts.
 */
import { nextRunAt } from "@/lib/domain/schedule";
import {
  dailyQuestions,
  designQuestions,
  globexQuestions,
  LUNCH_CHOICES,
  okrQuestions,
  oneOnOneQuestions,
  pulseQuestions,
  type QuestionPlan,
  weeklyQuestions,
} from "@/lib/seed/content";
import { addDays, type DateKey, localDateKey, zonedInstant } from "@/lib/seed/dates";
import { type HistoryPlan, planHistory } from "@/lib/seed/history";
import { ACME_PEOPLE, type ChannelPlan, GLOBEX_PEOPLE, planChannel, planUsers, type UserPlan, withTags } from "@/lib/seed/people";
import { hashString, Rng } from "@/lib/seed/random";

/** Days of history, counting back from today (today included when its run time has passed). */
export const HISTORY_DAYS = 90;

export type CheckinPlan = {
  key: string;
  kind: "standup" | "poll";
  name: string;
  state: "active" | "paused" | "draft";
  time: string;
  timezone: string;
  days: string[];
  wait_time: number | null;
  broadcastChannelKey: string | null;
  is_anonymous: boolean;
  is_confidential: boolean;
  ownerKey: string;
  memberKeys: string[];
  questions: QuestionPlan[];
  intro: string | null;
  recurrence: { type: string; repeat: number; every: string; day: string; month: null } | null;
  /** Poll: minutes a broadcast stays open. */
  duration: number | null;
  created_at: Date;
  updated_at: Date;
  next_run_at: Date | null;
  /** Paused checkins ran until the day before this local date. */
  pausedFrom: DateKey | null;
  /** Multiplier on every member's participation for this checkin. */
  participation: number;
  /** Fraction of reports whose author asked for report-level anonymity. */
  anonymousRequestRate: number;
};

export type AbsencePlan = { userKey: string; kind: "vacation" | "out_of_office"; start: DateKey; end: DateKey; note: string };

export type TeamPlan = {
  slug: string;
  chat_id: string;
  name: string;
  timezone: string;
  domain: string;
  users: UserPlan[];
  channels: ChannelPlan[];
  checkins: CheckinPlan[];
  absences: AbsencePlan[];
  created_at: Date;
};

export type DemoPlan = {
  now: Date;
  namespace: string;
  teams: TeamPlan[];
  history: HistoryPlan;
};

export type PlanOptions = {
  now: Date;
  /**
   * Optional suffix that makes chat ids, team names and email domains unique (tests seed several
   * demo data sets into one shared database). Lowercase letters and digits, at most 8.
   */
  namespace?: string;
};

const DAY_MS = 86_400_000;

function weeklyRecurrence(day: string) {
  return { type: "weekly", repeat: 1, every: "week", day, month: null };
}

function checkin(
  base: Omit<
    CheckinPlan,
    | "wait_time"
    | "intro"
    | "recurrence"
    | "duration"
    | "next_run_at"
    | "pausedFrom"
    | "participation"
    | "anonymousRequestRate"
    | "updated_at"
  > &
    Partial<CheckinPlan>,
  now: Date,
): CheckinPlan {
  const plan: CheckinPlan = {
    // Standups run on their schedule, asked at their time (spec §2.2: a number = automatic asking).
    wait_time: base.kind === "standup" ? 0 : null,
    intro: null,
    recurrence: null,
    duration: null,
    pausedFrom: null,
    participation: 1,
    anonymousRequestRate: 0,
    updated_at: base.created_at,
    next_run_at: null,
    ...base,
  };
  if (plan.state === "active") plan.next_run_at = nextRunAt({ time: plan.time, timezone: plan.timezone, days: plan.days, after: now });
  return plan;
}

function planAcme(now: Date, ns: string, rng: Rng): TeamPlan {
  const slug = `acme${ns}`;
  const tz = "Europe/Berlin";
  const today = localDateKey(now, tz);
  const users = planUsers({ teamSlug: slug, domain: ns ? `acme-${ns}.example` : "acme.example", people: ACME_PEOPLE, rng, fakerSalt: 0 });
  const u = (i: number) => (users[i] as UserPlan).key;
  const all = users.map((x) => x.key);
  const eng = withTags(users, "eng");
  const created = new Date(now.getTime() - 120 * DAY_MS);
  const channels = [
    planChannel(rng, slug, "general", "Company-wide announcements and chatter", all),
    planChannel(rng, slug, "engineering", "Everything engineering", [...eng, u(0), u(23)]),
    planChannel(rng, slug, "design", "Design reviews, critiques and inspiration", [...withTags(users, "design"), u(3), u(4)]),
    planChannel(rng, slug, "product", "Roadmap, specs and customer feedback", [...withTags(users, "product", "ops"), u(0), u(2), u(16)]),
    planChannel(rng, slug, "standups", "Standup reports", [...eng, ...withTags(users, "mgr")]),
    planChannel(
      rng,
      slug,
      "random",
      "Non-work banter and lunch plans",
      all.filter((_, i) => i % 7 !== 3),
    ),
  ];
  const ch = (name: string) => `${slug}#${name}`;
  const daysAgo = (n: number) => new Date(now.getTime() - n * DAY_MS);
  const pausedFrom = addDays(today, -24);
  const checkins: CheckinPlan[] = [
    checkin(
      {
        key: `${slug}/daily`,
        kind: "standup",
        name: "Daily Engineering Standup",
        state: "active",
        time: "09:30:00",
        timezone: "Europe/Berlin",
        days: ["Mon", "Tue", "Wed", "Thu", "Fri"],
        broadcastChannelKey: ch("engineering"),
        is_anonymous: false,
        is_confidential: false,
        ownerKey: u(2),
        memberKeys: [0, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map(u),
        questions: dailyQuestions(),
        created_at: daysAgo(100),
      },
      now,
    ),
    checkin(
      {
        key: `${slug}/weekly`,
        kind: "standup",
        name: "Weekly Product Sync",
        state: "active",
        time: "10:00:00",
        timezone: "America/New_York",
        days: ["Mon"],
        wait_time: 30,
        broadcastChannelKey: ch("product"),
        is_anonymous: false,
        is_confidential: false,
        ownerKey: u(3),
        memberKeys: [3, 4, 0, 2, 16, 20, 21, 22, 9].map(u),
        questions: weeklyQuestions(),
        created_at: daysAgo(98),
        anonymousRequestRate: 0.05,
      },
      now,
    ),
    checkin(
      {
        key: `${slug}/pulse`,
        kind: "standup",
        name: "Friday Team Pulse",
        state: "active",
        time: "15:00:00",
        timezone: "Europe/London",
        days: ["Fri"],
        broadcastChannelKey: ch("general"),
        is_anonymous: true,
        is_confidential: false,
        ownerKey: u(1),
        memberKeys: all,
        questions: pulseQuestions(),
        created_at: daysAgo(96),
        participation: 0.97,
      },
      now,
    ),
    checkin(
      {
        key: `${slug}/oneonone`,
        kind: "standup",
        name: "1:1 Check-in",
        state: "active",
        time: "11:00:00",
        timezone: "Europe/Berlin",
        days: ["Tue", "Thu"],
        wait_time: 60,
        broadcastChannelKey: null,
        is_anonymous: false,
        is_confidential: true,
        ownerKey: u(2),
        memberKeys: [5, 6, 7, 8, 24].map(u),
        questions: oneOnOneQuestions(),
        created_at: daysAgo(93),
      },
      now,
    ),
    checkin(
      {
        key: `${slug}/design`,
        kind: "standup",
        name: "Design Critique Prep",
        state: "paused",
        time: "14:00:00",
        timezone: "America/Los_Angeles",
        days: ["Mon", "Wed"],
        // Asked only when someone starts it ("Ask now" / POST /v1/standups/{id}/start).
        wait_time: null,
        broadcastChannelKey: ch("design"),
        is_anonymous: false,
        is_confidential: false,
        ownerKey: u(16),
        memberKeys: [16, 17, 18, 19].map(u),
        questions: designQuestions(),
        created_at: daysAgo(110),
        updated_at: zonedInstant(pausedFrom, "08:12:00", "America/Los_Angeles"),
        pausedFrom,
      },
      now,
    ),
    checkin(
      {
        key: `${slug}/okr`,
        kind: "standup",
        name: "Quarterly OKR Check-in",
        state: "draft",
        time: "09:00:00",
        timezone: "Europe/Berlin",
        days: ["Mon"],
        broadcastChannelKey: ch("general"),
        is_anonymous: false,
        is_confidential: false,
        ownerKey: u(0),
        memberKeys: [0, 2, 3, 4].map(u),
        questions: okrQuestions(),
        created_at: new Date(now.getTime() - 3 * DAY_MS),
      },
      now,
    ),
    checkin(
      {
        key: `${slug}/lunch`,
        kind: "poll",
        name: "Team lunch spot",
        state: "active",
        time: "11:00:00",
        timezone: "Europe/Berlin",
        days: ["Fri"],
        broadcastChannelKey: ch("random"),
        is_anonymous: false,
        is_confidential: false,
        ownerKey: u(0), // the demo admin: polls are visible only to their creator (spec §2.3)
        memberKeys: [0, 1, 2, 4, 5, 6, 14, 17, 18, 24, 12].map(u),
        questions: [
          {
            text: "Where should we go for team lunch today?",
            answer_type: "multiple_choice",
            choices: LUNCH_CHOICES,
            color: "F4A261",
          },
        ],
        intro: "Friday lunch for everyone near the Berlin and London offices — vote by noon!",
        recurrence: weeklyRecurrence("Fri"),
        duration: 60,
        created_at: daysAgo(97),
      },
      now,
    ),
    checkin(
      {
        key: `${slug}/process`,
        kind: "poll",
        name: "Process improvement ideas",
        state: "active",
        time: "16:00:00",
        timezone: "Europe/Berlin",
        days: ["Wed"],
        broadcastChannelKey: ch("engineering"),
        is_anonymous: false,
        is_confidential: false,
        ownerKey: u(2),
        memberKeys: [...eng, ...withTags(users, "product", "design")].filter((k, i, a) => a.indexOf(k) === i),
        questions: [{ text: "What should we improve in our process?", answer_type: "open_ended", choices: [], color: "2A9D8F" }],
        intro: "One idea per week, big or small. Answers are grouped into themes automatically.",
        recurrence: weeklyRecurrence("Wed"),
        duration: 24 * 60,
        created_at: daysAgo(94),
      },
      now,
    ),
  ];
  const absences: AbsencePlan[] = [
    { userKey: u(22), kind: "vacation", start: addDays(today, -80), end: addDays(today, -74), note: "Family trip" },
    { userKey: u(6), kind: "vacation", start: addDays(today, -62), end: addDays(today, -53), note: "Summer holiday" },
    { userKey: u(9), kind: "vacation", start: addDays(today, -40), end: addDays(today, -33), note: "Hiking in the Alps" },
    { userKey: u(17), kind: "vacation", start: addDays(today, -25), end: addDays(today, -21), note: "Vacation" },
    { userKey: u(13), kind: "out_of_office", start: addDays(today, -15), end: addDays(today, -15), note: "Conference" },
    { userKey: u(14), kind: "out_of_office", start: addDays(today, -8), end: addDays(today, -7), note: "Team offsite" },
    { userKey: u(7), kind: "vacation", start: addDays(today, -3), end: addDays(today, 5), note: "Diwali with family" },
    { userKey: u(19), kind: "out_of_office", start: today, end: addDays(today, 1), note: "Doctor's appointment" },
    { userKey: u(10), kind: "vacation", start: addDays(today, 10), end: addDays(today, 20), note: "Parental leave" },
    { userKey: u(3), kind: "vacation", start: addDays(today, 30), end: addDays(today, 37), note: "Ski trip" },
  ];
  return {
    slug,
    chat_id: ns ? `T0ACME${ns.toUpperCase()}` : "T0ACME001",
    name: ns ? `Acme Robotics (${ns})` : "Acme Robotics",
    timezone: tz,
    domain: ns ? `acme-${ns}.example` : "acme.example",
    users,
    channels,
    checkins,
    absences,
    created_at: created,
  };
}

function planGlobex(now: Date, ns: string, rng: Rng): TeamPlan {
  const slug = `globex${ns}`;
  const tz = "America/Chicago";
  const today = localDateKey(now, tz);
  const users = planUsers({
    teamSlug: slug,
    domain: ns ? `globex-${ns}.example` : "globex.example",
    people: GLOBEX_PEOPLE,
    rng,
    fakerSalt: 7_000,
  });
  const u = (i: number) => (users[i] as UserPlan).key;
  const all = users.map((x) => x.key);
  const channels = [planChannel(rng, slug, "daily-updates", "Standup reports from the lab", all)];
  const checkins = [
    checkin(
      {
        key: `${slug}/daily`,
        kind: "standup",
        name: "Globex Daily",
        state: "active",
        time: "09:00:00",
        timezone: tz,
        days: ["Mon", "Tue", "Wed", "Thu", "Fri"],
        broadcastChannelKey: `${slug}#daily-updates`,
        is_anonymous: false,
        is_confidential: false,
        ownerKey: u(0),
        memberKeys: all,
        questions: globexQuestions(),
        created_at: new Date(now.getTime() - 95 * DAY_MS),
        participation: 0.94,
      },
      now,
    ),
  ];
  const absences: AbsencePlan[] = [
    { userKey: u(3), kind: "vacation", start: addDays(today, -20), end: addDays(today, -14), note: "Vacation" },
    { userKey: u(5), kind: "vacation", start: addDays(today, 7), end: addDays(today, 11), note: "Thanksgiving break" },
  ];
  return {
    slug,
    chat_id: ns ? `T0GLOBEX${ns.toUpperCase()}` : "T0GLOBEX1",
    name: ns ? `Globex Labs (${ns})` : "Globex Labs",
    timezone: tz,
    domain: ns ? `globex-${ns}.example` : "globex.example",
    users,
    channels,
    checkins,
    absences,
    created_at: new Date(now.getTime() - 100 * DAY_MS),
  };
}

/**
 * Plans the full demo data set relative to `now` (pure and deterministic).
 * @throws Error when `namespace` is not 1–8 lowercase letters/digits.
 */
export function planDemoData(options: PlanOptions): DemoPlan {
  const ns = options.namespace ?? "";
  if (ns && !/^[a-z0-9]{1,8}$/.test(ns))
    throw new Error(`Invalid seed namespace ${JSON.stringify(ns)}: use 1–8 lowercase letters or digits`);
  const rng = new Rng(hashString(`ids:${ns}`));
  const teams = [planAcme(options.now, ns, rng), planGlobex(options.now, ns, rng)];
  const history = planHistory({ teams, now: options.now, days: HISTORY_DAYS, namespace: ns });
  return { now: options.now, namespace: ns, teams, history };
}
