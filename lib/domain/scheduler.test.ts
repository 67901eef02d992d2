/**
 * Integration test of the scheduler against the real test database (tests/global-setup.ts).
 * Uses instants in 2001 so that runDueOccurrences never touches checkins of other test files
 * running in parallel (they schedule around the current date).
 */
// Messages carry absolute links on PUBLIC_URL (issue 40 item 4).
process.env.PUBLIC_URL = "https://checkin.example.test";

import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { refreshNextRunAt } from "@/lib/domain/asking-times";
import { newChatTs } from "@/lib/domain/chat-ts";
import { runDueOccurrences } from "@/lib/domain/scheduler";

const uid = () => randomBytes(5).toString("hex").toUpperCase();

async function createTeam() {
  const tag = uid();
  const team = await db.team.create({ data: { chat_id: `T${tag}`, name: `Scheduler ${tag}`, timezone: "Europe/Berlin" } });
  const users = [];
  for (const name of ["ada", "bob", "cyd", "dee"]) {
    users.push(
      await db.user.create({
        data: {
          chat_id: `U${tag}${name.toUpperCase()}`,
          team_id: team.id,
          username: name,
          realname: `${name} Example`,
          firstname: name,
          email: `${name}.${tag}@example.com`,
          timezone: "Europe/Berlin",
        },
      }),
    );
  }
  return { team, users };
}

