/**
 * Issue 14, read path: every read endpoint answers in at most 2 SQL round trips, the API-key
 * lookup included, whatever the page size and `include`. With the key in the in-process cache
 * (lib/auth/api-key-cache.ts) the data must come in ONE statement; an uncached key adds its one
 * lookup. Counted with a query-logging shared Prisma client (tests/query-count.ts) over the real
 * route handlers and a real PostgreSQL, on a team with several reports, answers and votes so that
 * per-row or per-relation queries would show.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/v1/me/route";
import { GET as v1PollVotesRoute } from "@/app/v1/polls/[id]/votes/route";
import { GET as v1ReportsRoute } from "@/app/v1/reports/route";
import { GET as v1StandupRoute } from "@/app/v1/standups/[id]/route";
import { GET as v1StandupsRoute } from "@/app/v1/standups/route";
import { GET as pollParticipationRoute } from "@/app/v2/polls/[pollId]/participation/route";
import { GET as pollRoute } from "@/app/v2/polls/[pollId]/route";
import { GET as pollVotesRoute } from "@/app/v2/polls/[pollId]/votes/route";
import { GET as pollsRoute } from "@/app/v2/polls/route";
import { GET as reportRoute } from "@/app/v2/reports/[reportId]/route";
import { GET as reportsRoute } from "@/app/v2/reports/route";
import { GET as standupParticipationRoute } from "@/app/v2/standups/[standupId]/participation/route";
import { GET as standupRoute } from "@/app/v2/standups/[standupId]/route";
import { GET as standupsRoute } from "@/app/v2/standups/route";
import { db } from "@/lib/db";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { installQueryCounter } from "@/tests/query-count";

const queries = installQueryCounter();

type Handler = Parameters<typeof call>[0];
type Case = { name: string; handler: Handler; path: string; params?: Record<string, string> };

let A: TestTeam;
const cases: Case[] = [];

beforeAll(async () => {
  A = await createTestTeam({ members: 4 });
  const standup = await createTestCheckin(A, { name: "Round trips" });
  const poll = await createTestCheckin(A, {
    kind: "poll",
    name: "Round-trip poll",
    questions: [
      { text: "Pick", choices: ["a", "b"] },
      { text: "Why?", answer_type: "open_ended" },
    ],
  });
  const days = ["2026-11-16", "2026-11-17", "2026-11-18"];
  let report = 0;
  for (const [i, day] of days.entries()) {
    const occ = await createTestOccurrence(standup, day, A.users);
    const pollOcc = await createTestOccurrence(poll, day, A.users);
    for (const u of A.users) {
      const r = await createTestReport(standup, u, {
        occurrence_id: occ.id,
        submitted_at: new Date(Date.now() - (i * 10 + (u.id % 7)) * 60_000),
      });
      report = r.id;
      await db.vote.create({
        data: { team_id: A.id, occurrence_id: pollOcc.id, question_id: poll.questions[0].id, user_id: u.id, choice: "a" },
      });
      await db.vote.create({
        data: { team_id: A.id, occurrence_id: pollOcc.id, question_id: poll.questions[1].id, user_id: u.id, text: "because" },
      });
    }
  }
  const s = String(standup.id);
  const p = String(poll.id);
  cases.push(
    { name: "GET /v1/me", handler: meRoute, path: "/v1/me" },
    { name: "GET /v2/reports?limit=100", handler: reportsRoute, path: "/v2/reports?limit=100" },
    { name: "GET /v2/reports?view=summary", handler: reportsRoute, path: "/v2/reports?view=summary" },
    { name: "GET /v2/reports/{id}", handler: reportRoute, path: `/v2/reports/${report}`, params: { reportId: String(report) } },
    {
      name: "GET /v2/standups?include=questions,member_email",
      handler: standupsRoute,
      path: "/v2/standups?include=questions,member_email",
    },
    {
      name: "GET /v2/standups/{id}?include=questions",
      handler: standupRoute,
      path: `/v2/standups/${s}?include=questions`,
      params: { standupId: s },
    },
    {
      name: "GET /v2/standups/{id}/participation",
      handler: standupParticipationRoute,
      path: `/v2/standups/${s}/participation`,
      params: { standupId: s },
    },
    { name: "GET /v2/polls?include=questions", handler: pollsRoute, path: "/v2/polls?include=questions" },
    { name: "GET /v2/polls/{id}", handler: pollRoute, path: `/v2/polls/${p}`, params: { pollId: p } },
    {
      name: "GET /v2/polls/{id}/votes (range)",
      handler: pollVotesRoute,
      path: `/v2/polls/${p}/votes?since=2026-11-01T00:00:00Z`,
      params: { pollId: p },
    },
    {
      name: "GET /v2/polls/{id}/participation",
      handler: pollParticipationRoute,
      path: `/v2/polls/${p}/participation`,
      params: { pollId: p },
    },
    { name: "GET /v1/reports/?limit=100", handler: v1ReportsRoute, path: "/v1/reports/?limit=100" },
    { name: "GET /v1/standups/", handler: v1StandupsRoute, path: "/v1/standups/" },
    { name: "GET /v1/standups/{id}", handler: v1StandupRoute, path: `/v1/standups/${s}`, params: { id: s } },
    { name: "GET /v1/polls/{id}/votes", handler: v1PollVotesRoute, path: `/v1/polls/${p}/votes`, params: { id: p } },
  );
  // Warm the key cache: its LISTEN connection comes up on first use, the next lookup is kept.
  for (let i = 0; i < 2; i++) {
    await call(meRoute, { path: "/v1/me", key: A.admin.key });
    await new Promise((r) => setTimeout(r, 300));
  }
});

describe("read endpoints: SQL round trips per request", () => {
  it("one statement per request with the API key cached (two with the key lookup)", async () => {
    const counts: Record<string, number> = {};
    for (const c of cases) {
      let status = 0;
      counts[c.name] = await queries.during(async () => {
        status = (await call(c.handler, { path: c.path, key: A.admin.key, params: c.params })).status;
      });
      expect(status, c.name).toBe(200);
    }
    const over = Object.entries(counts).filter(([, n]) => n > 1);
    expect(over, JSON.stringify(counts)).toEqual([]);
  });
});
