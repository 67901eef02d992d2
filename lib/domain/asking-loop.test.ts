/**
 * The asking loop against the real test database (issue 10): wait_time null never auto-asks;
 * personalised asking times; team holidays; reminders skip excused and answered members and stop
 * when the window closes; closing records missed members; a poll closes at its time and posts its
 * results. Uses instants in 2002 (after lib/domain/scheduler.test.ts's 2001, whose calls thus never reach these
 * rows) and scopes every tick to this file's team, so it never touches another file's rows.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { refreshNextRunAt } from "@/lib/domain/asking-times";
import { addHoliday } from "@/lib/domain/holidays";
import { runSchedulerTick } from "@/lib/domain/scheduler";
import { castVote } from "@/lib/domain/vote-writes";
import type { OccurrenceEventData } from "@/lib/domain/webhook-events";
import { createTestUser, dispatchJobOutbox } from "@/tests/fixtures";

/** One scheduler tick at `now`, scoped to this file's team. */
const tick = (now: Date) => runSchedulerTick(now, db, { teamId: team.id });
const uid = () => randomBytes(5).toString("hex").toUpperCase();
const MIN = 60_000;

let team: { id: number };
let users: Array<{ id: number; timezone: string; actor: Actor }>;
let admin: Actor;

beforeAll(async () => {
  const tag = uid();
  team = await db.team.create({ data: { chat_id: `T${tag}`, name: `Loop ${tag}`, timezone: "UTC" } });
  users = [];
  for (const [name, tz] of [
    ["Ada", "UTC"],
    ["Bob", "Asia/Kolkata"],
    ["Cyd", "America/New_York"],
    ["Dee", "UTC"],
  ] as const) {
    const u = await createTestUser(team.id, { name, timezone: tz, isAdmin: name === "Ada" });
    users.push({ id: u.id, timezone: tz, actor: u.actor });
  }
  admin = users[0].actor;
});

async function standup(opts: {
  name: string;
  days: string[];
  time?: string;
  timezone?: string;
  wait_time?: number | null;
  personalised?: boolean;
  reminder_count?: number;
  reminder_after_minutes?: number;
  memberIds?: number[];
}) {
  const row = await db.checkin.create({
    data: {
      team_id: team.id,
      kind: "standup",
      name: opts.name,
      time: opts.time ?? "09:30:00",
      timezone: opts.timezone ?? "UTC",
      days: opts.days,
      wait_time: opts.wait_time === undefined ? 0 : opts.wait_time,
      personalised: opts.personalised ?? false,
      reminder_count: opts.reminder_count ?? 1,
      reminder_after_minutes: opts.reminder_after_minutes ?? 60,
      owner_id: users[0].id,
      questions: { create: [{ position: 0, text: "What's up?" }] },
      members: { create: (opts.memberIds ?? users.map((u) => u.id)).map((user_id) => ({ user_id })) },
    },
  });
  return row;
}

describe("wait_time", () => {
  it("null never asks automatically: no next run, and a stale next_run_at opens nothing", async () => {
    const s = await standup({ name: "Manual only", days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], wait_time: null });
    expect(await refreshNextRunAt(s.id, db, new Date("2002-01-07T00:00:00Z"))).toBeNull();
    await db.checkin.update({ where: { id: s.id }, data: { next_run_at: new Date("2002-01-07T09:30:00Z") } });
    await tick(new Date("2002-01-07T09:31:00Z"));
    expect(await db.occurrence.count({ where: { checkin_id: s.id } })).toBe(0);
    expect((await db.checkin.findUniqueOrThrow({ where: { id: s.id } })).next_run_at).toBeNull();
  });

  it("a number of minutes asks that long after the scheduled time", async () => {
    const s = await standup({ name: "Waits", days: ["Tue"], wait_time: 30, memberIds: [users[0].id] });
    await db.checkin.update({ where: { id: s.id }, data: { next_run_at: new Date("2002-01-08T09:30:00Z") } });
    await tick(new Date("2002-01-08T09:30:10Z"));
    const occ = await db.occurrence.findFirstOrThrow({ where: { checkin_id: s.id }, include: { members: true } });
    expect(occ.members[0]).toMatchObject({ asked_at: null, due_at: new Date("2002-01-08T10:00:00Z") });
    await tick(new Date("2002-01-08T10:00:05Z"));
    const after = await db.occurrenceMember.findFirstOrThrow({ where: { occurrence_id: occ.id } });
    expect(after.asked_at?.toISOString()).toBe("2002-01-08T10:00:05.000Z");
    expect(await db.chatMessage.count({ where: { occurrence_id: occ.id, kind: "question" } })).toBe(1);
  });
});

