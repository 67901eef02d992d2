/**
 * Legacy poll endpoints (spec §4.3, §2.8; compatibility.md "Poll", "Poll votes") against the real
 * test database: GET/POST /v1/polls, GET /v1/polls/{id}, GET /v1/polls/{id}/votes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as one from "@/app/v1/polls/[id]/route";
import * as votes from "@/app/v1/polls/[id]/votes/route";
import * as collection from "@/app/v1/polls/route";
import { db } from "@/lib/db";
import { createTestCheckin, createTestOccurrence, type StandardTeams, standardTeams, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

let { A, B, admin, m0, m1, m2, m3 } = {} as StandardTeams;
let seeded: Awaited<ReturnType<typeof createTestCheckin>>;
let anonPoll: Awaited<ReturnType<typeof createTestCheckin>>;
let occ: Record<string, { id: number }>;

const getOne = (key: string | undefined, id: number | string) =>
  call(one.GET, { path: `/v1/polls/${id}`, key, params: { id: String(id) } });
const getVotes = (key: string, id: number | string, qs = "") =>
  call(votes.GET, { path: `/v1/polls/${id}/votes${qs ? `?${qs}` : ""}`, key, params: { id: String(id) } });
const create = (key: string, body: unknown) => call(collection.POST, { method: "POST", path: "/v1/polls", key, body });

async function vote(
  poll: { id: number; team_id: number; questions: Array<{ id: number }> },
  occurrenceId: number,
  user: TestUser,
  choice: string,
) {
  await db.vote.create({
    data: { team_id: poll.team_id, occurrence_id: occurrenceId, question_id: poll.questions[0].id, user_id: user.id, choice },
  });
}

beforeAll(async () => {
  ({ A, B, admin, m0, m1, m2, m3 } = await standardTeams({ members: 4 }));
  const question = { text: "Lunch?", choices: ["Pizza", "Salad", "Soup"] };
  seeded = await createTestCheckin(A, { kind: "poll", name: "Lunch poll", owner: admin, members: [m0, m1, m2], questions: [question] });
  anonPoll = await createTestCheckin(A, {
    kind: "poll",
    name: "Anon poll",
    owner: admin,
    members: [m0, m1],
    questions: [question],
    is_anonymous: true,
  });
  occ = {
    jan5: await createTestOccurrence(seeded, "2026-01-05", [m0, m1, m2]),
    jan12: await createTestOccurrence(seeded, "2026-01-12", [m0, m1, m2]),
    feb2: await createTestOccurrence(seeded, "2026-02-02", [m0, m1, m2]),
    anon: await createTestOccurrence(anonPoll, "2026-01-05", [m0, m1]),
  };
  await vote(seeded, occ.jan5.id, m0, "Pizza");
  await vote(seeded, occ.jan5.id, m1, "Pizza");
  await vote(seeded, occ.jan5.id, m2, "Salad");
  await vote(seeded, occ.jan12.id, m0, "Soup");
  await vote(seeded, occ.feb2.id, m1, "Salad");
  await vote(anonPoll, occ.anon.id, m0, "Soup");
  await vote(anonPoll, occ.anon.id, m1, "Soup");
  await createTestCheckin(A, { kind: "poll", name: "Archived poll", owner: m0, members: [m0], state: "archived" });
});

describe("GET /v1/polls", () => {
  it("needs a key", async () => {
    expect((await call(collection.GET, { path: "/v1/polls" })).status).toBe(401);
  });
  it("lists the polls the caller takes part in or created, never standups or archived polls", async () => {
    const res = await call(collection.GET, { path: "/v1/polls", key: m0.key, bearer: true });
    expect(res.status).toBe(200);
    const names = res.body.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(["Lunch poll", "Anon poll"]));
    expect(names).not.toContain("Archived poll");
    expect((await call(collection.GET, { path: "/v1/polls/", key: m3.key })).body).toEqual([]);
    const creator = await call(collection.GET, { path: "/v1/polls", key: admin.key });
    expect(creator.body.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([seeded.id, anonPoll.id]));
  });
});

describe("GET /v1/polls/{id}", () => {
  it("serializes the v1 poll with the compatibility fields", async () => {
    const res = await getOne(m1.key, seeded.id);
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p).toMatchObject({
      id: seeded.id,
      name: "Lunch poll",
      time: "09:00:00",
      timezone: "UTC",
      anonymous: false,
      paused: false,
      users_total: 3,
      intro: "",
    });
    expect(p.questions).toEqual([
      {
        id: seeded.questions[0].id,
        text: "Lunch?",
        answer_type: "multiple_choice",
        answer_choices: ["Pizza", "Salad", "Soup"],
        add_own_options: false,
        one_option_limit: true,
      },
    ]);
    // spec §2.8: v1 poll users[].id is a number; creator is the same kind of user object.
    expect(p.users.map((u: { id: number }) => u.id)).toEqual([m0.id, m1.id, m2.id]);
    expect(p.creator).toMatchObject({ id: admin.id, role: "admin", email: admin.email });
    expect(p.recurrence).toEqual(expect.objectContaining({ type: expect.any(String) }));
    expect(typeof p.dm_mode).toBe("boolean");
    expect(typeof p.sync_channel_members).toBe("boolean");
    expect(typeof p.sync_channel).toBe("string");
  });
  it("answers 404 to non-participants, other teams, standups and bad ids", async () => {
    expect((await getOne(m3.key, seeded.id)).status).toBe(404);
    expect((await getOne(B.admin.key, seeded.id)).status).toBe(404);
    const standup = await createTestCheckin(A, { owner: m0, members: [m0] });
    expect((await getOne(m0.key, standup.id)).status).toBe(404);
    const bad = await getOne(m0.key, "nope");
    expect(bad.status).toBe(404);
    expect(typeof bad.body.error).toBe("string");
  });
});

describe("POST /v1/polls", () => {
  it("creates a one-time poll in the channel with its current members, the caller as creator", async () => {
    const channel = A.channels[1];
    const res = await create(m0.key, {
      name: "Retro day",
      channel: channel.name,
      question: "Which day?",
      choices: ["Thu", "Fri"],
      duration: "60",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Retro day",
      anonymous: false,
      paused: false,
      sync_channel_members: true,
      sync_channel: channel.name,
    });
    expect(res.body.recurrence.type).toBe("once");
    expect(res.body.creator.id).toBe(m0.id);
    expect(res.body.questions[0]).toMatchObject({ text: "Which day?", answer_choices: ["Thu", "Fri"], answer_type: "multiple_choice" });
    const channelMembers = await db.channelMember.count({ where: { channel_id: channel.id } });
    expect(res.body.users_total).toBe(channelMembers);
    const message = await db.chatMessage.findFirst({ where: { checkin_id: res.body.id, kind: "poll" } });
    expect(message?.channel_id).toBe(channel.id);
    expect((await getOne(m0.key, res.body.id)).status).toBe(200);
    const byChatId = await create(m0.key, { name: "By id", channel: channel.chat_id, question: "Q?", choices: ["a", "b"], duration: 5 });
    expect(byChatId.status).toBe(200);
  });
  it("answers 400 when a field is missing or invalid or the channel is unknown", async () => {
    const body = { name: "P", channel: A.channels[0].name, question: "Q?", choices: ["a", "b"], duration: 30 };
    for (const key of Object.keys(body)) {
      const partial: Record<string, unknown> = { ...body };
      delete partial[key];
      const res = await create(m0.key, partial);
      expect(res.status, key).toBe(400);
      expect(typeof res.body.error).toBe("string");
    }
    expect((await create(m0.key, { ...body, choices: ["only"] })).status).toBe(400);
    expect((await create(m0.key, { ...body, choices: "a,b" })).status).toBe(400);
    expect((await create(m0.key, { ...body, duration: 0 })).status).toBe(400);
    expect((await create(m0.key, { ...body, duration: "soon" })).status).toBe(400);
    expect((await create(m0.key, { ...body, channel: "no-such-channel" })).status).toBe(400);
    const hashOnly = await create(m0.key, { ...body, channel: "#" });
    expect(hashOnly.status).toBe(400);
    expect(hashOnly.body).toEqual({ error: "channel: must name a channel" });
  });
});

describe("GET /v1/polls/{id}/votes", () => {
  it("aggregates every instance when no range is given, newest first", async () => {
    const res = await getVotes(m0.key, seeded.id);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.total_results).toBe(3);
    expect(body.instances).toEqual([
      { id: occ.feb2.id, date: "2026-02-02", answer_count: 1 },
      { id: occ.jan12.id, date: "2026-01-12", answer_count: 1 },
      { id: occ.jan5.id, date: "2026-01-05", answer_count: 3 },
    ]);
    expect(body.questions).toHaveLength(1);
    const q = body.questions[0];
    expect(q).toMatchObject({
      id: seeded.questions[0].id,
      text: "Lunch?",
      answer_type: "multiple_choice",
      total_responses: 5,
      total_responders: 5,
    });
    expect(q.results.map((r: { date: string }) => r.date)).toEqual(["2026-02-02", "2026-01-12", "2026-01-05"]);
    const jan5 = q.results[2].answers;
    expect(jan5.map((a: { text: string; votes: number; percentage: number }) => [a.text, a.votes, a.percentage])).toEqual([
      ["Pizza", 2, 67],
      ["Salad", 1, 33],
      ["Soup", 0, 0],
    ]);
    expect(jan5[0].users.map((u: { id: number }) => u.id)).toEqual([m0.id, m1.id]);
    expect(jan5[0].users[0]).toMatchObject({ role: "member", email: m0.email, username: m0.username });
    for (const a of jan5) expect(Number.isInteger(a.percentage)).toBe(true);
  });
  it("restricts to the from/to date range (YYYY-MM-DD inclusive of the to day, or ISO)", async () => {
    const jan = await getVotes(m0.key, seeded.id, "from=2026-01-01&to=2026-01-12");
    expect(jan.body.instances.map((i: { id: number }) => i.id)).toEqual([occ.jan12.id, occ.jan5.id]);
    expect(jan.body.total_results).toBe(2);
    const iso = await getVotes(m0.key, seeded.id, "from=2026-01-06T00:00:00Z");
    expect(iso.body.instances.map((i: { id: number }) => i.id)).toEqual([occ.feb2.id, occ.jan12.id]);
    const until = await getVotes(m0.key, seeded.id, "to=2026-01-05");
    expect(until.body.instances.map((i: { id: number }) => i.id)).toEqual([occ.jan5.id]);
    const none = await getVotes(m0.key, seeded.id, "from=2027-01-01");
    expect(none.body).toMatchObject({ total_results: 0, instances: [] });
    // The poll's questions are still listed, with no results in the range.
    expect(none.body.questions).toEqual([
      {
        id: seeded.questions[0].id,
        text: "Lunch?",
        answer_type: "multiple_choice",
        total_responses: 0,
        total_responders: 0,
        categories: [],
        results: [],
      },
    ]);
  });
  it("leaves users empty when the poll is anonymous", async () => {
    // Two voters: shown only with the team's anonymity threshold at 2 (issue 45; the default 3 suppresses them).
    await db.team.update({ where: { id: A.id }, data: { anonymity_threshold: 2 } });
    const res = await getVotes(m0.key, anonPoll.id).finally(() =>
      db.team.update({ where: { id: A.id }, data: { anonymity_threshold: 3 } }),
    );
    const soup = res.body.questions[0].results[0].answers.find((a: { text: string }) => a.text === "Soup");
    expect(soup).toMatchObject({ votes: 2, percentage: 100, users: [] });
  });
  it("answers 400 for bad dates or a reversed range and 404 for polls the caller cannot open", async () => {
    expect((await getVotes(m0.key, seeded.id, "from=yesterday")).status).toBe(400);
    expect((await getVotes(m0.key, seeded.id, "from=2026-02-01&to=2026-01-01")).status).toBe(400);
    expect((await getVotes(m3.key, seeded.id)).status).toBe(404);
    expect((await getVotes(B.admin.key, seeded.id)).status).toBe(404);
  });
});
