/**
 * One domain layer behind both API versions (issue #4): resources written through /v1 are read
 * through /v2 and the reverse — standups (create, edit, delete), reports (listings and
 * participation) and polls.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as v1Poll from "@/app/v1/polls/[id]/route";
import * as v1Polls from "@/app/v1/polls/route";
import * as v1Reports from "@/app/v1/reports/route";
import * as v1Standup from "@/app/v1/standups/[id]/route";
import * as v1Standups from "@/app/v1/standups/route";
import * as v2Poll from "@/app/v2/polls/[pollId]/route";
import * as v2Polls from "@/app/v2/polls/route";
import * as v2Reports from "@/app/v2/reports/route";
import * as v2Participation from "@/app/v2/standups/[standupId]/participation/route";
import * as v2Standup from "@/app/v2/standups/[standupId]/route";
import * as v2Standups from "@/app/v2/standups/route";
import { db } from "@/lib/db";
import { createTestCheckin, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

let A: TestTeam;
let admin: TestUser;
let m0: TestUser;
let m1: TestUser;

const v2GetStandup = (key: string, id: number) =>
  call(v2Standup.GET, { path: `/v2/standups/${id}?include=questions,member_email`, key, params: { standupId: String(id) } });
const v1GetStandup = (key: string, id: number) => call(v1Standup.GET, { path: `/v1/standups/${id}`, key, params: { id: String(id) } });

/** POST `body` (as JSON) to `path`, served by `handler`, with the API key `key`. */
const post = (handler: Parameters<typeof call>[0], path: string, key: string, body: unknown) =>
  call(handler, { method: "POST", path, key, body });

beforeAll(async () => {
  A = await createTestTeam({ members: 3 });
  [admin, m0, m1] = A.users;
});