describe("personalised asking", () => {
  it("asks each member at 09:30 in their own timezone, in one occurrence of that date", async () => {
    const [ada, bob, cyd] = users;
    const s = await standup({ name: "Personal", days: ["Wed"], personalised: true, memberIds: [ada.id, bob.id, cyd.id] });
    const next = await refreshNextRunAt(s.id, db, new Date("2002-01-08T12:00:00Z"));
    expect(next?.toISOString()).toBe("2002-01-09T04:00:00.000Z"); // 09:30 in Kolkata opens Wednesday's run
    const askedAt = async () =>
      Object.fromEntries(
        (await db.occurrenceMember.findMany({ where: { occurrence: { checkin_id: s.id } } })).map((m) => [
          m.user_id,
          m.asked_at?.toISOString() ?? null,
        ]),
      );
    await tick(new Date("2002-01-09T04:00:20Z"));
    expect(await askedAt()).toEqual({ [ada.id]: null, [bob.id]: "2002-01-09T04:00:20.000Z", [cyd.id]: null });
    await tick(new Date("2002-01-09T09:30:20Z")); // 09:30 UTC
    expect((await askedAt())[ada.id]).toBe("2002-01-09T09:30:20.000Z");
    expect((await askedAt())[cyd.id]).toBeNull();
    await tick(new Date("2002-01-09T14:30:20Z")); // 09:30 in New York (EST)
    expect((await askedAt())[cyd.id]).toBe("2002-01-09T14:30:20.000Z");
    const occs = await db.occurrence.findMany({ where: { checkin_id: s.id } });
    expect(occs.map((o) => o.date.toISOString().slice(0, 10))).toEqual(["2002-01-09"]);
    expect(await db.report.count({ where: { checkin_id: s.id, status: "pending" } })).toBe(3);
    expect((await db.checkin.findUniqueOrThrow({ where: { id: s.id } })).next_run_at?.toISOString()).toBe("2002-01-16T04:00:00.000Z");
  });
});

