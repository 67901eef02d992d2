/**
 * Size limits and range checks of issue 13, in-process against the real test database:
 * - request bodies over API_BODY_LIMIT_BYTES (1 MB) → 413 in the version's error shape, checked on
 *   Content-Length and while streaming (a chunked body without a length);
 * - per-field limits (lib/domain/limits.ts) → 400 INVALID_PARAMETER naming the field;
 * - dates at or before year 1 (and out-of-range Unix seconds) → 400, never a SQL range error.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as v1Reports from "@/app/v1/reports/route";
import * as v1Standups from "@/app/v1/standups/route";
import * as polls from "@/app/v2/polls/route";
import * as reports from "@/app/v2/reports/route";
import * as standups from "@/app/v2/standups/route";
import { LIMITS } from "@/lib/domain/limits";
import { createTestCheckin, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

type Handler = Parameters<typeof call>[0];
const MB = 1_048_576;

let A: TestTeam;
let standup: Awaited<ReturnType<typeof createTestCheckin>>;

beforeAll(async () => {
  A = await createTestTeam({ members: 2 });
  standup = await createTestCheckin(A, { members: A.users });
});

/** A JSON report body padded with spaces to exactly `bytes` bytes. */
function paddedReportBody(bytes: number): string {
  const json = JSON.stringify({ standup_id: standup.id, answers: standup.questions.map((q) => ({ question_id: q.id, text: "x" })) });
  return json + " ".repeat(bytes - Buffer.byteLength(json));
}

/** Sends `body` as a stream of 64 KiB chunks, without Content-Length. */
async function postStreamed(handler: Handler, path: string, body: string, key: string) {
  const bytes = Buffer.from(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 65_536) controller.enqueue(bytes.subarray(i, i + 65_536));
      controller.close();
    },
  });
  const request = new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { authorization: key, "content-type": "application/json" },
    body: stream,
    duplex: "half",
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve({}) });
  return { status: response.status, body: await response.json() };
}

describe("request body cap (413)", () => {
  it("exactly 1 MB is read; 1 MB + 1 byte is 413 PAYLOAD_TOO_LARGE (v2), by Content-Length", async () => {
    const ok = await call(reports.POST as Handler, {
      method: "POST",
      path: "/v2/reports",
      key: A.users[1].key,
      rawBody: paddedReportBody(MB),
      headers: { "content-type": "application/json" },
    });
    expect(ok.status).toBe(200);
    const big = await call(reports.POST as Handler, {
      method: "POST",
      path: "/v2/reports",
      key: A.users[2].key,
      rawBody: paddedReportBody(MB + 1),
      headers: { "content-type": "application/json", "content-length": String(MB + 1) },
    });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("1048576 bytes") } });
  });

  it("a chunked body without Content-Length is counted while streaming", async () => {
    const r = await postStreamed(reports.POST as Handler, "/v2/reports", paddedReportBody(MB + 1), A.users[2].key);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("a body the client stops sending (connection closed) is a 400, not a 503 'database unavailable'", async () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" }); // what Node's request stream raises
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(Buffer.from('{"standup_id": '));
        controller.error(aborted);
      },
    });
    const request = new Request("http://localhost/v2/reports", {
      method: "POST",
      headers: { authorization: A.users[2].key, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const response = await (reports.POST as Handler)(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "INVALID_PARAMETER", message: expect.stringContaining("not received completely") },
    });
  });

  it("v1 answers 413 with its own error shape", async () => {
    const r = await postStreamed(v1Reports.POST as Handler, "/v1/reports/", paddedReportBody(3 * MB), A.users[2].key);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: expect.stringContaining("larger than") });
  });
});

