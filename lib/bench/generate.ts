/**
 * Bulk data for `npm run bench:data` (scripts/bench-data.ts): a large, realistic team generated
 * with plain SQL (generate_series), fast enough to build ~500k reports on a 2-core machine.
 *
 * Shape (BENCH_REPORTS scales the history length, everything else is fixed):
 * - team 1 ("Bench Corp"): 500 users; 50 standups of 3 questions and 25 members each (user 1,
 *   "the lead", is a member of every standup and owns 5 of them; users 2..500 are in ~2.4
 *   standups); standup 44/45 anonymous, 46 confidential (owned by user 7), 47 archived, 48 draft,
 *   49/50 paused; one weekly poll (2 questions, 200 members) with votes; one daily standup of 100
 *   members (users 1..100) with an occurrence on each of the last 365 days;
 * - team 2 ("Other Co"): 50 users, 5 standups of 20 members (so tenant scoping matters), plus
 *   3,000 standups without history so checkins/questions are not toy-sized tables;
 * - one occurrence per standup per weekday over the history (member snapshot = the standup's
 *   members), ~80% of the asked members report (3 answers each), minus vacations (~8 per user per
 *   2 years), ~2% pending and ~1% discarded; report ids grow with time, as a serial would.
 *
 * Generation runs with foreign-key triggers off (session_replication_role = replica) and the
 * secondary indexes of the big tables dropped and re-created afterwards (their exact definitions
 * are read from pg_indexes first), then VACUUM (ANALYZE).
 * With `large: true` the rows are those of lib/bench/generate-large.ts (1,000 people, 100 standups,
 * 10 polls, two years of runs) in the same frame.
 */
import type pg from "pg";
import { LARGE, largeTeamSteps, type Step } from "@/lib/bench/generate-large";

export const TEAM_A = 1;
export const TEAM_B = 2;
export const USERS_A = 500;
export const USERS_B = 50;
export const STANDUPS_A = 50;
export const STANDUPS_B = 5;
export const POLL_ID = STANDUPS_A + STANDUPS_B + 1;
/** A daily team-A standup of 100 members with 365 occurrences (the participation figure of issue 14). */
export const BIG_STANDUP_ID = POLL_ID + 1;
export const BIG_STANDUP_MEMBERS = 100;
export const BIG_STANDUP_DAYS = 365;
/** Extra standups of team 2 without history (realistic table sizes for checkins/questions). */
export const OTHER_CHECKINS = 3000;
/** Reports per weekday over all team-A standups, roughly: 46 standups with occurrences × 25 × ~0.8. */
const REPORTS_PER_WEEKDAY = 960;

/** The user ids of team A used by the benchmark. */
export const LEAD_USER_ID = 1;
export const MEMBER_USER_ID = 2;
/** A team-A user in no standup (not counted in USERS_A). */
export const NEWCOMER_USER_ID = 600;

export type GenerationResult = { days: number; counts: Record<string, number>; seconds: Record<string, number> };

const WORDS = [
  "Reviewed the pull request for the billing export",
  "Paired with Sam on the flaky integration test",
  "Shipped the new onboarding emails",
  "Investigated slow queries on the reports page",
  "Planning session for next sprint",
  "Nothing blocking right now",
  "Waiting on design feedback for the settings screen",
  "Wrote the migration for the audit log table",
  "Customer call about SSO; follow-up tomorrow",
  "Fixed a timezone bug in the scheduler",
  "Updated the runbook after yesterday's incident",
  "Blocked by the staging database being down",
];

/**
 * Generates the data set; `reports` is the target number of team-A reports (history length follows).
 * `large` (default off; `npm run bench:dashboard`): the large team of lib/bench/generate-large.ts
 * instead (two years of history whatever `reports` says; `reports` sets the response rate).
 */