describe("team holidays", () => {
  it("skip the occurrence for everyone and move on to the next run", async () => {
    const s = await standup({ name: "Holiday", days: ["Thu", "Fri"] });
    await addHoliday(admin, { date: "2002-01-10", name: "Team day" });
    await db.checkin.update({ where: { id: s.id }, data: { next_run_at: new Date("2002-01-10T09:30:00Z") } });
    await tick(new Date("2002-01-10T09:31:00Z"));
    expect(await db.occurrence.count({ where: { checkin_id: s.id } })).toBe(0);
    expect((await db.checkin.findUniqueOrThrow({ where: { id: s.id } })).next_run_at?.toISOString()).toBe("2002-01-11T09:30:00.000Z");
    await expect(addHoliday(admin, { date: "2002-01-10", name: "Twice" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(addHoliday({ ...admin, isAdmin: false }, { date: "2002-01-12", name: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("reminders and closing", () => {
  it("reminds only asked, unanswered, non-excused members, N times M minutes apart, never after the window closes", async () => {
    const [ada, bob, cyd, dee] = users;
    const s = await standup({ name: "Remind", days: ["Mon"], reminder_count: 2, reminder_after_minutes: 60 });
    await db.absence.create({
      data: {
        team_id: team.id,
        user_id: dee.id,
        kind: "out_of_office",
        start_date: new Date("2002-01-14T00:00:00Z"),
        end_date: new Date("2002-01-14T00:00:00Z"),
      },
    });
    await db.checkin.update({ where: { id: s.id }, data: { next_run_at: new Date("2002-01-14T09:30:00Z") } });
    const t0 = new Date("2002-01-14T09:30:05Z");
    await tick(t0);
    const occ = await db.occurrence.findFirstOrThrow({ where: { checkin_id: s.id } });
    expect(occ.closes_at?.toISOString()).toBe("2002-01-15T09:30:00.000Z"); // 24 h (next Monday is later)
    // bob answers before the first reminder.
    await db.report.updateMany({
      where: { occurrence_id: occ.id, user_id: bob.id },
      data: { status: "submitted", submitted_at: new Date(t0.getTime() + 10 * MIN) },
    });

    const reminded = async () =>
      (await db.chatMessage.findMany({ where: { occurrence_id: occ.id, kind: "reminder" }, orderBy: { id: "asc" } })).map(
        (m) => m.recipient_id,
      );
    await tick(new Date(t0.getTime() + 59 * MIN));
    expect(await reminded()).toEqual([]);
    await tick(new Date(t0.getTime() + 60 * MIN));
    expect((await reminded()).sort()).toEqual([ada.id, cyd.id].sort());
    await tick(new Date(t0.getTime() + 61 * MIN));
    expect(await reminded()).toHaveLength(2);
    await tick(new Date(t0.getTime() + 120 * MIN));
    expect(await reminded()).toHaveLength(4);
    await tick(new Date(t0.getTime() + 300 * MIN)); // N = 2: no third reminder
    expect(await reminded()).toHaveLength(4);
    const ada1 = await db.occurrenceMember.findFirstOrThrow({ where: { occurrence_id: occ.id, user_id: ada.id } });
    expect(ada1.reminded_at.map((d) => d.toISOString())).toEqual(["2002-01-14T10:30:05.000Z", "2002-01-14T11:30:05.000Z"]);
    const text = (await db.chatMessage.findFirstOrThrow({ where: { occurrence_id: occ.id, kind: "reminder", recipient_id: ada.id } })).text;
    expect(text).toContain("Remind (Monday 14 Jan)");
    // The closing time (09:30 UTC on the 15th) in each reader's own timezone (issue 41 item 9).
    expect(text).toContain("It closes at 09:30 your time, Tue 15 Jan.");
    const cydText = (await db.chatMessage.findFirstOrThrow({ where: { occurrence_id: occ.id, kind: "reminder", recipient_id: cyd.id } }))
      .text;
    expect(cydText).toContain("It closes at 04:30 your time, Tue 15 Jan."); // America/New_York
    expect(cydText).not.toContain("UTC");
    // Without PUBLIC_URL (no e-mail, no chat) the link is absolute on this service's own address.
    expect(text).toContain(`Answer here: http://localhost:${process.env.PORT ?? 3000}/my-checkins/${s.id}?occurrence=${occ.id}`);

    // The window closes: the unanswered, expected members are missed; nobody is reminded after.
    await tick(new Date("2002-01-15T09:30:00Z"));
    const members = await db.occurrenceMember.findMany({ where: { occurrence_id: occ.id }, orderBy: { user_id: "asc" } });
    const missed = Object.fromEntries(members.map((m) => [m.user_id, m.missed_at !== null]));
    expect(missed).toEqual({ [ada.id]: true, [bob.id]: false, [cyd.id]: true, [dee.id]: false });
    expect(members.find((m) => m.user_id === dee.id)).toMatchObject({ excused: "out_of_office", asked_at: null, reminded_at: [] });
    expect((await db.occurrence.findUniqueOrThrow({ where: { id: occ.id } })).closed_at?.toISOString()).toBe("2002-01-15T09:30:00.000Z");
    await db.checkin.update({ where: { id: s.id }, data: { reminder_count: 5 } });
    await tick(new Date("2002-01-15T12:00:00Z"));
    expect(await reminded()).toHaveLength(4);
  });

  it("closes a poll at closes_at and posts its results to the channel once", async () => {
    const [ada, bob, cyd] = users;
    const channel = await db.channel.create({ data: { team_id: team.id, chat_id: `C${uid()}`, name: `polls-${uid().toLowerCase()}` } });
    const poll = await db.checkin.create({
      data: {
        team_id: team.id,
        kind: "poll",
        name: "Lunch",
        time: "11:00:00",
        timezone: "UTC",
        days: ["Fri"],
        duration: 90,
        recurrence: { type: "once" },
        broadcast_channel_id: channel.id,
        owner_id: ada.id,
        next_run_at: new Date("2002-01-18T11:00:00Z"),
        questions: {
          create: [{ position: 0, text: "Pizza or sushi?", answer_type: "multiple_choice", choices: ["Pizza", "Sushi"] }],
        },
        members: { create: [ada, bob, cyd].map((u) => ({ user_id: u.id })) },
      },
      include: { questions: true },
    });
    await tick(new Date("2002-01-18T11:00:10Z"));
    // The scheduled run is posted to the poll's channel once, with its choices and closing time.
    const posts = async () => db.chatMessage.findMany({ where: { checkin_id: poll.id, kind: "poll" } });
    expect((await posts()).map((m) => [m.channel_id, m.text])).toEqual([
      [channel.id, "Poll: Lunch\nPizza or sushi?\n1. Pizza\n2. Sushi\nVoting closes Fri 18 Jan, 12:30 UTC"],
    ]);
    await tick(new Date("2002-01-18T11:01:10Z"));
    expect(await posts()).toHaveLength(1);
    const q = poll.questions[0].id;
    const voter = (u: { id: number }): Actor => ({ teamId: team.id, userId: u.id, userChatId: "", isAdmin: false });
    await castVote(
      voter(bob),
      { pollId: poll.id, answers: [{ questionId: q, choices: ["Sushi"] }] },
      undefined,
      new Date("2002-01-18T11:10:00Z"),
    );
    await castVote(
      voter(cyd),
      { pollId: poll.id, answers: [{ questionId: q, choices: ["Sushi"] }] },
      undefined,
      new Date("2002-01-18T11:20:00Z"),
    );
    // Reminder after 60 min to the one recipient who has not voted.
    await tick(new Date("2002-01-18T12:00:10Z"));
    expect((await db.chatMessage.findMany({ where: { checkin_id: poll.id, kind: "reminder" } })).map((m) => m.recipient_id)).toEqual([
      ada.id,
    ]);
    await tick(new Date("2002-01-18T12:29:59Z"));
    expect(await db.chatMessage.count({ where: { checkin_id: poll.id, kind: "poll_results" } })).toBe(0);
    await tick(new Date("2002-01-18T12:30:00Z"));
    await tick(new Date("2002-01-18T12:31:00Z"));
    const results = await db.chatMessage.findMany({ where: { checkin_id: poll.id, kind: "poll_results" } });
    expect(results).toHaveLength(1);
    expect(results[0].channel_id).toBe(channel.id);
    expect(results[0].text).toBe('Poll "Lunch" closed: 2 of 3 voted.\n\nPizza or sushi?\n- Pizza: 0 (0%)\n- Sushi: 2 (100%)');
    await expect(
      castVote(
        voter(ada),
        { pollId: poll.id, answers: [{ questionId: q, choices: ["Pizza"] }] },
        undefined,
        new Date("2002-01-18T12:32:00Z"),
      ),
    ).rejects.toMatchObject({ detailCode: "POLL_CLOSED" });
  });
});

describe("webhook events of the loop", () => {
  it("emits occurrence.started when a run opens, occurrence.closed with its participation and poll.closed when they close", async () => {
    const [ada, bob, , dee] = users;
    const endpoint = await db.webhookEndpoint.create({
      data: {
        team_id: team.id,
        url: "https://hooks.example.com/loop",
        events: ["occurrence.started", "occurrence.closed", "poll.closed"],
        secret: "whsec_dGVzdA==",
      },
    });
    const events = async () =>
      (await db.webhookDelivery.findMany({ where: { endpoint_id: endpoint.id }, orderBy: { id: "asc" } })).map((d) => ({
        type: d.event_type,
        data: (d.payload as { data: OccurrenceEventData }).data,
      }));
    const s = await standup({ name: "Events", days: ["Wed"], time: "08:00:00" });
    await db.absence.create({
      data: { team_id: team.id, user_id: dee.id, start_date: new Date("2002-03-06T00:00:00Z"), end_date: new Date("2002-03-06T00:00:00Z") },
    });
    await db.checkin.update({ where: { id: s.id }, data: { next_run_at: new Date("2002-03-06T08:00:00Z") } });
    await tick(new Date("2002-03-06T08:00:05Z"));
    const occ = await db.occurrence.findFirstOrThrow({ where: { checkin_id: s.id } });
    const started = (await events()).filter((e) => e.data.standup_id === s.id);
    expect(started).toEqual([
      {
        type: "occurrence.started",
        data: expect.objectContaining({
          id: occ.id,
          kind: "standup",
          date: "2002-03-06",
          trigger: "schedule",
          closed_at: null,
          participation: null,
        }),
      },
    ]);
    await db.report.updateMany({
      where: { occurrence_id: occ.id, user_id: { in: [ada.id, bob.id] } },
      data: { status: "submitted", submitted_at: new Date("2002-03-06T08:30:00Z") },
    });
    await tick(new Date("2002-03-07T08:00:00Z"));
    const closed = (await events()).filter((e) => e.data.standup_id === s.id && e.type === "occurrence.closed");
    expect(closed).toHaveLength(1);
    expect(closed[0].data).toMatchObject({
      id: occ.id,
      closed_at: "2002-03-07T08:00:00.000Z",
      participation: { expected: 3, responded: 2, excused: 1, missed: 1 },
    });
    // The closing also enqueued the occurrence's summary (issue 15), in the same transaction.
    await dispatchJobOutbox();
    expect(await db.$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker._private_jobs WHERE key = ${`summarize:${occ.id}`}`).toHaveLength(1);

    const poll = await db.checkin.create({
      data: {
        team_id: team.id,
        kind: "poll",
        name: "Offsite",
        time: "10:00:00",
        timezone: "UTC",
        days: ["Thu"],
        duration: 60,
        recurrence: { type: "once" },
        owner_id: ada.id,
        next_run_at: new Date("2002-03-07T10:00:00Z"),
        questions: { create: [{ position: 0, text: "Where to?", answer_type: "open_ended" }] },
        members: { create: [ada, bob].map((u) => ({ user_id: u.id })) },
      },
      include: { questions: true },
    });
    await tick(new Date("2002-03-07T10:00:05Z"));
    const voter: Actor = { teamId: team.id, userId: bob.id, userChatId: "", isAdmin: false };
    const vote = await castVote(
      voter,
      { pollId: poll.id, answers: [{ questionId: poll.questions[0].id, text: "The lake" }] },
      undefined,
      new Date("2002-03-07T10:10:00Z"),
    );
    // An open-ended answer (re)starts its question's debounced categorization (issue 15).
    const categorizeKey = `categorize:${vote.instanceId}:${poll.questions[0].id}`;
    await dispatchJobOutbox();
    expect(await db.$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker._private_jobs WHERE key = ${categorizeKey}`).toHaveLength(1);
    await tick(new Date("2002-03-07T11:00:00Z"));
    const pollEvents = (await events()).filter((e) => e.data.poll_id === poll.id).map((e) => [e.type, e.data.participation]);
    expect(pollEvents).toEqual([
      ["occurrence.started", null],
      ["poll.closed", { expected: 2, responded: 1, excused: 0, missed: 0 }],
    ]);
  });
});