describe("runDueOccurrences", () => {
  let fixture: Awaited<ReturnType<typeof createTeam>>;
  beforeAll(async () => {
    fixture = await createTeam();
  });

  it("runs a due standup exactly once under concurrency: occurrence, member snapshot, pending reports, questions, next_run_at", async () => {
    const { team, users } = fixture;
    const [owner, b, c, d] = users;
    // Friday 2001-02-02 09:00 Berlin (08:00Z) is due; "now" is 08:00:30Z.
    const due = new Date("2001-02-02T08:00:00Z");
    const now = new Date("2001-02-02T08:00:30Z");
    const standup = await db.checkin.create({
      data: {
        team_id: team.id,
        kind: "standup",
        name: "Daily",
        time: "09:00:00",
        timezone: "Europe/Berlin",
        days: ["Mon", "Tue", "Wed", "Thu", "Fri"],
        owner_id: owner.id,
        next_run_at: due,
        questions: {
          create: [
            { position: 1, text: "What will you do today?" },
            { position: 0, text: "What did you do yesterday?" },
            { position: -1, text: "Removed question", archived_at: new Date("2001-01-01T00:00:00Z") },
          ],
        },
        members: { create: [owner, b, c, d].map((u) => ({ user_id: u.id })) },
      },
    });
    // d is on vacation that day: recorded as expected member but not asked.
    await db.absence.create({
      data: { team_id: team.id, user_id: d.id, start_date: new Date("2001-02-01T00:00:00Z"), end_date: new Date("2001-02-03T00:00:00Z") },
    });

    const [r1, r2] = await Promise.all([runDueOccurrences(now), runDueOccurrences(now)]);
    expect(r1.failed.concat(r2.failed)).toEqual([]);

    const occurrences = await db.occurrence.findMany({ where: { checkin_id: standup.id }, include: { members: true } });
    expect(occurrences).toHaveLength(1);
    const occ = occurrences[0];
    expect(r1.created.concat(r2.created)).toEqual([occ.id]);
    expect(occ.date.toISOString().slice(0, 10)).toBe("2001-02-02");
    expect(occ.scheduled_at.toISOString()).toBe(due.toISOString());
    expect(occ.started_at?.toISOString()).toBe(now.toISOString());
    // Response window: until the next run or 24 h, whichever is first (Saturday 09:00 Berlin).
    expect(occ.closes_at?.toISOString()).toBe("2001-02-03T08:00:00.000Z");
    expect(occ.trigger).toBe("schedule");

    const members = occ.members.sort((x, y) => x.user_id - y.user_id);
    expect(members.map((m) => m.user_id)).toEqual([owner.id, b.id, c.id, d.id].sort((x, y) => x - y));
    for (const m of members) {
      expect(m.asked_at?.toISOString() ?? null).toBe(m.user_id === d.id ? null : now.toISOString());
      expect(m.excused).toBe(m.user_id === d.id ? "vacation" : null);
      expect(m.due_at?.toISOString()).toBe(due.toISOString());
    }

    const reports = await db.report.findMany({ where: { checkin_id: standup.id }, orderBy: { user_id: "asc" } });
    expect(reports.map((r) => r.user_id)).toEqual([owner.id, b.id, c.id].sort((x, y) => x - y));
    for (const r of reports) {
      expect(r.status).toBe("pending");
      expect(r.occurrence_id).toBe(occ.id);
      expect(r.started_at).toBeNull();
      expect(r.submitted_at).toBeNull();
    }

    const messages = await db.chatMessage.findMany({ where: { occurrence_id: occ.id } });
    expect(messages).toHaveLength(3);
    expect(new Set(messages.map((m) => m.ts)).size).toBe(3);
    for (const m of messages) {
      expect(m.kind).toBe("question");
      expect(m.channel_id).toBeNull();
      // Names the standup and the date, shows the first question and links to the answer form.
      expect(m.text).toBe(
        `It's time for Daily (Friday 2 Feb).\nWhat did you do yesterday?\nAnswer here: https://checkin.example.test/my-checkins/${standup.id}?occurrence=${occ.id}`,
      );
      expect(m.ts).toMatch(/^\d+\.\d{6}$/);
      expect(reports.find((r) => r.user_id === m.recipient_id)?.id).toBe(m.report_id);
    }

    const after = await db.checkin.findUniqueOrThrow({ where: { id: standup.id } });
    // next weekday after Friday: Monday 2001-02-05 09:00 Berlin = 08:00Z
    expect(after.next_run_at?.toISOString()).toBe("2001-02-05T08:00:00.000Z");

    // Nothing is due any more: another tick changes nothing.
    const again = await runDueOccurrences(now);
    expect(again.created).not.toContain(occ.id);
    expect(await db.occurrence.count({ where: { checkin_id: standup.id } })).toBe(1);
  });

  it("runs a poll with closes_at = slot + duration, no reports, and stops a one-shot poll", async () => {
    const { team, users } = fixture;
    const due = new Date("2001-03-05T10:00:00Z"); // Monday 11:00 Berlin
    const now = new Date("2001-03-05T10:00:05Z");
    const poll = await db.checkin.create({
      data: {
        team_id: team.id,
        kind: "poll",
        name: "Lunch?",
        time: "11:00:00",
        timezone: "Europe/Berlin",
        days: ["Mon"],
        owner_id: users[0].id,
        duration: 90,
        recurrence: { type: "once" },
        next_run_at: due,
        questions: {
          create: [{ position: 0, text: "Pizza or sushi?", answer_type: "multiple_choice", choices: ["Pizza", "Sushi"] }],
        },
        members: { create: users.slice(0, 2).map((u) => ({ user_id: u.id })) },
      },
    });
    await runDueOccurrences(now);
    const occ = await db.occurrence.findFirstOrThrow({ where: { checkin_id: poll.id } });
    expect(occ.closes_at?.toISOString()).toBe("2001-03-05T11:30:00.000Z");
    expect(await db.report.count({ where: { checkin_id: poll.id } })).toBe(0);
    const messages = await db.chatMessage.findMany({ where: { occurrence_id: occ.id } });
    const text = `Poll "Lunch?" is waiting for your vote.\nPizza or sushi?\nVote here: https://checkin.example.test/polls/${poll.id}/vote`;
    expect(messages.map((m) => m.text)).toEqual([text, text]);
    expect((await db.checkin.findUniqueOrThrow({ where: { id: poll.id } })).next_run_at).toBeNull();
    expect(await refreshNextRunAt(poll.id, db, now)).toBeNull();
  });

  it("skips missed slots after downtime and does not run paused checkins", async () => {
    const { team, users } = fixture;
    const now = new Date("2001-04-12T12:00:00Z"); // Thursday
    const stale = await db.checkin.create({
      data: {
        team_id: team.id,
        kind: "standup",
        name: "Stale",
        time: "09:00:00",
        timezone: "UTC",
        days: ["Mon", "Tue", "Wed", "Thu", "Fri"],
        owner_id: users[0].id,
        next_run_at: new Date("2001-04-09T09:00:00Z"), // Monday, three days ago
        members: { create: [{ user_id: users[1].id }] },
      },
    });
    const paused = await db.checkin.create({
      data: {
        team_id: team.id,
        kind: "standup",
        name: "Paused",
        state: "paused",
        time: "09:00:00",
        timezone: "UTC",
        days: ["Thu"],
        owner_id: users[0].id,
        next_run_at: new Date("2001-04-12T09:00:00Z"),
      },
    });
    await runDueOccurrences(now);
    const occs = await db.occurrence.findMany({ where: { checkin_id: { in: [stale.id, paused.id] } } });
    expect(occs.map((o) => [o.checkin_id, o.date.toISOString().slice(0, 10)])).toEqual([[stale.id, "2001-04-12"]]);
    expect((await db.checkin.findUniqueOrThrow({ where: { id: stale.id } })).next_run_at?.toISOString()).toBe("2001-04-13T09:00:00.000Z");
    // paused -> refresh clears next_run_at; active again -> next slot after now
    expect(await refreshNextRunAt(paused.id, db, now)).toBeNull();
    await db.checkin.update({ where: { id: paused.id }, data: { state: "active" } });
    expect((await refreshNextRunAt(paused.id, db, now))?.toISOString()).toBe("2001-04-19T09:00:00.000Z");
  });
});

describe("newChatTs", () => {
  it("produces unique, well-formed ids even within one millisecond", () => {
    const now = new Date("2026-01-05T09:00:00.123Z");
    const ids = Array.from({ length: 5000 }, () => newChatTs(now));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 50)) expect(id).toMatch(/^\d{10}\.\d{6}$/);
  });

  it("keeps one sequence across copies of the module (Next.js bundles one per route chunk)", async () => {
    vi.resetModules();
    const copy = (await import("@/lib/domain/chat-ts")).newChatTs;
    expect(copy).not.toBe(newChatTs);
    const now = new Date("2026-01-05T09:00:01.456Z");
    const ids = Array.from({ length: 2000 }, (_, i) => (i % 2 ? copy(now) : newChatTs(now)));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toStrictEqual(ids);
  });
});
