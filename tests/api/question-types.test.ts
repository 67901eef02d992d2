/**
 * Question types (issue 41 item 12) through the real API and database: a standup with a question
 * of each type created by POST /v2/standups, read back by GET /v2/standups/{id} (extension
 * `answer_type` values, `optional`, `scale`) and by v1 (nearest v1 types), answered by POST
 * /v2/reports (canonical stored texts, optional questions skipped), bad answers refused with 400
 * INVALID_PARAMETER naming the question, and v1 PUT keeping the types of kept questions.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as v1One from "@/app/v1/standups/[id]/route";
import { GET as getReportRoute, PATCH as patchReportRoute } from "@/app/v2/reports/[reportId]/route";
import { POST as postReportRoute } from "@/app/v2/reports/route";
import { GET as getStandupRoute } from "@/app/v2/standups/[standupId]/route";
import { POST as postStandupRoute } from "@/app/v2/standups/route";
import { db } from "@/lib/db";
import { openAnswerLink, submitWithAnswerLink } from "@/lib/domain/answer-links";
import { createAnswerToken } from "@/lib/domain/answer-token";
import { getParticipationReport } from "@/lib/domain/participation-report";
import { authSecret } from "@/lib/env";
import { createTestOccurrence, type StandardTeams, standardTeams } from "@/tests/fixtures";
import { call } from "@/tests/http";

const EVERY_DAY = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const LABELS = ["Awful", "Bad", "Okay", "Good", "Great"];

const postStandup = (key: string, body: unknown) => call(postStandupRoute, { method: "POST", path: "/v2/standups", key, body });
const getStandup = (key: string, id: number) =>
  call(getStandupRoute, { path: `/v2/standups/${id}?include=questions`, key, params: { standupId: String(id) } });
const postReport = (key: string, body: unknown) => call(postReportRoute, { method: "POST", path: "/v2/reports", key, body });
const patchReport = (key: string, id: number, body: unknown) =>
  call(patchReportRoute, { method: "PATCH", path: `/v2/reports/${id}`, key, body, params: { reportId: String(id) } });
const getReport = (key: string, id: number) => call(getReportRoute, { path: `/v2/reports/${id}`, key, params: { reportId: String(id) } });
const v1Get = (key: string, id: number) => call(v1One.GET, { path: `/v1/standups/${id}`, key, params: { id: String(id) } });
const v1Put = (key: string, id: number, body: unknown) =>
  call(v1One.PUT, { method: "PUT", path: `/v1/standups/${id}`, key, body, params: { id: String(id) } });

let { A, admin, m0, m1 } = {} as StandardTeams;

/** The questions of the typed standup, in order. */
const QUESTIONS = [
  { text: "What did you do?" },
  { text: "Mood today?", answer_type: "rating", scale: { min: 1, max: 5, labels: LABELS } },
  { text: "Hours focused?", answer_type: "number" },
  { text: "Which areas?", answer_type: "multi_select", choices: ["Planning", "Review", "Testing"] },
  { text: "Where?", choices: ["Office", "Home"] },
  { text: "Anything else?", optional: true },
];

async function createTyped(name: string) {
  const r = await postStandup(admin.key, {
    name,
    questions: QUESTIONS,
    days: EVERY_DAY,
    time: "09:00",
    broadcast_channel: A.channels[0].chat_id,
    users: [m0.chat_id, m1.chat_id],
  });
  expect(r.status).toBe(201);
  return r.body.data as { id: number };
}

async function questionIds(standupId: number): Promise<number[]> {
  const rows = await db.question.findMany({ where: { checkin_id: standupId, archived_at: null }, orderBy: { position: "asc" } });
  return rows.map((q) => q.id);
}

beforeAll(async () => {
  ({ A, admin, m0, m1 } = await standardTeams({ members: 3 }));
});

describe("question types: v2 standups", () => {
  it("creates a question of each type and reads it back with extension answer_type values, optional and scale", async () => {
    const standup = await createTyped("Typed");
    const r = await getStandup(m0.key, standup.id);
    expect(r.status).toBe(200);
    const ids = await questionIds(standup.id);
    expect(r.body.data.questions).toEqual([
      { id: ids[0], text: "What did you do?", position: 0, answer_type: "text", choices: [] },
      { id: ids[1], text: "Mood today?", position: 1, answer_type: "rating", choices: [], scale: { min: 1, max: 5, labels: LABELS } },
      { id: ids[2], text: "Hours focused?", position: 2, answer_type: "number", choices: [] },
      { id: ids[3], text: "Which areas?", position: 3, answer_type: "multi_select", choices: ["Planning", "Review", "Testing"] },
      { id: ids[4], text: "Where?", position: 4, answer_type: "multiple_choice", choices: ["Office", "Home"] },
      { id: ids[5], text: "Anything else?", position: 5, answer_type: "text", choices: [], optional: true },
    ]);
  });

  it("refuses bad question types with 400 INVALID_PARAMETER naming the field", async () => {
    const body = (question: unknown) => ({
      questions: [question],
      days: ["Mon"],
      time: "09:00",
      broadcast_channel: A.channels[0].chat_id,
    });
    const cases: Array<[unknown, string]> = [
      [{ text: "Q", answer_type: "slider" }, "answer_type"],
      [{ text: "Q", answer_type: "rating", scale: { min: 1, max: 5, labels: ["a", "b"] } }, "questions.0.scale.labels"],
      [{ text: "Q", answer_type: "rating", scale: { min: 3, max: 3 } }, "questions.0.scale.max"],
      [{ text: "Q", answer_type: "rating", scale: { min: 1, max: 20 } }, "questions.0.scale.max"],
      [{ text: "Q", answer_type: "multi_select", choices: ["only one"] }, "questions.0.choices"],
      [{ text: "Q", answer_type: "multiple_choice" }, "questions.0.choices"],
    ];
    for (const [question, field] of cases) {
      const r = await postStandup(admin.key, body(question));
      expect(r.status, JSON.stringify(question)).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
      expect(r.body.error.message).toContain(field);
    }
  });
});