describe("per-field limits (400 naming the field)", () => {
  const expect400 = (r: { status: number; body: { error?: { code?: string; message?: string } } }, field: string) => {
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe("INVALID_PARAMETER");
    expect(r.body.error?.message).toContain(field);
  };

  it(`answer text: ${LIMITS.answerText} characters pass, one more is 400 answers.N.text`, async () => {
    const answers = (len: number) => standup.questions.map((q) => ({ question_id: q.id, text: "y".repeat(len) }));
    const long = await call(reports.POST as Handler, {
      method: "POST",
      path: "/v2/reports",
      key: A.admin.key,
      body: { standup_id: standup.id, answers: answers(LIMITS.answerText + 1) },
    });
    expect400(long, "answers.0.text");
    const max = await call(reports.POST as Handler, {
      method: "POST",
      path: "/v2/reports",
      key: A.admin.key,
      body: { standup_id: standup.id, answers: answers(LIMITS.answerText) },
    });
    expect(max.status).toBe(200);
  });

  it("standup name, question count, choice count and user count", async () => {
    const base = { questions: [{ text: "Q?" }], days: ["Mon"], time: "09:00", broadcast_channel: A.channels[0].chat_id };
    const post = (body: unknown) => call(standups.POST as Handler, { method: "POST", path: "/v2/standups", key: A.admin.key, body });
    expect400(await post({ ...base, name: "n".repeat(LIMITS.name + 1) }), "name");
    expect400(await post({ ...base, questions: Array.from({ length: LIMITS.questions + 1 }, (_, i) => ({ text: `Q${i}` })) }), "questions");
    expect400(
      await post({ ...base, questions: [{ text: "Pick", choices: Array.from({ length: LIMITS.choices + 1 }, (_, i) => `c${i}`) }] }),
      "questions.0.choices",
    );
    expect400(await post({ ...base, users: Array.from({ length: LIMITS.users + 1 }, (_, i) => `U${i}`) }), "users");
  });

  it("poll choices and v1 answers", async () => {
    const poll = await call(polls.POST as Handler, {
      method: "POST",
      path: "/v2/polls",
      key: A.admin.key,
      body: {
        name: "P",
        question: "Q",
        choices: Array.from({ length: LIMITS.choices + 1 }, (_, i) => `c${i}`),
        broadcast_channel: A.channels[0].chat_id,
      },
    });
    expect400(poll, "choices");
    const v1 = await call(v1Reports.POST as Handler, {
      method: "POST",
      path: "/v1/reports/",
      key: A.users[1].key,
      body: { standup_id: standup.id, answers: { [standup.questions[0].id]: "z".repeat(LIMITS.answerText + 1) } },
    });
    expect(v1.status).toBe(400);
    expect(v1.body.error).toContain("answers");
    const v1Standup = await call(v1Standups.POST as Handler, {
      method: "POST",
      path: "/v1/standups/",
      key: A.admin.key,
      body: {
        name: "S",
        channel: A.channels[0].chat_id,
        time: "09:00",
        timezone: "UTC",
        days: ["Mon"],
        users: Array(LIMITS.users + 1).fill(1),
      },
    });
    expect(v1Standup.status).toBe(400);
    expect(v1Standup.body.error).toContain("users");
  });
});

describe("date range (400, never a database range error)", () => {
  it.each([
    ["/v2/reports?until=0001-01-01T00:00:00Z", reports.GET],
    ["/v2/reports?since=0001-01-01", reports.GET],
    ["/v2/standups?created_since=0001-01-01T00:00:00%2B14:00", standups.GET],
    ["/v2/standups?created_until=0000-12-31T23:00:00-14:00", standups.GET],
  ])("%s", async (path, handler) => {
    const r = await call(handler as Handler, { path, key: A.admin.key });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("INVALID_PARAMETER");
  });

  it("v1 before/after far outside the range", async () => {
    for (const q of ["before=-62135596801", "after=-62135596801", "before=253402300800"]) {
      const r = await call(v1Reports.GET as Handler, { path: `/v1/reports/?${q}`, key: A.admin.key });
      expect({ q, status: r.status }).toEqual({ q, status: 400 });
      expect(r.body.error).toMatch(/out of range/);
    }
  });
});
