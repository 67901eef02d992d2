/**
 * The v2 standup and poll JSON built in SQL (lib/api/v2/standups-sql.ts `checkinWirePage`, issue
 * 14) is byte for byte what the TypeScript serializer gives (`JSON.stringify(serializeCheckinV2(view,
 * include))`, lib/api/v2/standups.ts) for the same rows, for standups and polls and every `include`
 * combination: key order, keys left out (poll fields, member fields, questions), timestamps,
 * question positions and choices, broadcast channel, member order and JSON string escaping,
 * whatever the session's time zone. The routes (GET /v2/standups, /v2/polls and their `{id}`
 * reads) send these texts as they are; their contract is tested in tests/api/v2-standups.test.ts
 * and tests/api/v2-polls.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkinWireParts, INCLUDE_VALUES, type IncludeSet, type IncludeValue, serializeCheckinV2 } from "@/lib/api/v2/standups";
import { getCheckinWire, listCheckinWires } from "@/lib/api/v2/standups-sql";
import { db } from "@/lib/db";
import type { CheckinKind } from "@/lib/domain/access";
import { getCheckin, listCheckins, type StandupListFilters } from "@/lib/domain/standups";
import { createTestCheckin, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { inKolkataSession, TRICKY } from "@/tests/tricky-strings";

/** Every subset of the `include` values (16). */
const INCLUDES: IncludeSet[] = Array.from({ length: 1 << INCLUDE_VALUES.length }, (_, bits) => {
  return new Set(INCLUDE_VALUES.filter((_, i) => bits & (1 << i)));
});
const label = (include: IncludeSet) => [...include].join(",") || "none";

let A: TestTeam;
let admin: TestUser;
const filters = (include: IncludeSet, limit = 50): StandupListFilters => ({
  states: ["active", "paused"],
  limit,
  withQuestions: include.has("questions"),
});

/** Sets stored timestamps exactly (updated_at is @updatedAt, so Prisma writes would overwrite it). */
async function setTimes(id: number, created: string, updated: string) {
  await db.$executeRaw`UPDATE checkins SET created_at = ${new Date(created)}, updated_at = ${new Date(updated)} WHERE id = ${id}`;
}

beforeAll(async () => {
  A = await createTestTeam({ members: 3 });
  admin = A.admin;
  const [, m0, m1, m2] = A.users;
  // Member fields with every kind of tricky character (kept unique per team with the user id).
  for (const [i, u] of [m0, m1, m2].entries()) {
    await db.user.update({
      where: { id: u.id },
      data: { username: `${TRICKY[i]}.${u.id}`, realname: TRICKY[i + 1], email: `"${TRICKY[i + 2]}"@${u.id}.test` },
    });
  }
  await db.channel.update({ where: { id: A.channels[1].id }, data: { name: `eng "🚀" \\ \u2028 ${A.channels[1].id}` } });

  // A standup with tricky name, a multiple-choice question, a text question carrying stored
  // choices (sent as []), positions opposite to id order and an archived question (a gap).
  const tricky = await createTestCheckin(A, {
    name: `Daily ${TRICKY[0]} ${TRICKY[3]}`,
    channel: A.channels[1],
    members: [m2, admin, m0, m1],
    time: "07:05:30",
    timezone: "Asia/Kolkata",
    questions: [
      { text: `Q ${TRICKY[1]}` },
      { text: "Pick one", answer_type: "multiple_choice", choices: [TRICKY[2], 'b \\ "c"', "🚀"] },
      { text: "Archived", answer_type: "text" },
      { text: `Q ${TRICKY[4]}`, answer_type: "text", choices: ["stored but not sent"] },
    ],
  });
  const n = tricky.questions.length;
  for (const [i, q] of tricky.questions.entries()) {
    await db.question.update({ where: { id: q.id }, data: { position: 2 * (n - 1 - i) } });
  }
  await db.question.update({ where: { id: tricky.questions[2].id }, data: { archived_at: new Date() } });
  // Added order differs from user id order.
  for (const [i, u] of [m2, admin, m0, m1].entries()) {
    await db.checkinMember.update({
      where: { checkin_id_user_id: { checkin_id: tricky.id, user_id: u.id } },
      data: { added_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) },
    });
  }
  await db.checkin.update({ where: { id: tricky.id }, data: { wait_time: null } });
  await setTimes(tricky.id, "2026-03-02T09:00:00.007Z", "2026-03-29T01:30:59.999Z");

  // A paused, confidential, anonymous standup without a broadcast channel, wait_time set, no days.
  const paused = await createTestCheckin(A, {
    name: "Paused",
    state: "paused",
    is_confidential: true,
    is_anonymous: true,
    channel: null,
    days: [],
    questions: [],
  });
  await db.checkin.update({ where: { id: paused.id }, data: { wait_time: 15 } });
  await setTimes(paused.id, "2026-12-31T23:59:59.120Z", "2027-01-01T00:00:00.000Z");

  // A plain standup with the same created_at as the tricky one (id breaks the tie).
  const plain = await createTestCheckin(A, { name: "Plain", members: [] });
  await setTimes(plain.id, "2026-03-02T09:00:00.007Z", "2026-03-02T09:00:00.007Z");

  // Polls: one with a multiple-choice and an open-ended question, one paused without channel.
  const poll = await createTestCheckin(A, {
    kind: "poll",
    name: `Poll ${TRICKY[2]}`,
    members: [m1, m0],
    questions: [
      { text: `Pick ${TRICKY[3]}`, choices: ["a", TRICKY[0]] },
      { text: "Why?", answer_type: "open_ended" },
    ],
  });
  await setTimes(poll.id, "2026-05-05T05:05:05.005Z", "2026-05-06T06:06:06.060Z");
  const pausedPoll = await createTestCheckin(A, { kind: "poll", name: "Paused poll", state: "paused", channel: null });
  await setTimes(pausedPoll.id, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.001Z");
});

