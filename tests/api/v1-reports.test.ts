/**
 * GET /v1/reports/ and POST /v1/reports/ (spec §4.3, §2.8; compatibility.md) against the real
 * test database: limit, filters, tolerant query parsing (float timestamps, the three forms of
 * question_ids, user_id as chat or numeric id, user_ids), html rendering, anonymity, visibility,
 * and the create form with its errors.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as reports from "@/app/v1/reports/route";
import { db } from "@/lib/db";
import { createTestCheckin, createTestReport, type StandardTeams, standardTeams } from "@/tests/fixtures";
import { call } from "@/tests/http";

let { A, B, admin, m0, m1, m2, m3 } = {} as StandardTeams;
let daily: Awaited<ReturnType<typeof createTestCheckin>>;
let bulk: Awaited<ReturnType<typeof createTestCheckin>>;
let anon: Awaited<ReturnType<typeof createTestCheckin>>;
let secret: Awaited<ReturnType<typeof createTestCheckin>>;

const T0 = 1704067200; // 2024-01-01T00:00:00Z
const at = (seconds: number) => new Date((T0 + seconds) * 1000);
const list = (key: string | undefined, qs = "", bearer = false) =>
  call(reports.GET, { path: `/v1/reports/${qs ? `?${qs}` : ""}`, key, bearer });
const post = (key: string, body: unknown) => call(reports.POST, { method: "POST", path: "/v1/reports/", key, body });
const ids = (body: Array<{ id: number }>) => body.map((r) => r.id);

const r: Record<string, { id: number; answers: Array<{ id: number; question_id: number }> }> = {};

beforeAll(async () => {
  ({ A, B, admin, m0, m1, m2, m3 } = await standardTeams({ members: 4 }));
  daily = await createTestCheckin(A, { name: "Daily", owner: admin, members: [admin, m0, m1, m2] });
  bulk = await createTestCheckin(A, { name: "Bulk", owner: m3, members: [m3], questions: [{ text: "Q?" }] });
  anon = await createTestCheckin(A, { name: "Anon", owner: admin, members: [admin, m0, m1], is_anonymous: true, channel: A.channels[1] });
  secret = await createTestCheckin(A, { name: "Secret", owner: m1, members: [m0, m1], is_confidential: true });
  r.d1 = await createTestReport(daily, m0, {
    submitted_at: at(100),
    answers: ["Did **bold** work\nsecond line <script>alert(1)</script>", "See [docs](https://example.com/docs)", "none"],
  });
  r.d2 = await createTestReport(daily, m1, { submitted_at: at(200) });
  r.d3 = await createTestReport(daily, m0, { submitted_at: at(300) });
  r.pending = await createTestReport(daily, m2, { status: "pending" });
  r.discarded = await createTestReport(daily, m2, { status: "discarded", submitted_at: at(250) });
  r.a1 = await createTestReport(anon, m1, { submitted_at: at(150), is_anonymous: true });
  r.s1 = await createTestReport(secret, m0, { submitted_at: at(120) });
  for (let i = 0; i < 35; i++) await createTestReport(bulk, m3, { submitted_at: at(1000 + i) });
  await createTestReport(await createTestCheckin(B, { owner: B.admin, members: B.users }), B.admin, { submitted_at: at(50) });
});

describe("GET /v1/reports/ basics", () => {
  it("needs a key (raw or Bearer)", async () => {
    expect((await list(undefined)).status).toBe(401);
    expect((await list(m0.key, `standup_id=${daily.id}`, true)).status).toBe(200);
  });
  it("lists visible submitted reports newest first with the v1 list-item shape", async () => {
    const res = await list(m0.key, `standup_id=${daily.id}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([r.d3.id, r.d2.id, r.d1.id]);
    const item = res.body[2];
    expect(item).toMatchObject({
      id: r.d1.id,
      standup_id: daily.id,
      timestamp: T0 + 100,
      channel: A.channels[0].name,
      is_anonymous: false,
      broadcast_thread: false,
      is_confidential: false,
      chat_ts: null,
      slack_ts: null,
    });
    expect(Number.isInteger(item.timestamp)).toBe(true);
    expect(item.member).toMatchObject({ id: m0.chat_id, username: m0.username, realname: m0.realname });
    expect(typeof item.member.profileImg.image_192).toBe("string");
    expect(item.questions).toHaveLength(3);
    expect(item.questions[0]).toMatchObject({
      id: r.d1.answers[0].id,
      question_id: daily.questions[0].id,
      question: daily.questions[0].text,
      color: "EEEEEE",
      images: [],
    });
    expect(item.questions[0].answer).toContain("<script>");
  });
  it("applies the default limit of 30 and accepts limits up to 100; anything else is 400", async () => {
    const all = await list(m3.key);
    expect(all.body).toHaveLength(30);
    expect(all.body[0].timestamp).toBe(T0 + 1034);
    expect((await list(m3.key, "limit=5")).body).toHaveLength(5);
    expect((await list(m3.key, "limit=100")).body).toHaveLength(35);
    for (const bad of ["101", "0", "-1", "abc", "2.5"]) {
      const res = await list(m3.key, `limit=${bad}`);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe("string");
    }
  });
  it("hides pending, discarded, other teams' and confidential reports of others", async () => {
    const everything = ids((await list(m0.key, "limit=100")).body);
    expect(everything).not.toContain(r.pending.id);
    expect(everything).not.toContain(r.discarded.id);
    expect(everything).not.toContain(r.s1.id); // m0 is a member but not the creator of the confidential standup
    expect(ids((await list(m1.key, `standup_id=${secret.id}`)).body)).toEqual([r.s1.id]);
    expect((await list(B.admin.key, `standup_id=${daily.id}`)).body).toEqual([]);
  });
});

describe("GET /v1/reports/ filters and tolerant parsing", () => {
  it("filters by standup_id and rejects a non-numeric one", async () => {
    // a1 is anonymous and alone in its occurrence: below the anonymity threshold (issue 45) for all but its author.
    expect(ids((await list(m1.key, `standup_id=${anon.id}`)).body)).toEqual([r.a1.id]);
    expect(ids((await list(admin.key, `standup_id=${anon.id}`)).body)).toEqual([]);
    expect((await list(admin.key, "standup_id=abc")).status).toBe(400);
  });
  it("filters by user_id as chat id or numeric id, and by user_ids (CSV or repeated)", async () => {
    const byChat = await list(admin.key, `user_id=${m0.chat_id}&standup_id=${daily.id}`);
    expect(ids(byChat.body)).toEqual([r.d3.id, r.d1.id]);
    const byNum = await list(admin.key, `user_id=${m0.id}&standup_id=${daily.id}`);
    expect(ids(byNum.body)).toEqual([r.d3.id, r.d1.id]);
    const csv = await list(admin.key, `user_ids=${m0.chat_id},${m1.id}&standup_id=${daily.id}`);
    expect(ids(csv.body)).toEqual([r.d3.id, r.d2.id, r.d1.id]);
    const repeated = await list(admin.key, `user_ids[]=${m1.chat_id}&user_ids[]=${m0.chat_id}&standup_id=${daily.id}`);
    expect(ids(repeated.body)).toEqual([r.d3.id, r.d2.id, r.d1.id]);
    expect((await list(admin.key, "user_id=UNKNOWN1")).body).toEqual([]);
  });
  it("answers 400, not 500, for numeric user ids beyond the integer range", async () => {
    for (const q of ["user_id=9999999999", "user_id=2147483648", "user_ids=1,99999999999"]) {
      const res = await list(admin.key, q);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe("string");
    }
  });
  it("takes after/before as Unix seconds, integer or float", async () => {
    const q = `standup_id=${daily.id}`;
    expect(ids((await list(m0.key, `${q}&after=${T0 + 150}`)).body)).toEqual([r.d3.id, r.d2.id]);
    expect(ids((await list(m0.key, `${q}&after=${T0 + 150}.0`)).body)).toEqual([r.d3.id, r.d2.id]);
    expect(ids((await list(m0.key, `${q}&before=${T0 + 250}.5`)).body)).toEqual([r.d2.id, r.d1.id]);
    expect(ids((await list(m0.key, `${q}&after=${T0 + 100}.5&before=${T0 + 299.9}`)).body)).toEqual([r.d2.id]);
    expect((await list(m0.key, `${q}&after=yesterday`)).status).toBe(400);
  });
  it("filters the questions of each report by question_ids in all three forms", async () => {
    const [q0, q1, q2] = daily.questions.map((q) => q.id);
    const expectQuestions = async (qs: string, expected: number[]) => {
      const res = await list(m0.key, `standup_id=${daily.id}&${qs}`);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(3);
      for (const item of res.body) expect(item.questions.map((a: { question_id: number }) => a.question_id)).toEqual(expected);
    };
    await expectQuestions(`question_ids=${q0},${q2}`, [q0, q2]);
    await expectQuestions(`question_ids=${q1}&question_ids=${q2}`, [q1, q2]);
    await expectQuestions(`question_ids[]=${q0}&question_ids[]=${q1}`, [q0, q1]);
    await expectQuestions(`question_ids%5B%5D=${q2}`, [q2]);
    // The indexed form some HTTP libraries write (question_ids[0]=…&question_ids[1]=…).
    await expectQuestions(`question_ids[0]=${q0}&question_ids%5B1%5D=${q2}`, [q0, q2]);
    // A key that merely starts the same way is not the filter.
    await expectQuestions(`question_ids_x=${q0}&question_ids[a]=${q0}&question_ids=${q1}`, [q1]);
    expect((await list(m0.key, "question_ids=a,b")).status).toBe(400);
  });
  it("renders answers as sanitized HTML with html=true (or 1): emphasis, line breaks and links kept, scripts stripped", async () => {
    for (const flag of ["true", "1"]) {
      const res = await list(m0.key, `standup_id=${daily.id}&html=${flag}`);
      const item = res.body.find((x: { id: number }) => x.id === r.d1.id);
      const first = item.questions[0].answer as string;
      expect(first).toContain("<strong>bold</strong>");
      expect(first).toContain("<br />");
      expect(first).not.toContain("<script");
      expect(first).not.toContain("alert(1)");
      expect(item.questions[1].answer).toContain('<a href="https://example.com/docs"');
    }
    const plain = await list(m0.key, `standup_id=${daily.id}&html=false`);
    expect(plain.body.find((x: { id: number }) => x.id === r.d1.id).questions[0].answer).toContain("**bold**");
    expect((await list(m0.key, "html=maybe")).status).toBe(400);
  });
  it("omits member for anonymous reports and never reveals them through another user's id", async () => {
    const res = await list(m1.key, `standup_id=${anon.id}`); // its author (others: below the anonymity threshold)
    expect(res.body[0].is_anonymous).toBe(true);
    expect(res.body[0]).not.toHaveProperty("member");
    expect(res.body[0].channel).toBe(A.channels[1].name);
    expect((await list(admin.key, `standup_id=${anon.id}&user_id=${m1.chat_id}`)).body).toEqual([]);
    expect(ids((await list(m1.key, `standup_id=${anon.id}&user_id=${m1.chat_id}`)).body)).toEqual([r.a1.id]);
  });
});

describe("POST /v1/reports/", () => {
  it("submits with standup_id as a string and answers keyed by question id ({text} or a plain string)", async () => {
    const s = await createTestCheckin(A, { name: "Submit", owner: admin, members: [m0, m1] });
    const res = await post(m0.key, {
      standup_id: String(s.id),
      answers: {
        [String(s.questions[0].id)]: { text: "Yesterday" },
        [String(s.questions[1].id)]: "Today",
        [String(s.questions[2].id)]: { text: "" },
      },
    });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ standup_id: s.id, channel: A.channels[0].name, is_anonymous: false });
    expect(body.member).toMatchObject({ id: m0.chat_id, role: "member", username: m0.username, realname: m0.realname });
    expect(typeof body.member.profileImg).toBe("object");
    expect(body.done_at).toBeGreaterThan(0);
    expect(body.timestamp).toBe(body.done_at);
    expect(typeof body.started_at).toBe("number");
    expect(typeof body.chat_ts).toBe("string");
    expect(body.slack_ts).toBe(body.chat_ts);
    expect(typeof body.broadcasted_at).toBe("string");
    expect(body.answers.map((a: { question_id: number; answer: string }) => [a.question_id, a.answer])).toEqual([
      [s.questions[0].id, "Yesterday"],
      [s.questions[1].id, "Today"],
      [s.questions[2].id, ""],
    ]);
    const row = await db.report.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({ status: "submitted", user_id: m0.id, checkin_id: s.id });
    const message = await db.chatMessage.findFirstOrThrow({ where: { report_id: body.id, kind: "report" } });
    expect(message.ts).toBe(body.chat_ts);
    const listed = await list(m1.key, `standup_id=${s.id}`);
    expect(listed.body[0]).toMatchObject({ id: body.id, chat_ts: body.chat_ts, slack_ts: body.chat_ts });
  });
  it("always includes member (with role), done_at > 0 and channel in the create response, even for an anonymous standup", async () => {
    const s = await createTestCheckin(A, { name: "Anon submit", owner: admin, members: [m0], is_anonymous: true, channel: A.channels[1] });
    const res = await post(m0.key, { standup_id: s.id, answers: { [s.questions[0].id]: { text: "Quietly" } } });
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ id: m0.chat_id, role: "member", username: m0.username });
    expect(res.body.is_anonymous).toBe(true);
    expect(res.body.done_at).toBeGreaterThan(0);
    expect(Number.isInteger(res.body.done_at)).toBe(true);
    expect(res.body.channel).toBe(A.channels[1].name);
    expect(Number.isInteger(res.body.answers[0].question_id)).toBe(true);
    // …while the list hides the author of the same report.
    const listed = (await list(m0.key, `standup_id=${s.id}`)).body; // its author: alone, below the anonymity threshold for others
    expect(listed[0].id).toBe(res.body.id);
    expect(listed[0]).not.toHaveProperty("member");
  });
  it("lets the creator submit without being a participant, and accepts a subset of the questions", async () => {
    const s = await createTestCheckin(A, { owner: m2, members: [m0] });
    const res = await post(m2.key, { standup_id: s.id, answers: { [s.questions[1].id]: { text: "Only this" } } });
    expect(res.status).toBe(200);
    expect(res.body.answers).toHaveLength(1);
  });
  it("answers 400 for invalid bodies and question ids of another standup", async () => {
    const s = await createTestCheckin(A, { owner: admin, members: [m0] });
    const q = String(s.questions[0].id);
    expect((await post(m0.key, { answers: { [q]: "x" } })).status).toBe(400);
    expect((await post(m0.key, { standup_id: "abc", answers: { [q]: "x" } })).status).toBe(400);
    expect((await post(m0.key, { standup_id: s.id })).status).toBe(400);
    expect((await post(m0.key, { standup_id: s.id, answers: ["x"] })).status).toBe(400);
    expect((await post(m0.key, { standup_id: s.id, answers: {} })).status).toBe(400);
    expect((await post(m0.key, { standup_id: s.id, answers: { foo: "x" } })).status).toBe(400);
    expect((await post(m0.key, { standup_id: s.id, answers: { [q]: { nope: 1 } } })).status).toBe(400);
    expect((await post(m0.key, { standup_id: s.id, answers: { [daily.questions[0].id]: "x" } })).status).toBe(400);
    // Missing fields and non-object bodies name the problem.
    expect((await post(m0.key, { answers: { [q]: "x" } })).body).toEqual({ error: "standup_id: required" });
    expect((await post(m0.key, { standup_id: s.id, answers: null })).body).toEqual({ error: "answers: required" });
    expect((await post(m0.key, [])).body).toEqual({ error: "Request body must be a JSON object" });
    const raw = await call(reports.POST, { method: "POST", path: "/v1/reports/", key: m0.key, rawBody: "not json" });
    expect(raw.status).toBe(400);
    expect(typeof raw.body.error).toBe("string");
  });
  it("answers 404 when the standup is missing, not active, a poll, of another team, or the caller is not a participant", async () => {
    const paused = await createTestCheckin(A, { owner: admin, members: [m0], state: "paused" });
    const poll = await createTestCheckin(A, { kind: "poll", owner: admin, members: [m0] });
    const notMine = await createTestCheckin(A, { owner: admin, members: [m1] });
    const foreign = await createTestCheckin(B, { owner: B.admin, members: B.users });
    for (const s of [paused, poll, notMine, foreign]) {
      const res = await post(m0.key, { standup_id: s.id, answers: { [s.questions[0].id]: "x" } });
      expect(res.status).toBe(404);
    }
    expect((await post(m0.key, { standup_id: 2147480000, answers: { "1": "x" } })).status).toBe(404);
  });
});
