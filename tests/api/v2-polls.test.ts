/**
 * GET /v2/polls, GET /v2/polls/{id} and POST /v2/polls against the real test database: creator-only
 * visibility, the filters of spec §4.1, cursors, serialization (spec §2.3: no wait_time or
 * is_confidential), and the one-shot poll create (members from the channel, broadcast now,
 * recurrence once, closes_at from duration, outbox message).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getPollRoute } from "@/app/v2/polls/[pollId]/route";
import { GET as listPollsRoute, POST as postPollRoute } from "@/app/v2/polls/route";
import { db } from "@/lib/db";
import { localDateOf } from "@/lib/domain/schedule";
import { createTestCheckin, type StandardTeams, standardTeams } from "@/tests/fixtures";
import { call } from "@/tests/http";

const list = (key: string | undefined, qs = "") => call(listPollsRoute, { path: `/v2/polls${qs ? `?${qs}` : ""}`, key });
const getOne = (key: string, id: number | string, qs = "") =>
  call(getPollRoute, { path: `/v2/polls/${id}${qs ? `?${qs}` : ""}`, key, params: { pollId: String(id) } });
const create = (key: string | undefined, body: unknown) => call(postPollRoute, { method: "POST", path: "/v2/polls", key, body });
const day = (n: number) => new Date(Date.UTC(2026, 0, n));
const ids = (body: { data: Array<{ id: number }> }) => body.data.map((p) => p.id);

const p: Record<string, { id: number }> = {};

let { A, B, admin, m0 } = {} as StandardTeams;
beforeAll(async () => {
  ({ A, B, admin, m0 } = await standardTeams({ members: 3 }));
  const mc = [{ text: "Pick one", choices: ["x", "y"] }];
  p.p1 = await createTestCheckin(A, { kind: "poll", owner: m0, name: "P1", questions: mc, created_at: day(1), channel: A.channels[0] });
  p.p2 = await createTestCheckin(A, {
    kind: "poll",
    owner: m0,
    name: "P2",
    questions: mc,
    created_at: day(2),
    state: "paused",
    is_anonymous: true,
    channel: A.channels[1],
  });
  p.p3 = await createTestCheckin(A, { kind: "poll", owner: m0, name: "P3", questions: mc, created_at: day(3) });
  p.archived = await createTestCheckin(A, { kind: "poll", owner: m0, questions: mc, created_at: day(4), state: "archived" });
  p.draft = await createTestCheckin(A, { kind: "poll", owner: m0, questions: mc, created_at: day(5), state: "draft" });
  p.others = await createTestCheckin(A, { kind: "poll", owner: admin, members: A.users, questions: mc, created_at: day(6) });
  p.standup = await createTestCheckin(A, { owner: m0, created_at: day(7) });
  p.foreign = await createTestCheckin(B, { kind: "poll", owner: B.admin, questions: mc });
});

describe("GET /v2/polls", () => {
  it("lists only the caller's active and paused polls, newest first", async () => {
    const r = await list(m0.key);
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([p.p3.id, p.p2.id, p.p1.id]);
    expect(r.body).toMatchObject({ has_more: false, next_cursor: null });
    const first = r.body.data[2];
    expect(first).toMatchObject({
      id: p.p1.id,
      name: "P1",
      state: "active",
      owner: m0.chat_id,
      broadcast_channel: { id: A.channels[0].chat_id },
    });
    expect(first).not.toHaveProperty("wait_time");
    expect(first).not.toHaveProperty("is_confidential");
    expect(first).not.toHaveProperty("questions");
    expect((await list(admin.key)).body.data.map((x: { id: number }) => x.id)).toEqual([p.others.id]);
  });

  it("filters: state, is_anonymous, broadcast_channel, created range, include", async () => {
    expect(ids((await list(m0.key, "state=paused")).body)).toEqual([p.p2.id]);
    expect(ids((await list(m0.key, "is_anonymous=true")).body)).toEqual([p.p2.id]);
    expect(ids((await list(m0.key, `broadcast_channel=${A.channels[1].chat_id}`)).body)).toEqual([p.p2.id]);
    expect(ids((await list(m0.key, "created_since=2026-01-02&created_until=2026-01-03")).body)).toEqual([p.p2.id]);
    const inc = await list(m0.key, "include=questions,member_username");
    expect(inc.body.data[0].questions[0]).toMatchObject({
      text: "Pick one",
      answer_type: "multiple_choice",
      choices: ["x", "y"],
      position: 0,
    });
    expect(inc.body.data[0].members[0]).toHaveProperty("username");
  });

  it("paginates with a cursor bound to the filters", async () => {
    const page1 = await list(m0.key, "limit=2");
    expect(ids(page1.body)).toEqual([p.p3.id, p.p2.id]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await list(m0.key, `limit=2&cursor=${page1.body.next_cursor}`);
    expect(ids(page2.body)).toEqual([p.p1.id]);
    expect(page2.body.has_more).toBe(false);
    const mismatched = await list(m0.key, `limit=2&state=active&cursor=${page1.body.next_cursor}`);
    expect(mismatched.status).toBe(400);
  });

  it("400 INVALID_PARAMETER for bad parameters; 401 without a key", async () => {
    for (const qs of ["include=bogus", "created_since=yesterday", "limit=0", "limit=101", "cursor=garbage", "state=archived"]) {
      const r = await list(m0.key, qs);
      expect(r.status, qs).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
    expect((await list(undefined)).status).toBe(401);
  });
});

describe("GET /v2/polls/{id}", () => {
  it("returns the caller's poll", async () => {
    const r = await getOne(m0.key, p.p2.id, "include=questions");
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: p.p2.id, state: "paused", is_anonymous: true });
    expect(r.body.data.questions).toHaveLength(1);
  });

  it("404 for other users' polls, archived, draft, standups, other teams, junk ids", async () => {
    for (const id of [p.others.id, p.archived.id, p.draft.id, p.standup.id, p.foreign.id, 2_000_000_000, "abc"]) {
      const r = await getOne(m0.key, id);
      expect(r.status, String(id)).toBe(404);
      expect(r.body.error.code).toBe("NOT_FOUND");
    }
  });
});

describe("POST /v2/polls", () => {
  it("creates a one-shot poll broadcast now: members from the channel, occurrence, outbox message", async () => {
    const before = Date.now();
    const r = await create(admin.key, {
      name: "Lunch",
      question: "Where?",
      choices: ["Pizza", "Sushi", "Tacos"],
      broadcast_channel: `#${A.channels[1].name}`,
      duration: 60,
    });
    expect(r.status).toBe(201);
    const d = r.body.data;
    expect(d).toMatchObject({
      name: "Lunch",
      state: "active",
      is_anonymous: false,
      owner: admin.chat_id,
      broadcast_channel: { id: A.channels[1].chat_id, name: A.channels[1].name },
    });
    expect(d).not.toHaveProperty("wait_time");
    expect(d.questions).toEqual([
      { id: expect.any(Number), text: "Where?", position: 0, answer_type: "multiple_choice", choices: ["Pizza", "Sushi", "Tacos"] },
    ]);
    const channelMembers = await db.channelMember.findMany({ where: { channel_id: A.channels[1].id } });
    expect(d.members.map((m: { id: string }) => m.id).sort()).toEqual(
      (await db.user.findMany({ where: { id: { in: channelMembers.map((c) => c.user_id) } } })).map((u) => u.chat_id).sort(),
    );
    expect(d.time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(d.days).toHaveLength(1);

    const poll = await db.checkin.findUniqueOrThrow({ where: { id: d.id }, include: { occurrences: { include: { members: true } } } });
    expect(poll.kind).toBe("poll");
    expect(poll.recurrence).toMatchObject({ type: "once" });
    expect(poll.duration).toBe(60);
    expect(poll.next_run_at).toBeNull();
    expect(poll.sync_channel_members).toBe(true);
    expect(poll.occurrences).toHaveLength(1);
    const occ = poll.occurrences[0];
    expect(occ.date.toISOString().slice(0, 10)).toBe(localDateOf(new Date(), "UTC"));
    expect((occ.closes_at as Date).getTime() - (occ.started_at as Date).getTime()).toBe(60 * 60_000);
    expect((occ.started_at as Date).getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(occ.members).toHaveLength(channelMembers.length);
    const messages = await db.chatMessage.findMany({ where: { checkin_id: d.id } });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ kind: "poll", channel_id: A.channels[1].id, occurrence_id: occ.id });
    expect(messages[0].text).toContain("Where?");
    expect(messages[0].text).toContain("Sushi");

    // visible to its creator only
    expect((await getOne(admin.key, d.id)).status).toBe(200);
    expect((await getOne(m0.key, d.id)).status).toBe(404);
  });

  it("duration is optional (no closing time)", async () => {
    const r = await create(admin.key, { name: "Open", question: "Q?", choices: ["a", "b"], broadcast_channel: A.channels[0].chat_id });
    expect(r.status).toBe(201);
    const occ = await db.occurrence.findFirstOrThrow({ where: { checkin_id: r.body.data.id } });
    expect(occ.closes_at).toBeNull();
  });

  it("400: invalid fields, fewer than 2 choices, CHANNEL_NOT_FOUND; 401 without a key", async () => {
    const good = { name: "N", question: "Q?", choices: ["a", "b"], broadcast_channel: A.channels[0].chat_id };
    for (const body of [
      { ...good, name: "" },
      { ...good, name: undefined },
      { ...good, question: undefined },
      { ...good, choices: ["a"] },
      { ...good, choices: ["a", "a"] },
      { ...good, choices: "a,b" },
      { ...good, broadcast_channel: undefined },
      { ...good, duration: 0 },
      { ...good, duration: 1.5 },
      { ...good, duration: "60" },
    ]) {
      const r = await create(admin.key, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
    }
    for (const channel of ["#missing", B.channels[0].chat_id]) {
      const r = await create(admin.key, { ...good, broadcast_channel: channel });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("CHANNEL_NOT_FOUND");
    }
    expect((await create(undefined, good)).status).toBe(401);
  });
});
