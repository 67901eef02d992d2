/**
 * Robustness of the current (v2) API against hostile or odd input (conformance audit): every bad
 * input is a 400 or 404 with the spec's code (§7), never a 500. Also: reports of draft/archived
 * standups cannot be edited or discarded (not visible, §3), and far-future date bounds work.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as pollPart from "@/app/v2/polls/[pollId]/participation/route";
import * as pollOne from "@/app/v2/polls/[pollId]/route";
import * as pollVotes from "@/app/v2/polls/[pollId]/votes/route";
import * as polls from "@/app/v2/polls/route";
import * as reportOne from "@/app/v2/reports/[reportId]/route";
import * as reportWrite from "@/app/v2/reports/[reportId]/route";
import * as reportPost from "@/app/v2/reports/route";
import * as reports from "@/app/v2/reports/route";
import * as standupPart from "@/app/v2/standups/[standupId]/participation/route";
import * as standupOne from "@/app/v2/standups/[standupId]/route";
import * as standups from "@/app/v2/standups/route";
import { db } from "@/lib/db";
import { utcCeilDay, utcDay } from "@/lib/domain/participation";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

type Handler = Parameters<typeof call>[0];

type Checkin = Awaited<ReturnType<typeof createTestCheckin>>;

let A: TestTeam;
let standup: Checkin;
let poll: Checkin;

beforeAll(async () => {
  A = await createTestTeam({ members: 2 });
  standup = await createTestCheckin(A, { name: "Robust" });
  poll = await createTestCheckin(A, { kind: "poll", name: "Robust poll", questions: [{ text: "Q", choices: ["a", "b"] }] });
  await createTestOccurrence(standup, "2026-01-05", A.users);
  await createTestOccurrence(poll, "2026-01-05", A.users);
});

const expectError = (r: { status: number; body: { error?: { code?: string } } | null }, status: number, code: string, what: string) => {
  expect({ what, status: r.status, code: r.body?.error?.code }).toEqual({ what, status, code });
};

describe("query strings", () => {
  it("a NUL character in any query value is 400 INVALID_PARAMETER, not a database error", async () => {
    const key = A.admin.key;
    const cases: Array<[string, Handler, string, Record<string, string>]> = [
      ["standups broadcast_channel", standups.GET, "/v2/standups?broadcast_channel=C1%00", {}],
      ["polls broadcast_channel", polls.GET, "/v2/polls?broadcast_channel=%00", {}],
      ["reports user_id", reports.GET, "/v2/reports?user_id=U1%00", {}],
      ["reports view", reports.GET, "/v2/reports?view=full%00", {}],
      ["participation since", standupPart.GET, `/v2/standups/${standup.id}/participation?since=%00`, { standupId: String(standup.id) }],
    ];
    for (const [what, handler, path, params] of cases)
      expectError(await call(handler, { path, key, params }), 400, "INVALID_PARAMETER", what);
  });

  it("far-future or far-past date bounds are served (no date overflow inside SQL)", async () => {
    const key = A.admin.key;
    const far = "9999-12-31T23:00:00Z";
    const sp = await call(standupPart.GET, {
      path: `/v2/standups/${standup.id}/participation?until=${far}`,
      key,
      params: { standupId: String(standup.id) },
    });
    expect(sp.status).toBe(200);
    expect(sp.body.data.map((e: { date: string }) => e.date)).toEqual(["2026-01-05"]);
    const pp = await call(pollPart.GET, {
      path: `/v2/polls/${poll.id}/participation?until=${far}`,
      key,
      params: { pollId: String(poll.id) },
    });
    expect(pp.status).toBe(200);
    expect(pp.body.data).toHaveLength(1);
    const votes = await call(pollVotes.GET, { path: `/v2/polls/${poll.id}/votes?until=${far}`, key, params: { pollId: String(poll.id) } });
    expect(votes.status).toBe(200);
    expect(votes.body.data.instances).toHaveLength(1);
    const old = await call(standupPart.GET, {
      path: `/v2/standups/${standup.id}/participation?since=0050-06-01T12:00:00Z&until=0050-06-02T00:00:00Z`,
      key,
      params: { standupId: String(standup.id) },
    });
    expect(old.status).toBe(200);
    expect(old.body.data).toEqual([]);
  });

  it("utcDay / utcCeilDay keep years below 100 and above 9999 exact", () => {
    expect(utcDay(new Date("0050-06-01T12:00:00Z"))).toBe("0050-06-01");
    expect(utcCeilDay(new Date("0050-06-01T12:00:00Z"))).toBe("0050-06-02");
    expect(utcCeilDay(new Date("0050-06-01T00:00:00Z"))).toBe("0050-06-01");
    expect(utcCeilDay(new Date("9999-12-31T23:00:00Z"))).toBe("10000-01-01");
  });

  it("huge, fractional, exponent or signed limits are 400", async () => {
    for (const limit of ["1000000000000000000000", "1e3", "+5", "-0", " 5", "5.0"]) {
      expectError(
        await call(standups.GET, { path: `/v2/standups?limit=${encodeURIComponent(limit)}`, key: A.admin.key }),
        400,
        "INVALID_PARAMETER",
        limit,
      );
    }
  });
});

describe("path ids", () => {
  it("ids like 1e3, -1, 0x10, 0, oversized or unicode are 404 NOT_FOUND on every {id} route", async () => {
    const key = A.admin.key;
    for (const id of ["1e3", "-1", "0x10", "0", "99999999999", "2147483648", "😀", "1 ", "１"]) {
      const routes: Array<[string, Handler, Record<string, string>, string]> = [
        ["standup", standupOne.GET, { standupId: id }, "GET"],
        ["standup participation", standupPart.GET, { standupId: id }, "GET"],
        ["poll", pollOne.GET, { pollId: id }, "GET"],
        ["poll participation", pollPart.GET, { pollId: id }, "GET"],
        ["poll votes", pollVotes.GET, { pollId: id }, "GET"],
        ["report", reportOne.GET, { reportId: id }, "GET"],
        ["report delete", reportWrite.DELETE, { reportId: id }, "DELETE"],
      ];
      for (const [what, handler, params, method] of routes) {
        expectError(await call(handler, { method, path: "/v2/x", key, params }), 404, "NOT_FOUND", `${what} ${id}`);
      }
      const patch = await call(reportWrite.PATCH, {
        method: "PATCH",
        path: "/v2/x",
        key,
        params: { reportId: id },
        body: { answers: [{ question_id: standup.questions[0].id, text: "x" }] },
      });
      expectError(patch, 404, "NOT_FOUND", `report patch ${id}`);
    }
  });
});

describe("JSON bodies", () => {
  const post = (handler: Handler, path: string, body: unknown, rawBody?: string, headers?: Record<string, string>) =>
    call(handler, { method: "POST", path, key: A.admin.key, body: rawBody === undefined ? body : undefined, rawBody, headers });

  it("null, arrays, strings, numbers, empty and non-JSON bodies are 400 INVALID_PARAMETER", async () => {
    for (const [handler, path] of [
      [standups.POST, "/v2/standups"],
      [polls.POST, "/v2/polls"],
      [reportPost.POST, "/v2/reports"],
    ] as const) {
      for (const raw of ["null", "[]", '"x"', "42", "true", "", "   ", "a=b&c=d", "{", '{"a":1}}']) {
        expectError(await post(handler, path, undefined, raw), 400, "INVALID_PARAMETER", `${path} ${raw}`);
      }
    }
  });

  it("a NUL character anywhere in a body is 400 INVALID_PARAMETER, not a database error", async () => {
    const ch = A.channels[0].chat_id;
    const st = { questions: [{ text: "Q" }], days: ["Mon"], time: "09:00", broadcast_channel: ch };
    const pl = { name: "P", question: "Q", choices: ["a", "b"], broadcast_channel: ch };
    const answers = standup.questions.map((q) => ({ question_id: q.id, text: "t" }));
    const cases: Array<[Handler, string, unknown]> = [
      [standups.POST, "/v2/standups", { ...st, name: "a\u0000b" }],
      [standups.POST, "/v2/standups", { ...st, broadcast_channel: "\u0000" }],
      [standups.POST, "/v2/standups", { ...st, sync_channel: "x\u0000" }],
      [standups.POST, "/v2/standups", { ...st, users: ["U\u0000"] }],
      [standups.POST, "/v2/standups", { ...st, questions: [{ text: "q", choices: ["a\u0000", "b"] }] }],
      [polls.POST, "/v2/polls", { ...pl, name: "\u0000" }],
      [polls.POST, "/v2/polls", { ...pl, broadcast_channel: "#\u0000" }],
      [reportPost.POST, "/v2/reports", { standup_id: standup.id, answers: answers.map((a) => ({ ...a, text: "x\u0000" })) }],
      [reportPost.POST, "/v2/reports", { standup_id: standup.id, answers, "k\u0000": 1 }],
    ];
    for (const [handler, path, body] of cases) expectError(await post(handler, path, body), 400, "INVALID_PARAMETER", JSON.stringify(body));
    const before = await db.checkin.count({ where: { team_id: A.id } });
    expect(before).toBe(2);
  });

  it("deeply nested bodies are 400, not a stack overflow", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const raw = `{"x":${deep},"standup_id":${standup.id},"answers":[]}`;
    expectError(await post(reportPost.POST, "/v2/reports", undefined, raw), 400, "INVALID_PARAMETER", "deep");
    expectError(
      await post(reportPost.POST, "/v2/reports", undefined, raw, { "idempotency-key": "deep-1" }),
      400,
      "INVALID_PARAMETER",
      "deep with key",
    );
  });

  it("a JSON body is read whatever the Content-Type says", async () => {
    const r = await call(polls.POST, {
      method: "POST",
      path: "/v2/polls",
      key: A.admin.key,
      rawBody: JSON.stringify({ name: "Typed", question: "Q?", choices: ["a", "b"], broadcast_channel: A.channels[0].chat_id }),
      headers: { "content-type": "text/plain" },
    });
    expect(r.status).toBe(201);
    await db.checkin.update({ where: { id: r.body.data.id }, data: { state: "archived" } });
  });

  it("arrays or objects where strings or numbers are expected are 400 INVALID_PARAMETER", async () => {
    const ch = A.channels[0].chat_id;
    const answers = standup.questions.map((q) => ({ question_id: q.id, text: "t" }));
    const cases: Array<[Handler, string, unknown]> = [
      [standups.POST, "/v2/standups", { questions: [{ text: "Q" }], days: ["Mon"], time: ["09:00"], broadcast_channel: ch }],
      [standups.POST, "/v2/standups", { questions: [{ text: "Q" }], days: ["Mon"], time: "09:00", broadcast_channel: [ch] }],
      [standups.POST, "/v2/standups", { questions: [{ text: "Q" }], days: [["Mon"]], time: "09:00", broadcast_channel: ch }],
      [standups.POST, "/v2/standups", { questions: [{ text: "Q" }], days: ["Mon"], time: "09:00", broadcast_channel: ch, name: ["n"] }],
      [standups.POST, "/v2/standups", { questions: [{ text: "Q" }], days: ["Mon"], time: "09:00", broadcast_channel: ch, timezone: {} }],
      [polls.POST, "/v2/polls", { name: ["P"], question: "Q", choices: ["a", "b"], broadcast_channel: ch }],
      [polls.POST, "/v2/polls", { name: "P", question: "Q", choices: [["a"], "b"], broadcast_channel: ch }],
      [reportPost.POST, "/v2/reports", { standup_id: [standup.id], answers }],
      [reportPost.POST, "/v2/reports", { standup_id: String(standup.id), answers }],
      [reportPost.POST, "/v2/reports", { standup_id: standup.id, answers: answers.map((a) => ({ ...a, question_id: [a.question_id] })) }],
      [reportPost.POST, "/v2/reports", { standup_id: standup.id, answers: answers.map((a) => ({ ...a, text: ["t"] })) }],
    ];
    for (const [handler, path, body] of cases) expectError(await post(handler, path, body), 400, "INVALID_PARAMETER", JSON.stringify(body));
  });

  it("numeric ids beyond the id range: unknown user is 400 USER_NOT_FOUND, unknown standup is 404 NOT_FOUND", async () => {
    const ch = A.channels[0].chat_id;
    const users = await post(standups.POST, "/v2/standups", {
      questions: [{ text: "Q" }],
      days: ["Mon"],
      time: "09:00",
      broadcast_channel: ch,
      users: [99_999_999_999],
    });
    expectError(users, 400, "USER_NOT_FOUND", "users");
    const answers = standup.questions.map((q) => ({ question_id: q.id, text: "t" }));
    expectError(await post(reportPost.POST, "/v2/reports", { standup_id: 99_999_999_999, answers }), 404, "NOT_FOUND", "standup_id");
    // Beyond Number.MAX_SAFE_INTEGER a JSON number is no exact integer: an invalid field.
    expectError(await post(reportPost.POST, "/v2/reports", { standup_id: 1e300, answers }), 400, "INVALID_PARAMETER", "standup_id 1e300");
  });
});

describe("PATCH and DELETE /v2/reports/{id} on reports that are not visible (spec §3, §7)", () => {
  /** PATCH /v2/reports/{reportId} with `key`: the first answer (first question of `standup`) becomes "edited". */
  const editFirstAnswer = (key: string, reportId: number, standup: Checkin) =>
    call(reportWrite.PATCH, {
      method: "PATCH",
      path: "/v2/x",
      key,
      params: { reportId: String(reportId) },
      body: { answers: [{ question_id: standup.questions[0].id, text: "edited" }] },
    });
  /** DELETE /v2/reports/{reportId} with `key`. */
  const discard = (key: string, reportId: number) =>
    call(reportWrite.DELETE, { method: "DELETE", path: "/v2/x", key, params: { reportId: String(reportId) } });

  it("the author's report of a draft or archived standup is 404 for GET, PATCH and DELETE, and stays unchanged", async () => {
    const author = A.users[1];
    for (const state of ["draft", "archived"] as const) {
      const s = await createTestCheckin(A, { name: `Hidden ${state}`, members: [author] });
      const report = await createTestReport(s, author);
      await db.checkin.update({ where: { id: s.id }, data: { state } });
      const params = { reportId: String(report.id) };
      expectError(await call(reportOne.GET, { path: "/v2/x", key: author.key, params }), 404, "NOT_FOUND", `GET ${state}`);
      expectError(await editFirstAnswer(author.key, report.id, s), 404, "NOT_FOUND", `PATCH ${state}`);
      expectError(await discard(author.key, report.id), 404, "NOT_FOUND", `DELETE ${state}`);
      const row = await db.report.findUniqueOrThrow({
        where: { id: report.id },
        include: { answers: { orderBy: { question_id: "asc" } } },
      });
      expect(row.status).toBe("submitted");
      expect(row.answers[0].text).toBe("Answer 1");
    }
  });

  it("the author may still edit and discard a report of a paused standup (readable by its author)", async () => {
    const author = A.users[2];
    const s = await createTestCheckin(A, { name: "Paused later", members: [author] });
    const report = await createTestReport(s, author);
    await db.checkin.update({ where: { id: s.id }, data: { state: "paused" } });
    const patch = await editFirstAnswer(author.key, report.id, s);
    expect(patch.status).toBe(200);
    expect(patch.body.data.answers[0].answer).toBe("edited");
    const del = await discard(author.key, report.id);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
  });
});

