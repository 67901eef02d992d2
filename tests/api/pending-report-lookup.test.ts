/**
 * Issue 14, write path: every submission looks for the member's pending report in an occurrence
 * (lib/domain/report-submission.ts `readSubmissionContext`, and the write's guard). The partial
 * index reports_pending_occurrence_id_user_id_idx (migration 20261124180000) finds it among the
 * pending reports alone, so the lookup reads the same few rows however many reports the member
 * has in that occurrence, and whatever the planner's statistics say.
 *
 * The case it is for, checked here against a real PostgreSQL in a database of its own (the test
 * sets the table's statistics): statistics taken while 15% of the reports were pending (members
 * who missed a day) and before today's ad-hoc occurrence existed, then a burst of 3,000 ad-hoc reports of one member (an
 * integration posting, or `npm run bench`'s POST runs) before autovacuum analyzes again. Through
 * (occurrence_id, user_id) the planner then visited all 3,000 on each submission.
 */
import type pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { POST as v2Submit } from "@/app/v2/reports/route";
import { explain } from "@/lib/bench/explain";
import { WEEKDAYS } from "@/lib/domain/constants";
import { createTestCheckin, createTestOccurrence, createTestReport, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { usePlanTestDatabase } from "@/tests/isolated-db";
import type { QueryCounter } from "@/tests/query-count";

let T: TestTeam;
let other: pg.Client;
let queries: QueryCounter;

beforeAll(async () => {
  ({ T, other, queries } = await usePlanTestDatabase("pending", 3));
});

afterAll(async () => {
  await other?.end();
});

it("finds the member's pending report without visiting their 3,000 other reports in the occurrence", async () => {
  const [, ann, bob, cy] = T.users;
  // A daily standup's last 40 occurrences: cy answered every one, ann missed every fourth and bob
  // every fifth (their reports stay pending), so 15% of all reports are pending.
  const daily = await createTestCheckin(T, { name: "Daily", members: [ann, bob, cy] });
  for (let day = 1; day <= 40; day++) {
    const date = new Date(Date.now() - day * 86_400_000).toISOString().slice(0, 10);
    const occurrence = await createTestOccurrence(daily, date, [ann, bob, cy]);
    for (const [user, every] of [
      [ann, 4],
      [bob, 5],
      [cy, 0],
    ] as const) {
      const status = every && day % every === 0 ? "pending" : "submitted";
      await createTestReport(daily, user, { status, occurrence_id: occurrence.id });
    }
  }
  await other.query("ANALYZE reports");

  // A standup that does not run today: each report goes into today's ad-hoc occurrence.
  const adhoc = await createTestCheckin(T, { name: "Ad hoc", members: [cy], days: [WEEKDAYS[(new Date().getUTCDay() + 3) % 7]] });
  const answers = adhoc.questions.map((q) => ({ question_id: q.id, text: "posted again" }));
  const submit = () => call(v2Submit, { method: "POST", path: "/v2/reports", key: cy.key, body: { standup_id: adhoc.id, answers } });
  // Today's ad-hoc occurrence as submissions wrote it before issue 41 (they now write ad-hoc
  // reports without an occurrence; the old occurrences stay, and the context read still probes them).
  const legacy = await createTestOccurrence(adhoc, new Date().toISOString().slice(0, 10), []);
  await other.query("UPDATE occurrences SET trigger = 'adhoc' WHERE id = $1", [legacy.id]);
  const first = { body: { data: await createTestReport(adhoc, cy, { occurrence_id: legacy.id }) } };
  await other.query(
    `INSERT INTO reports (team_id, checkin_id, occurrence_id, user_id, status, started_at, submitted_at, created_at, updated_at)
     SELECT r.team_id, r.checkin_id, r.occurrence_id, r.user_id, 'submitted', now(), now() - make_interval(secs => g), now(), now()
     FROM reports r, generate_series(1, 3000) g WHERE r.id = $1`,
    [first.body.data.id],
  );

  let res: Awaited<ReturnType<typeof submit>> | undefined;
  const sent = await queries.capture(async () => {
    res = await submit();
  });
  expect(res?.status).toBe(200);
  const read = sent.find((q) => q.query.includes("AS nearby"));
  if (!read) throw new Error("the submission sent no context read");
  // As the server runs it once its plan is cached (generic), and as planned for its values. (The
  // write cannot run a second time, its message ts is unique; its guard is the same lookup.)
  for (const plan of [await explain(other, read, { generic: true }), await explain(other, read)]) {
    expect(plan.reportsAccess.length, plan.text).toBeGreaterThan(0);
    expect(plan.reportsRowsVisited, plan.text).toBeLessThanOrEqual(10);
  }
});
