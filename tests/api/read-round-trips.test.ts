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

/**
 * The case "GET <template>": its path is `template` with `{id}` replaced by the value of the one
 * path parameter in `params` (none: the template is the path).
 */
const read = (handler: Handler, template: string, params?: Record<string, string>): Case => ({
  name: `GET ${template}`,
  handler,
  path: params ? template.replace("{id}", Object.values(params)[0]) : template,
  params,
});

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
    read(meRoute, "/v1/me"),
    read(reportsRoute, "/v2/reports?limit=100"),
    read(reportsRoute, "/v2/reports?view=summary"),
    read(reportRoute, "/v2/reports/{id}", { reportId: String(report) }),
    read(standupsRoute, "/v2/standups?include=questions,member_email"),
    read(standupRoute, "/v2/standups/{id}?include=questions", { standupId: s }),
    read(standupParticipationRoute, "/v2/standups/{id}/participation", { standupId: s }),
    read(pollsRoute, "/v2/polls?include=questions"),
    read(pollRoute, "/v2/polls/{id}", { pollId: p }),
    {
      name: "GET /v2/polls/{id}/votes (range)",
      handler: pollVotesRoute,
      path: `/v2/polls/${p}/votes?since=2026-11-01T00:00:00Z`,
      params: { pollId: p },
    },
    read(pollParticipationRoute, "/v2/polls/{id}/participation", { pollId: p }),
    read(v1ReportsRoute, "/v1/reports/?limit=100"),
    read(v1StandupsRoute, "/v1/standups/"),
    read(v1StandupRoute, "/v1/standups/{id}", { id: s }),
    read(v1PollVotesRoute, "/v1/polls/{id}/votes", { id: p }),
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