export async function generateBenchData(
  client: pg.Client,
  opts: { reports: number; log: (l: string) => void; large?: boolean },
): Promise<GenerationResult> {
  const weekdays = Math.max(20, Math.round(opts.reports / REPORTS_PER_WEEKDAY));
  const days = opts.large ? LARGE.days : Math.round((weekdays * 7) / 5);
  const seconds: Record<string, number> = {};
  const step: Step = async (name, sql, params = []) => {
    const t = performance.now();
    const r = await client.query(sql, params);
    seconds[name] = (seconds[name] ?? 0) + (performance.now() - t) / 1000;
    return r;
  };

  await client.query("SET session_replication_role = replica"); // no FK triggers while bulk loading
  await client.query("SET maintenance_work_mem = '512MB'");
  await client.query("SET work_mem = '128MB'");
  await client.query("SELECT setseed(0.42)");

  // Secondary indexes of the big tables: drop now, re-create (same definitions) after the load.
  // Kept: indexes a constraint owns or depends on (primary keys, and the (team_id, id) unique
  // indexes that the composite foreign keys reference).
  const big = [
    "reports",
    "answers",
    "occurrence_members",
    "occurrences",
    "votes",
    ...(opts.large ? ["chat_messages", "audit_entries"] : []),
  ];
  const { rows: idx } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname OR c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
    [big],
  );
  for (const i of idx) await client.query(`DROP INDEX "${i.indexname}"`);

  if (opts.large) await largeTeamSteps(step, opts.reports, WORDS);
  else await standardSteps(step, days);

  for (const i of idx) await step("re-create indexes", i.indexdef);
  await client.query("SET session_replication_role = DEFAULT");
  await step("vacuum analyze", "VACUUM (ANALYZE)");

  const counts: Record<string, number> = {};
  for (const t of [
    "teams",
    "users",
    "checkins",
    "checkin_members",
    "occurrences",
    "occurrence_members",
    "reports",
    "answers",
    "absences",
    "votes",
    ...(opts.large ? ["chat_messages", "audit_entries"] : []),
  ]) {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`);
    counts[t] = Number(rows[0].n);
  }
  const { rows: sub } = await client.query<{ team_id: number; n: string }>(
    `SELECT team_id, count(*) AS n FROM reports WHERE status = 'submitted' GROUP BY team_id ORDER BY team_id`,
  );
  for (const r of sub) counts[`submitted reports team ${r.team_id}`] = Number(r.n);
  if (opts.large) {
    const { rows: b } = await client.query<{ open: string; all: string }>(
      `SELECT count(*) FILTER (WHERE a.blocker_resolved_at IS NULL) AS open, count(*) AS all
       FROM answers a JOIN questions q ON q.id = a.question_id WHERE q.is_blocker AND a.text <> 'No blockers.'`,
    );
    counts["blockers (open)"] = Number(b[0].open);
    counts["blockers (all)"] = Number(b[0].all);
  }
  return { days, counts, seconds };
}

/** The default data set's rows (the shape described at the top of this file), over `days` days of history. */
async function standardSteps(step: Step, days: number): Promise<void> {
  await step(
    "teams, users, standups",
    `
    INSERT INTO teams (id, chat_id, name) VALUES (${TEAM_A}, 'TBENCH0001', 'Bench Corp'), (${TEAM_B}, 'TBENCH0002', 'Other Co');
    INSERT INTO users (id, chat_id, team_id, username, realname, firstname, email, timezone, is_admin)
    SELECT u, 'UB' || lpad(u::text, 7, '0'), CASE WHEN u <= ${USERS_A} THEN ${TEAM_A} ELSE ${TEAM_B} END,
           'user' || u, 'User ' || u || ' Bench', 'User' || u, 'user' || u || '@bench.example',
           (ARRAY['UTC','Europe/Berlin','America/New_York','Asia/Tokyo'])[1 + u % 4], u = 1 OR u = ${USERS_A + 1}
    FROM generate_series(1, ${USERS_A + USERS_B}) u;
    -- a newcomer of team A who is in no standup yet (sees no report)
    INSERT INTO users (id, chat_id, team_id, username, realname, firstname, email)
    VALUES (${NEWCOMER_USER_ID}, 'UB' || lpad('${NEWCOMER_USER_ID}', 7, '0'), ${TEAM_A}, 'newcomer', 'New Comer', 'New', 'newcomer@bench.example');
    INSERT INTO checkins (id, team_id, kind, name, state, days, owner_id, is_anonymous, is_confidential, created_at, updated_at)
    SELECT s,
           CASE WHEN s <= ${STANDUPS_A} THEN ${TEAM_A} ELSE ${TEAM_B} END,
           'standup',
           'Standup ' || s,
           (CASE WHEN s = 47 THEN 'archived' WHEN s = 48 THEN 'draft' WHEN s IN (49, 50) THEN 'paused' ELSE 'active' END)::"CheckinState",
           ARRAY['Mon','Tue','Wed','Thu','Fri'],
           CASE WHEN s <= ${STANDUPS_A} THEN (CASE WHEN s = 46 THEN 7 ELSE 1 + (s - 1) % 10 END) ELSE ${USERS_A + 1} END,
           s IN (44, 45), s = 46,
           now() - make_interval(days => ${days} + 60 - s), now() - make_interval(days => ${days} + 60 - s)
    FROM generate_series(1, ${STANDUPS_A + STANDUPS_B}) s;
    -- other tenants' standups (no history), so checkins/questions are not toy-sized tables
    INSERT INTO checkins (id, team_id, kind, name, state, days, owner_id, created_at, updated_at)
    SELECT ${POLL_ID} + 10 + s, ${TEAM_B}, 'standup', 'Other standup ' || s, 'active', ARRAY['Mon'], ${USERS_A + 2}, now() - make_interval(hours => s), now()
    FROM generate_series(1, ${OTHER_CHECKINS}) s;
    INSERT INTO checkins (id, team_id, kind, name, state, days, owner_id, created_at, updated_at)
    VALUES (${BIG_STANDUP_ID}, ${TEAM_A}, 'standup', 'Daily all-hands', 'active', ARRAY['Mon','Tue','Wed','Thu','Fri','Sat','Sun'], 1,
            now() - make_interval(days => ${BIG_STANDUP_DAYS + 30}), now());
    INSERT INTO checkins (id, team_id, kind, name, state, days, owner_id, created_at, updated_at)
    VALUES (${POLL_ID}, ${TEAM_A}, 'poll', 'Weekly pulse', 'active', ARRAY['Fri'], 1, now() - make_interval(days => ${days} + 1), now());
    SELECT setval(pg_get_serial_sequence('teams', 'id'), 10);
    SELECT setval(pg_get_serial_sequence('users', 'id'), ${NEWCOMER_USER_ID + 10});
    SELECT setval(pg_get_serial_sequence('checkins', 'id'), ${POLL_ID + OTHER_CHECKINS + 20});
    INSERT INTO questions (team_id, checkin_id, position, text, answer_type, choices)
    SELECT c.team_id, c.id, p, (ARRAY['What did you do yesterday?','What will you do today?','Anything blocking you?'])[p + 1], 'text', '{}'
    FROM checkins c CROSS JOIN generate_series(0, 2) p WHERE c.kind = 'standup';
    INSERT INTO questions (team_id, checkin_id, position, text, answer_type, choices) VALUES
      (${TEAM_A}, ${POLL_ID}, 0, 'How was your week?', 'multiple_choice', ARRAY['Great','Good','Okay','Rough']),
      (${TEAM_A}, ${POLL_ID}, 1, 'What should we improve?', 'open_ended', '{}');
    -- members: the lead in every team-A standup + 24 others spread over users 2..500; team B: 20 of its 50
    INSERT INTO checkin_members (checkin_id, user_id, team_id)
    SELECT s, 1, ${TEAM_A} FROM generate_series(1, ${STANDUPS_A}) s
    UNION
    SELECT s, 2 + ((s - 1) * 24 + k) % ${USERS_A - 1}, ${TEAM_A} FROM generate_series(1, ${STANDUPS_A}) s, generate_series(0, 23) k
    UNION
    SELECT s, ${USERS_A} + 1 + ((s - ${STANDUPS_A} - 1) * 7 + k) % ${USERS_B}, ${TEAM_B}
    FROM generate_series(${STANDUPS_A + 1}, ${STANDUPS_A + STANDUPS_B}) s, generate_series(0, 19) k
    UNION
    SELECT ${POLL_ID}, u, ${TEAM_A} FROM generate_series(1, 200) u
    UNION
    SELECT ${BIG_STANDUP_ID}, u, ${TEAM_A} FROM generate_series(1, ${BIG_STANDUP_MEMBERS}) u;
    -- vacations: ~4 per user and year, 3..10 days
    INSERT INTO absences (team_id, user_id, kind, start_date, end_date)
    SELECT u.team_id, u.id, CASE WHEN random() < 0.8 THEN 'vacation'::"AbsenceKind" ELSE 'out_of_office'::"AbsenceKind" END, d, d + (2 + floor(random() * 8))::int
    FROM users u, LATERAL (SELECT current_date - floor(random() * ${days})::int AS d FROM generate_series(1, ${Math.max(1, Math.round((days / 365) * 4))}) WHERE u.id > 0) x;
    `,
  );

  await step(
    "occurrences",
    `
    INSERT INTO occurrences (team_id, checkin_id, date, scheduled_at, started_at, closed_at, trigger, created_at)
    SELECT c.team_id, c.id, d::date, d + time '09:00', d + time '09:00', CASE WHEN d::date < current_date THEN d + time '23:59' END, 'seed', d + time '09:00'
    FROM checkins c
    CROSS JOIN generate_series(current_date - ${days}, current_date, interval '1 day') d
    WHERE c.kind = 'standup' AND c.state <> 'draft' AND c.id <= ${STANDUPS_A + STANDUPS_B} AND extract(isodow FROM d) < 6
    ORDER BY d, c.id;
    INSERT INTO occurrences (team_id, checkin_id, date, scheduled_at, started_at, closes_at, closed_at, trigger, created_at)
    SELECT ${TEAM_A}, ${POLL_ID}, d::date, d + time '15:00', d + time '15:00', d + time '15:00' + interval '2 days', d + time '15:00' + interval '2 days', 'seed', d + time '15:00'
    FROM generate_series(current_date - ${days}, current_date - 1, interval '1 day') d
    WHERE extract(isodow FROM d) = 5 ORDER BY d;
    INSERT INTO occurrences (team_id, checkin_id, date, scheduled_at, started_at, closed_at, trigger, created_at)
    SELECT ${TEAM_A}, ${BIG_STANDUP_ID}, d::date, d + time '09:00', d + time '09:00', CASE WHEN d::date < current_date THEN d + time '23:59' END, 'seed', d + time '09:00'
    FROM generate_series(current_date - ${BIG_STANDUP_DAYS - 1}, current_date, interval '1 day') d ORDER BY d;
    INSERT INTO occurrence_members (occurrence_id, user_id, team_id, asked_at)
    SELECT o.id, cm.user_id, o.team_id, o.scheduled_at FROM occurrences o JOIN checkin_members cm ON cm.checkin_id = o.checkin_id;
    `,
  );

  await step(
    "reports",
    `
    INSERT INTO reports (team_id, checkin_id, occurrence_id, user_id, status, anonymous_requested, is_anonymous, started_at, submitted_at, discarded_at, created_at, updated_at)
    SELECT team_id, checkin_id, occurrence_id, user_id, status::"ReportStatus", anon_req, is_anon OR anon_req, ts - interval '4 minutes',
           CASE WHEN status = 'submitted' THEN ts END, CASE WHEN status = 'discarded' THEN ts END, ts - interval '4 minutes', ts
    FROM (
      SELECT team_id, checkin_id, occurrence_id, user_id, is_anon, anon_req,
             CASE WHEN r < 0.02 THEN 'pending' WHEN r < 0.03 THEN 'discarded' ELSE 'submitted' END AS status,
             LEAST(scheduled_at + r2 * interval '8 hours', now() - interval '1 minute') AS ts
      FROM (
        SELECT om.team_id, o.checkin_id, o.id AS occurrence_id, om.user_id, o.scheduled_at, c.is_anonymous AS is_anon,
               random() < 0.01 AS anon_req, random() AS r, random() AS r2
        FROM occurrences o
        JOIN checkins c ON c.id = o.checkin_id AND c.kind = 'standup'
        JOIN occurrence_members om ON om.occurrence_id = o.id
        WHERE random() < 0.82 + 0.1 * ((om.user_id % 3) - 1)
          AND o.scheduled_at <= now()
          AND NOT EXISTS (SELECT 1 FROM absences a WHERE a.user_id = om.user_id AND a.start_date <= o.date AND a.end_date >= o.date)
      ) raw
    ) t
    ORDER BY ts, occurrence_id, user_id;
    `,
  );

  await step(
    "answers",
    `
    INSERT INTO answers (team_id, report_id, question_id, text, created_at, updated_at)
    SELECT r.team_id, r.id, q.id,
           ($1::text[])[1 + (r.id * 3 + q.position) % ${WORDS.length}] || '. ' || ($1::text[])[1 + (r.id * 7 + q.position * 5) % ${WORDS.length}] || '.',
           r.updated_at, r.updated_at
    FROM reports r JOIN questions q ON q.checkin_id = r.checkin_id
    WHERE r.status <> 'pending'
    ORDER BY r.id, q.position;
    `,
    [WORDS],
  );

  await step(
    "votes",
    `
    INSERT INTO votes (team_id, occurrence_id, question_id, user_id, choice, text, categories, created_at)
    SELECT ${TEAM_A}, o.id, q.id, om.user_id,
           CASE WHEN q.answer_type = 'multiple_choice' THEN q.choices[1 + floor(random() * 4)::int] END,
           CASE WHEN q.answer_type = 'open_ended' THEN ($1::text[])[1 + floor(random() * ${WORDS.length})::int] END,
           CASE WHEN q.answer_type = 'open_ended' THEN ARRAY['process'] ELSE '{}' END,
           o.scheduled_at + interval '1 hour'
    FROM occurrences o
    JOIN occurrence_members om ON om.occurrence_id = o.id
    JOIN questions q ON q.checkin_id = o.checkin_id
    WHERE o.checkin_id = ${POLL_ID} AND random() < 0.7
    ORDER BY o.id, om.user_id, q.position;
    `,
    [WORDS],
  );
}