describe("standups", () => {
  it("created via v1 is read via v2 with the same configuration", async () => {
    const created = await post(v1Standups.POST, "/v1/standups/", m0.key, {
      name: "Cross v1",
      channel: A.channels[0].name,
      time: "08:30:00",
      timezone: "Europe/Paris",
      days: ["Mon", "Thu"],
      users: [m0.id, m1.chat_id],
      sync_channel_members: false,
      personalised: false,
    });
    expect(created.status).toBe(200);
    const v2 = await v2GetStandup(m0.key, created.body.id);
    expect(v2.status).toBe(200);
    expect(v2.body.data).toMatchObject({
      id: created.body.id,
      name: "Cross v1",
      state: "active",
      time: "08:30:00",
      timezone: "Europe/Paris",
      days: ["Mon", "Thu"],
      owner: m0.chat_id,
    });
    expect(v2.body.data.broadcast_channel).toEqual({ id: A.channels[0].chat_id, name: A.channels[0].name });
    expect(v2.body.data.members.map((m: { id: string }) => m.id).sort()).toEqual([m0.chat_id, m1.chat_id].sort());
    expect(v2.body.data.questions.map((q: { id: number }) => q.id)).toEqual(created.body.questions.map((q: { id: number }) => q.id));
    expect((await v2GetStandup(m1.key, created.body.id)).status).toBe(200);

    // v1 edits show through v2; a v1 delete hides it from v2.
    await call(v1Standup.PATCH, {
      method: "PATCH",
      path: `/v1/standups/${created.body.id}`,
      key: m0.key,
      body: { name: "Renamed", time: "1015" },
      params: { id: String(created.body.id) },
    });
    expect((await v2GetStandup(m0.key, created.body.id)).body.data).toMatchObject({ name: "Renamed", time: "10:15:00" });
    await call(v1Standup.DELETE, {
      method: "DELETE",
      path: `/v1/standups/${created.body.id}`,
      key: m0.key,
      params: { id: String(created.body.id) },
    });
    expect((await v2GetStandup(m0.key, created.body.id)).status).toBe(404);
  });

  it("created via v2 is read via v1", async () => {
    const created = await post(v2Standups.POST, "/v2/standups", m1.key, {
      name: "Cross v2",
      questions: [{ text: "First?" }, { text: "Second?", choices: ["a", "b"] }],
      days: ["Tue"],
      time: "07:45",
      broadcast_channel: A.channels[0].chat_id,
      users: [m1.chat_id, m0.chat_id],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const v1 = await v1GetStandup(m0.key, id);
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({
      id,
      name: "Cross v2",
      time: "07:45:00",
      days: ["Tue"],
      channel: A.channels[0].name,
      master: m1.chat_id,
      wait_time: 0, // created without wait_time: asked automatically at its time
    });
    expect(v1.body.questions.map((q: { text: string; answer_type: string }) => [q.text, q.answer_type])).toEqual([
      ["First?", "text"],
      ["Second?", "multiple_choice"],
    ]);
    const list = await call(v1Standups.GET, { path: "/v1/standups/", key: m1.key });
    expect(list.body.map((s: { id: number }) => s.id)).toContain(id);
  });
});

describe("reports", () => {
  it("a report submitted via v1 appears in v2 listings and participation", async () => {
    const standup = await post(v2Standups.POST, "/v2/standups", admin.key, {
      name: "Report cross",
      questions: [{ text: "Done?" }, { text: "Next?" }],
      days: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
      time: "09:00",
      broadcast_channel: A.channels[0].name,
      users: [m0.chat_id, m1.chat_id],
    });
    const s = standup.body.data;
    const [q0, q1] = s.questions.map((q: { id: number }) => q.id);
    const submitted = await post(v1Reports.POST, "/v1/reports/", m0.key, {
      standup_id: String(s.id),
      answers: { [q0]: { text: "Shipped" }, [q1]: { text: "Test" } },
    });
    expect(submitted.status).toBe(200);

    const v2List = await call(v2Reports.GET, { path: `/v2/reports?standup_id=${s.id}`, key: m1.key });
    expect(v2List.status).toBe(200);
    expect(v2List.body.data).toHaveLength(1);
    expect(v2List.body.data[0]).toMatchObject({ id: submitted.body.id, standup_id: s.id, user_id: m0.chat_id });
    expect(v2List.body.data[0].answers.map((a: { answer: string }) => a.answer)).toEqual(["Shipped", "Test"]);

    const participation = await call(v2Participation.GET, {
      path: `/v2/standups/${s.id}/participation`,
      key: admin.key,
      params: { standupId: String(s.id) },
    });
    expect(participation.status).toBe(200);
    expect(participation.body.data[0]).toMatchObject({ standup_id: s.id, responded: 1, expected: 2, participation_rate: 0.5 });

    // And the reverse: a v2 report shows in the v1 list.
    const v2Submitted = await post(v2Reports.POST, "/v2/reports", m1.key, {
      standup_id: s.id,
      answers: [
        { question_id: q0, text: "Reviewed" },
        { question_id: q1, text: "Plan" },
      ],
    });
    expect(v2Submitted.status).toBe(200);
    const v1List = await call(v1Reports.GET, { path: `/v1/reports/?standup_id=${s.id}`, key: m0.key });
    expect(v1List.body.map((r: { id: number }) => r.id)).toEqual([v2Submitted.body.data.id, submitted.body.id]);
    expect(v1List.body[0].member.id).toBe(m1.chat_id);
    expect(typeof v1List.body[0].slack_ts).toBe("string");
  });
  it("anonymity is the flag fixed at submission in both versions", async () => {
    const s = await createTestCheckin(A, { name: "Turns anonymous", owner: admin, members: [m0, m1] });
    const named = await post(v1Reports.POST, "/v1/reports/", m0.key, { standup_id: s.id, answers: { [s.questions[0].id]: "Before" } });
    expect(named.status).toBe(200);
    await db.checkin.update({ where: { id: s.id }, data: { is_anonymous: true } });
    const hidden = await post(v1Reports.POST, "/v1/reports/", m1.key, { standup_id: s.id, answers: { [s.questions[0].id]: "After" } });
    expect(hidden.status).toBe(200);
    const v1 = (await call(v1Reports.GET, { path: `/v1/reports/?standup_id=${s.id}`, key: admin.key })).body;
    const v2 = (await call(v2Reports.GET, { path: `/v2/reports?standup_id=${s.id}`, key: admin.key })).body.data;
    const v1ById = new Map(v1.map((r: { id: number }) => [r.id, r]));
    for (const r2 of v2 as Array<{ id: number; is_anonymous: boolean; user_id: string | null }>) {
      const r1 = v1ById.get(r2.id) as { is_anonymous: boolean; member?: { id: string } };
      expect(r1.is_anonymous).toBe(r2.is_anonymous);
      expect(r1.member?.id ?? null).toBe(r2.user_id);
    }
    expect(v2.find((r: { id: number }) => r.id === named.body.id)).toMatchObject({ is_anonymous: false, user_id: m0.chat_id });
    expect(v2.find((r: { id: number }) => r.id === hidden.body.id)).toMatchObject({ is_anonymous: true, user_id: null });
  });
});

describe("polls", () => {
  it("a poll created via v1 is read via v2 by its creator, and a v2 poll via v1", async () => {
    const v1Created = await post(v1Polls.POST, "/v1/polls", m0.key, {
      name: "v1 poll",
      channel: A.channels[0].name,
      question: "Tea?",
      choices: ["Yes", "No"],
      duration: 30,
    });
    expect(v1Created.status).toBe(200);
    const v2Read = await call(v2Poll.GET, {
      path: `/v2/polls/${v1Created.body.id}?include=questions`,
      key: m0.key,
      params: { pollId: String(v1Created.body.id) },
    });
    expect(v2Read.status).toBe(200);
    expect(v2Read.body.data).toMatchObject({ id: v1Created.body.id, name: "v1 poll", owner: m0.chat_id });
    expect(v2Read.body.data.questions[0].choices).toEqual(["Yes", "No"]);

    const v2Created = await post(v2Polls.POST, "/v2/polls", m1.key, {
      name: "v2 poll",
      question: "Coffee?",
      choices: ["Yes", "No"],
      broadcast_channel: A.channels[0].chat_id,
      duration: 15,
    });
    expect(v2Created.status).toBe(201);
    const v1Read = await call(v1Poll.GET, {
      path: `/v1/polls/${v2Created.body.data.id}`,
      key: m1.key,
      params: { id: String(v2Created.body.data.id) },
    });
    expect(v1Read.status).toBe(200);
    expect(v1Read.body).toMatchObject({ name: "v2 poll", creator: { id: m1.id }, recurrence: { type: "once" } });
    // Channel members take part in it, so they see it through v1 too.
    const listed = await call(v1Polls.GET, { path: "/v1/polls", key: m0.key });
    expect(listed.body.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([v1Created.body.id, v2Created.body.data.id]));
  });
});