describe("question types: answers through /v2/reports", () => {
  it("stores canonical texts (rating number, number, multi-select choices joined by newlines in choice order) and skips optional questions", async () => {
    const standup = await createTyped("Answered");
    const [did, mood, hours, areas, where] = await questionIds(standup.id);
    const r = await postReport(m0.key, {
      standup_id: standup.id,
      answers: [
        { question_id: did, text: "Shipped it" },
        { question_id: mood, text: " 4 " },
        { question_id: hours, text: "3.50" },
        { question_id: areas, text: "Testing\nPlanning" },
        { question_id: where, text: "Home" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.answers.map((a: { answer: string }) => a.answer)).toEqual(["Shipped it", "4", "3.5", "Planning\nTesting", "Home"]);
    const read = await getReport(m0.key, r.body.data.id);
    expect(read.body.data.answers.map((a: { answer: string }) => a.answer)).toEqual([
      "Shipped it",
      "4",
      "3.5",
      "Planning\nTesting",
      "Home",
    ]);
    const stored = await db.answer.findMany({ where: { report_id: r.body.data.id }, orderBy: { question_id: "asc" } });
    expect(stored.map((a) => a.text)).toEqual(["Shipped it", "4", "3.5", "Planning\nTesting", "Home"]);

    // A rating may also be given by its label; an optional question answered blank is "nothing to report".
    const edit = await patchReport(m0.key, r.body.data.id, {
      answers: [
        { question_id: mood, text: "great" },
        { question_id: (await questionIds(standup.id))[5], text: "" },
      ],
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data.answers.map((a: { answer: string }) => a.answer)).toEqual([
      "Shipped it",
      "5",
      "3.5",
      "Planning\nTesting",
      "Home",
      "",
    ]);
  });

  it("refuses bad answers with 400 INVALID_PARAMETER naming the question, and a missing required question", async () => {
    const standup = await createTyped("Refused");
    const [did, mood, hours, areas, where] = await questionIds(standup.id);
    const good = { [did]: "x", [mood]: "3", [hours]: "2", [areas]: "Review", [where]: "Office" };
    const submit = (over: Record<number, string | undefined>) =>
      postReport(m1.key, {
        standup_id: standup.id,
        answers: Object.entries({ ...good, ...over })
          .filter(([, text]) => text !== undefined)
          .map(([id, text]) => ({ question_id: Number(id), text })),
      });
    const cases: Array<[Record<number, string | undefined>, number, string]> = [
      [{ [mood]: "6" }, mood, "whole number from 1 to 5"],
      [{ [mood]: "3.5" }, mood, "whole number from 1 to 5"],
      [{ [mood]: "" }, mood, "is required"],
      [{ [hours]: "12abc" }, hours, "must be a number"],
      [{ [hours]: "Infinity" }, hours, "must be a number"],
      [{ [areas]: "Review\nCooking" }, areas, '"Cooking"'],
      [{ [areas]: "\n" }, areas, "is required"],
      [{ [where]: "Garden" }, where, "one of its choices"],
      [{ [mood]: undefined }, mood, "is required"],
    ];
    for (const [over, questionId, message] of cases) {
      const r = await submit(over);
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
      expect(r.body.error.message).toContain(`question_id ${questionId}`);
      expect(r.body.error.message).toContain(message);
    }
    expect(await db.report.count({ where: { checkin_id: standup.id, status: "submitted" } })).toBe(0);
    expect((await submit({})).status).toBe(200);
  });
});

describe("question types: v1 keeps its shapes", () => {
  it("shows rating and multi-select as multiple_choice and number as text; a v1 PUT of the same texts keeps the types", async () => {
    const standup = await createTyped("V1 view");
    const r = await v1Get(admin.key, standup.id);
    expect(r.status).toBe(200);
    const types = r.body.questions.map((q: { answer_type: string; answer_choices: string[] }) => [q.answer_type, q.answer_choices]);
    expect(types).toEqual([
      ["text", []],
      ["multiple_choice", ["1", "2", "3", "4", "5"]],
      ["text", []],
      ["multiple_choice", ["Planning", "Review", "Testing"]],
      ["multiple_choice", ["Office", "Home"]],
      ["text", []],
    ]);
    // A v1 client writes back what it read (texts and choices, no types).
    const put = await v1Put(admin.key, standup.id, {
      name: "V1 view",
      channel: A.channels[0].chat_id,
      time: "09:00:00",
      timezone: "UTC",
      days: EVERY_DAY,
      users: [m0.id, m1.id],
      questions: r.body.questions.map((q: { text: string; answer_choices: string[] }) => ({
        question: q.text,
        ...(q.answer_choices.length ? { answer_choices: q.answer_choices } : {}),
      })),
    });
    expect(put.status).toBe(200);
    const after = await db.question.findMany({ where: { checkin_id: standup.id, archived_at: null }, orderBy: { position: "asc" } });
    expect(after.map((q) => [q.answer_type, q.optional, q.scale_min, q.scale_max])).toEqual([
      ["text", false, null, null],
      ["rating", false, 1, 5],
      ["number", false, null, null],
      ["multi_select", false, null, null],
      ["multiple_choice", false, null, null],
      ["text", true, null, null],
    ]);
  });
});

describe("question types: Participation trends", () => {
  it("counts ratings per scale point (labelled, with the week's average) and multi-select picks per choice", async () => {
    const standup = await createTyped("Charted");
    const [did, mood, hours, areas, where] = await questionIds(standup.id);
    for (const [who, rating, picked] of [
      [m0, "4", "Planning\nTesting"],
      [m1, "2", "Testing"],
    ] as const) {
      const r = await postReport(who.key, {
        standup_id: standup.id,
        answers: [
          { question_id: did, text: "x" },
          { question_id: mood, text: rating },
          { question_id: hours, text: "1" },
          { question_id: areas, text: picked },
          { question_id: where, text: "Home" },
        ],
      });
      expect(r.status).toBe(200);
    }
    const day = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const until = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const report = await getParticipationReport(admin.actor, { since: from, until, today: day, standupId: standup.id });
    const rating = report.choiceTrends.find((t) => t.questionId === mood);
    expect(rating?.answerType).toBe("rating");
    expect(rating?.choices).toEqual(["1 – Awful", "2 – Bad", "3 – Okay", "4 – Good", "5 – Great"]);
    const ratedWeeks = rating?.weeks.filter((w) => w.total > 0) ?? [];
    expect(ratedWeeks.reduce((n, w) => n + w.total, 0)).toBe(2);
    expect(Object.assign({}, ...ratedWeeks.map((w) => w.counts))).toEqual({ "4 – Good": 1, "2 – Bad": 1 });
    if (ratedWeeks.length === 1) expect(ratedWeeks[0].average).toBe(3);
    const multi = report.choiceTrends.find((t) => t.questionId === areas);
    expect(multi?.answerType).toBe("multi_select");
    const picks = (multi?.weeks ?? []).reduce<Record<string, number>>((acc, w) => {
      for (const [k, v] of Object.entries(w.counts)) acc[k] = (acc[k] ?? 0) + v;
      return acc;
    }, {});
    expect(picks).toEqual({ Planning: 1, Testing: 2 });
  });
});

describe("question types: the e-mailed answer link", () => {
  it("opens a form with each question's type, optional flag and rating scale, and submits typed answers", async () => {
    const standup = await createTyped("By e-mail");
    const ids = await questionIds(standup.id);
    const occurrence = await createTestOccurrence({ id: standup.id, team_id: A.id }, new Date().toISOString().slice(0, 10), [m1]);
    const token = createAnswerToken(authSecret(), {
      occurrenceId: occurrence.id,
      userId: m1.id,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const view = await openAnswerLink(token);
    expect(view?.questions.map((q) => [q.answerType, q.optional, q.scale.map((p) => p.label).join("|")])).toEqual([
      ["text", false, ""],
      ["rating", false, "1 – Awful|2 – Bad|3 – Okay|4 – Good|5 – Great"],
      ["number", false, ""],
      ["multi_select", false, ""],
      ["multiple_choice", false, ""],
      ["text", true, ""],
    ]);
    const answers = (rating: string) => [
      { questionId: ids[0], text: "Mailed" },
      { questionId: ids[1], text: rating },
      { questionId: ids[2], text: "8" },
      { questionId: ids[3], text: "Review" },
      { questionId: ids[4], text: "Office" },
    ];
    await expect(submitWithAnswerLink(token, answers("9"))).rejects.toThrow(/whole number from 1 to 5/);
    const { reportId } = await submitWithAnswerLink(token, answers("Okay"));
    const stored = await db.answer.findMany({ where: { report_id: reportId }, orderBy: { question_id: "asc" } });
    expect(stored.map((a) => a.text)).toEqual(["Mailed", "3", "8", "Review", "Office"]);
  });
});
