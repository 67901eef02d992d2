/**
 * Occurrence summaries against the real test database: the offline digest (blockers from the
 * blocker question and blocker phrases, who is blocked, themes, mood, participation), anonymous
 * standups never attributing text (also towards the model), the model's overview with fallback,
 * and GET /v2/standups/{id}/summaries (list envelope, newest first, cursor, 400/404/405).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as summariesPost, GET as summariesRoute } from "@/app/v2/standups/[standupId]/summaries/route";
import type { SummarySections } from "@/lib/categorize/summary";
import { db } from "@/lib/db";
import { buildOccurrenceSummary } from "@/lib/domain/summaries";
import { type FakeOpenAi, startFakeOpenAi } from "@/tests/fakes/openai";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, createTestUser, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

const QUESTIONS = [
  { text: "What did you do yesterday?" },
  { text: "Anything blocking you?" },
  { text: "How do you feel?", answer_type: "multiple_choice" as const, choices: ["Great", "OK", "Tired"] },
];

let team: TestTeam;
let fake: FakeOpenAi;

beforeAll(async () => {
  team = await createTestTeam({ members: 4 });
  fake = await startFakeOpenAi();
});

afterAll(async () => {
  await fake.close();
});

async function standupWithReports(opts: { anonymous?: boolean; dates: string[] }) {
  const standup = await createTestCheckin(team, { is_anonymous: opts.anonymous ?? false, questions: QUESTIONS });
  const occurrences = [];
  for (const date of opts.dates) {
    const occurrence = await createTestOccurrence(standup, date, team.users);
    await db.occurrenceMember.updateMany({ where: { occurrence_id: occurrence.id }, data: { asked_at: new Date(`${date}T09:00:00Z`) } });
    const [u0, u1, u2] = team.users;
    await createTestReport(standup, u0, {
      occurrence_id: occurrence.id,
      answers: ["Worked on code review for the billing service", "Waiting on the platform team for database access", "Tired"],
    });
    await createTestReport(standup, u1, { occurrence_id: occurrence.id, answers: ["More code review and a billing fix", "No", "Great"] });
    await createTestReport(standup, u2, {
      occurrence_id: occurrence.id,
      answers: ["Stuck on the flaky deploy pipeline all day", "none", "Great"],
    });
    occurrences.push(occurrence);
  }
  return { standup, occurrences };
}

const list = (key: string, id: number | string, qs = "") =>
  call(summariesRoute, { path: `/v2/standups/${id}/summaries${qs ? `?${qs}` : ""}`, key, params: { standupId: String(id) } });

describe("offline summary", () => {
  it("lists blockers with who is blocked, themes, mood and participation", async () => {
    const { occurrences } = await standupWithReports({ dates: ["2026-10-05"] });
    expect(await buildOccurrenceSummary(occurrences[0].id, null)).toEqual({ engine: "offline" });
    const summary = await db.occurrenceSummary.findFirstOrThrow({ where: { occurrence_id: occurrences[0].id } });
    const s = summary.sections as SummarySections;
    const [u0, , u2] = team.users;
    expect(s.participation).toEqual({ responded: 3, expected: 5 });
    expect(s.blockers).toEqual([
      {
        user_id: u0.chat_id,
        name: u0.realname,
        question: "Anything blocking you?",
        text: "Waiting on the platform team for database access",
      },
      {
        user_id: u2.chat_id,
        name: u2.realname,
        question: "What did you do yesterday?",
        text: "Stuck on the flaky deploy pipeline all day",
      },
    ]);
    expect(s.blocked_members.map((m: { user_id: string }) => m.user_id).sort()).toEqual([u0.chat_id, u2.chat_id].sort());
    expect(s.themes).toEqual([{ name: "Code review", count: 2 }]);
    expect(s.mood).toEqual([
      {
        question: "How do you feel?",
        choices: [
          { text: "Great", count: 2 },
          { text: "Tired", count: 1 },
        ],
      },
    ]);
    expect(summary.text).toContain("Blockers (2):");
    expect(summary.text).toContain(`${u0.realname}: Waiting on the platform team`);
  });

  it("never attributes anonymous answers, and the model receives no names", async () => {
    const { occurrences } = await standupWithReports({ anonymous: true, dates: ["2026-10-06", "2026-10-07"] });
    await buildOccurrenceSummary(occurrences[0].id, null);
    const offline = await db.occurrenceSummary.findFirstOrThrow({ where: { occurrence_id: occurrences[0].id } });
    const s = offline.sections as SummarySections;
    expect(s.blockers).toHaveLength(2);
    expect(s.blockers.every((b: { user_id: unknown; name: unknown }) => b.user_id === null && b.name === null)).toBe(true);
    expect(s.blocked_members).toEqual([]);
    for (const u of team.users) expect(offline.text).not.toContain(u.realname);

    fake.requests.length = 0;
    fake.respond = () => ({
      content: {
        overview: "Billing work moved on; two people are blocked.",
        blockers: [{ person: null, text: "Database access" }],
        themes: [{ name: "Billing", count: 2 }],
      },
    });
    const llm = { baseUrl: fake.baseUrl, model: "fake-model", timeoutMs: 2000 };
    expect(await buildOccurrenceSummary(occurrences[1].id, llm)).toEqual({ engine: "model:fake-model" });
    const sent = JSON.stringify(fake.requests[0].body);
    for (const u of team.users) for (const identity of [u.realname, u.chat_id, u.email, u.username]) expect(sent).not.toContain(identity);
    const withModel = await db.occurrenceSummary.findFirstOrThrow({ where: { occurrence_id: occurrences[1].id } });
    expect((withModel.sections as SummarySections).overview).toBe("Billing work moved on; two people are blocked.");
    expect((withModel.sections as SummarySections).mood).toEqual(s.mood);
    expect(withModel.text).toContain("Billing work moved on");
  });

  it("posts a recent occurrence's summary once to the standup's channel as the daily digest, never old history", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { standup, occurrences } = await standupWithReports({ dates: [today, "2026-01-05"] });
    await buildOccurrenceSummary(occurrences[0].id, null);
    await buildOccurrenceSummary(occurrences[0].id, null);
    await buildOccurrenceSummary(occurrences[1].id, null);
    const digests = await db.chatMessage.findMany({ where: { checkin_id: standup.id, kind: "digest" } });
    expect(digests).toHaveLength(1);
    expect(digests[0]).toMatchObject({
      occurrence_id: occurrences[0].id,
      channel_id: standup.broadcast_channel_id,
      delivery_state: "pending",
    });
    expect(digests[0].text).toMatch(/^Daily digest: /);
    expect(digests[0].text).toContain("Blockers (2):");
  });

  it("falls back to the offline digest when the model fails", async () => {
    const { occurrences } = await standupWithReports({ dates: ["2026-10-08"] });
    fake.respond = () => ({ status: 503, body: "overloaded" });
    expect(await buildOccurrenceSummary(occurrences[0].id, { baseUrl: fake.baseUrl, model: "fake-model", timeoutMs: 2000 })).toEqual({
      engine: "offline",
    });
  });
});

describe("GET /v2/standups/{id}/summaries", () => {
  it("lists summaries newest first with a working cursor, and hides other people's standups", async () => {
    const { standup, occurrences } = await standupWithReports({ dates: ["2026-09-01", "2026-09-02", "2026-09-03"] });
    for (const o of occurrences) await buildOccurrenceSummary(o.id, null);
    const admin = team.admin;
    const first = await list(admin.key, standup.id, "limit=2");
    expect(first.status).toBe(200);
    expect(first.body.data.map((s: { date: string }) => s.date)).toEqual(["2026-09-03", "2026-09-02"]);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data[0]).toMatchObject({ standup_id: standup.id, occurrence_id: occurrences[2].id, engine: "offline" });
    expect(first.body.data[0].sections.participation).toEqual({ responded: 3, expected: 5 });
    const second = await list(admin.key, standup.id, `limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.data.map((s: { date: string }) => s.date)).toEqual(["2026-09-01"]);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });

    const other = await createTestTeam({ members: 1 });
    expect((await list(other.admin.key, standup.id)).status).toBe(404);
    const outsider = await createTestUser(team.id);
    expect((await list(outsider.key, standup.id)).status).toBe(404);
    const bad = await list(admin.key, standup.id, "cursor=garbage");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_PARAMETER");
    expect((await list(admin.key, standup.id, "limit=0")).status).toBe(400);
    expect((await call(summariesPost, { method: "POST", path: `/v2/standups/${standup.id}/summaries`, key: admin.key })).status).toBe(405);
    expect((await list(admin.key, "abc")).status).toBe(404);
  });
});