describe("methods a v2 path does not serve", () => {
  it("answer 405 with the structured v2 error body and Allow (spec §7), not Next's bodiless 405", async () => {
    const cases: Array<[string, Handler | undefined, string]> = [
      ["PUT /v2/standups", (standups as Record<string, unknown>).PUT as Handler, "GET, POST, OPTIONS"],
      ["DELETE /v2/standups/{id}", (standupOne as Record<string, unknown>).DELETE as Handler, "GET, OPTIONS"],
      ["POST /v2/reports/{id}", (reportOne as Record<string, unknown>).POST as Handler, "GET, PATCH, DELETE, OPTIONS"],
      ["PATCH /v2/polls", (polls as Record<string, unknown>).PATCH as Handler, "GET, POST, OPTIONS"],
      ["PUT /v2/polls/{id}/votes", (pollVotes as Record<string, unknown>).PUT as Handler, "GET, POST, OPTIONS"],
    ];
    for (const [what, handler, allow] of cases) {
      expect(handler, what).toBeTypeOf("function");
      const r = await call(handler as Handler, { method: what.split(" ")[0], path: "/v2/x", key: A.admin.key });
      expect({ what, status: r.status, body: r.body, allow: r.headers.get("allow") }).toEqual({
        what,
        status: 405,
        body: { error: { code: "METHOD_NOT_ALLOWED", message: expect.any(String) } },
        allow,
      });
    }
  });
});