describe.each<{ kind: CheckinKind; count: number }>([
  { kind: "standup", count: 3 },
  { kind: "poll", count: 2 },
])("checkinWirePage ($kind)", ({ kind, count }) => {
  for (const include of INCLUDES) {
    it(`returns JSON.stringify(serializeCheckinV2(view, include)) of every ${kind} (include=${label(include)})`, async () => {
      const views = await listCheckins(admin.actor, kind, filters(include));
      const wires = await listCheckinWires(admin.actor, kind, filters(include), checkinWireParts(include));
      expect(views).toHaveLength(count);
      expect(wires.map((w) => w.json)).toEqual(views.map((v) => JSON.stringify(serializeCheckinV2(v, include))));
      expect(wires.map((w) => [w.id, w.created_at])).toEqual(views.map((v) => [v.id, v.created_at.toISOString()]));
      for (const view of views) {
        const wire = await getCheckinWire(admin.actor, kind, view.id, checkinWireParts(include));
        const one = await getCheckin(admin.actor, kind, view.id, { withQuestions: include.has("questions") });
        expect(wire).toBe(JSON.stringify(serializeCheckinV2(one, include)));
      }
    });
  }

  it("prints UTC timestamps whatever the session's time zone", async () => {
    const all = new Set<IncludeValue>(INCLUDE_VALUES);
    const views = await listCheckins(admin.actor, kind, filters(all));
    const wires = await inKolkataSession((tx) => listCheckinWires(admin.actor, kind, filters(all), checkinWireParts(all), tx));
    expect(wires.map((w) => w.json)).toEqual(views.map((v) => JSON.stringify(serializeCheckinV2(v, all))));
    expect(wires.map((w) => JSON.parse(w.json).updated)).toEqual(views.map((v) => v.updated_at.toISOString()));
    expect(wires.map((w) => w.created_at)).toEqual(views.map((v) => v.created_at.toISOString())); // the position too
  });

  it("keeps the keyset page: limit + 1 rows in list order, then the rows after the cursor", async () => {
    const none = new Set<IncludeValue>();
    const first = await listCheckinWires(admin.actor, kind, filters(none, 1), checkinWireParts(none));
    expect(first).toHaveLength(2);
    const after = { createdAt: new Date(first[0].created_at), id: first[0].id };
    const rest = await listCheckinWires(admin.actor, kind, { ...filters(none), after }, checkinWireParts(none));
    const views = await listCheckins(admin.actor, kind, filters(none));
    expect([first[0], ...rest].map((w) => w.id)).toEqual(views.map((v) => v.id));
  });
});

describe("checkinWirePage content", () => {
  it("renumbers question positions, sends choices only for multiple choice, keeps member order and omits poll fields", async () => {
    const all = new Set<IncludeValue>(INCLUDE_VALUES);
    const [standups, polls] = await Promise.all(
      (["standup", "poll"] as const).map(async (kind) =>
        (await listCheckinWires(admin.actor, kind, filters(all), checkinWireParts(all))).map((w) => JSON.parse(w.json)),
      ),
    );
    const tricky = standups.find((s) => s.name.startsWith("Daily"));
    expect(tricky.questions.map((q: { position: number }) => q.position)).toEqual([0, 1, 2]);
    expect(tricky.questions.map((q: { choices: string[] }) => q.choices)).toEqual([[], [TRICKY[2], 'b \\ "c"', "🚀"], []]);
    expect(tricky.wait_time).toBeNull();
    expect(tricky.time).toBe("07:05:30");
    expect(tricky.members.map((m: { id: string }) => m.id)).toEqual([A.users[3], A.users[0], A.users[1], A.users[2]].map((u) => u.chat_id));
    const paused = standups.find((s) => s.name === "Paused");
    expect(paused).toMatchObject({ state: "paused", wait_time: 15, broadcast_channel: null, days: [], questions: [] });
    expect(polls.every((p) => !("wait_time" in p) && !("is_confidential" in p))).toBe(true);
    expect(polls.find((p) => p.name === "Paused poll").broadcast_channel).toBeNull();
  });
});
