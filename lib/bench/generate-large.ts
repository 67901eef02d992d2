/**
 * The large team of `npm run bench:dashboard` (issue 49, "Dashboards at a large team's size"):
 * `generateBenchData(client, { reports, large: true })` (lib/bench/generate.ts) runs these steps
 * instead of the default data set's, inside the same frame (foreign-key triggers off, secondary
 * indexes dropped and re-created, VACUUM (ANALYZE)).
 *
 * Shape (fixed, whatever BENCH_REPORTS says):
 * - one team ("Large Corp", id 1) of 1,000 people; user 1 is its admin (the bench sets a password);
 * - 100 standups (Mon–Fri, 3 questions, the third a blocker question; 25 members each: user 1 plus
 *   24 of users 2..1000, so everyone is in ~2.4 standups; standup 100 archived, 99 paused) and 10
 *   weekly polls (2 questions, 100 members each); 10 broadcast channels, one per 10 check-ins;
 * - two years (730 days) of runs: one occurrence per standup per weekday (~52,000, ~1.3 million
 *   asked members) and one per poll per Friday;
 * - reports: each asked member answers with probability min(0.95, reports / asked), so the total is
 *   about `reports` (1,000,000 ≈ an 80 % response rate, the size; the default 100,000 ≈
 *   8 %), minus vacations, ~2 % pending and ~1 % discarded; 3 answers per non-pending report;
 * - about 5,000 blockers (non-"no" answers to the blocker question; the older ones ~90 % resolved),
 *   about 20,000 poll votes, 5,000 audit entries over the two years;
 * - chat messages of the last 30 days only: the question sent to each asked member and each
 *   report's post in its standup's channel.
 */

/** Runs one generation step: a batch of SQL statements, timed under `name`. */
export type Step = (name: string, sql: string, params?: unknown[]) => Promise<unknown>;

/** The fixed shape of the large team (see the file's docstring). */
export const LARGE = {
  teamId: 1,
  users: 1000,
  adminUserId: 1,
  standups: 100,
  polls: 10,
  members: 25,
  pollMembers: 100,
  days: 730,
  channels: 10,
  blockers: 5000,
  votes: 20000,
  audit: 5000,
  messageDays: 30,
} as const;

/** The first poll's id (polls follow the standups). */
export const LARGE_FIRST_POLL_ID = LARGE.standups + 1;

const BLOCKING = "Blocked by the staging database being down";

/** The large team's rows (see the file's docstring); `reports` is the target number of reports. */
export async function largeTeamSteps(step: Step, reports: number, words: readonly string[]): Promise<void> {
  const L = LARGE;
  const t = L.teamId;
  const lastId = L.standups + L.polls;
  await step(
    "teams, users, standups",
    `
    INSERT INTO teams (id, chat_id, name) VALUES (${t}, 'TLARGE0001', 'Large Corp');
    INSERT INTO users (id, chat_id, team_id, username, realname, firstname, email, timezone, is_admin, role)
    SELECT u, 'UL' || lpad(u::text, 7, '0'), ${t}, 'user' || u, 'User ' || u || ' Large', 'User' || u, 'user' || u || '@large.example',
           (ARRAY['UTC','Europe/Berlin','America/New_York','Asia/Tokyo'])[1 + u % 4], u = ${L.adminUserId},
           (CASE WHEN u = ${L.adminUserId} THEN 'admin' WHEN u <= 20 THEN 'manager' ELSE 'member' END)::"UserRole"
    FROM generate_series(1, ${L.users}) u;
    INSERT INTO channels (id, chat_id, team_id, name)
    SELECT c, 'CL' || lpad(c::text, 7, '0'), ${t}, 'team-' || c FROM generate_series(1, ${L.channels}) c;
    INSERT INTO checkins (id, team_id, kind, name, state, days, owner_id, broadcast_channel_id, created_at, updated_at)
    SELECT s, ${t}, (CASE WHEN s <= ${L.standups} THEN 'standup' ELSE 'poll' END)::"CheckinKind",
           CASE WHEN s <= ${L.standups} THEN 'Standup ' || s ELSE 'Pulse ' || (s - ${L.standups}) END,
           (CASE WHEN s = ${L.standups} THEN 'archived' WHEN s = ${L.standups - 1} THEN 'paused' ELSE 'active' END)::"CheckinState",
           CASE WHEN s <= ${L.standups} THEN ARRAY['Mon','Tue','Wed','Thu','Fri'] ELSE ARRAY['Fri'] END,
           1 + (s - 1) % 20, 1 + (s - 1) % ${L.channels},
           now() - make_interval(days => ${L.days} + 30), now() - make_interval(days => ${L.days} + 30)
    FROM generate_series(1, ${lastId}) s;
    SELECT setval(pg_get_serial_sequence('teams', 'id'), 10);
    SELECT setval(pg_get_serial_sequence('users', 'id'), ${L.users + 10});
    SELECT setval(pg_get_serial_sequence('channels', 'id'), ${L.channels + 10});
    SELECT setval(pg_get_serial_sequence('checkins', 'id'), ${lastId + 10});
    INSERT INTO questions (team_id, checkin_id, position, text, answer_type, choices, is_blocker)
    SELECT ${t}, c.id, p, (ARRAY['What did you do yesterday?','What will you do today?','Anything blocking you?'])[p + 1], 'text', '{}', p = 2
    FROM checkins c CROSS JOIN generate_series(0, 2) p WHERE c.kind = 'standup';
    INSERT INTO questions (team_id, checkin_id, position, text, answer_type, choices)
    SELECT ${t}, c.id, p, CASE WHEN p = 0 THEN 'How was your week?' ELSE 'What should we improve?' END,
           (CASE WHEN p = 0 THEN 'multiple_choice' ELSE 'open_ended' END)::"AnswerType",
           CASE WHEN p = 0 THEN ARRAY['Great','Good','Okay','Rough'] ELSE '{}' END
    FROM checkins c CROSS JOIN generate_series(0, 1) p WHERE c.kind = 'poll';
    INSERT INTO checkin_members (checkin_id, user_id, team_id)
    SELECT s, 1, ${t} FROM generate_series(1, ${L.standups}) s
    UNION
    SELECT s, 2 + ((s - 1) * ${L.members - 1} + k) % ${L.users - 1}, ${t}
    FROM generate_series(1, ${L.standups}) s, generate_series(0, ${L.members - 2}) k
    UNION
    SELECT s, 1 + ((s - ${L.standups + 1}) * ${L.pollMembers} + k) % ${L.users}, ${t}
    FROM generate_series(${L.standups + 1}, ${lastId}) s, generate_series(0, ${L.pollMembers - 1}) k;
    INSERT INTO absences (team_id, user_id, kind, start_date, end_date)
    SELECT u.team_id, u.id, 'vacation'::"AbsenceKind", d, d + (2 + floor(random() * 8))::int
    FROM users u, LATERAL (SELECT current_date - floor(random() * ${L.days})::int AS d FROM generate_series(1, 8) WHERE u.id > 0) x;
    INSERT INTO audit_entries (team_id, actor_id, action, target, details, created_at)
    SELECT ${t}, 1 + i % 20, (ARRAY['standup.update','member.add','member.remove','poll.create','settings.update'])[1 + i % 5],
           'standup:' || (1 + i % ${L.standups}), jsonb_build_object('n', i), now() - make_interval(mins => i * ${Math.round((L.days * 1440) / L.audit)})
    FROM generate_series(1, ${L.audit}) i ORDER BY i DESC;
    `,
  );

  await step(
    "occurrences",
    `
    INSERT INTO occurrences (team_id, checkin_id, date, scheduled_at, started_at, closed_at, trigger, created_at)
    SELECT ${t}, c.id, d::date, d + time '09:00', d + time '09:00', CASE WHEN d::date < current_date THEN d + time '23:59' END, 'seed', d + time '09:00'
    FROM checkins c CROSS JOIN generate_series(current_date - ${L.days}, current_date, interval '1 day') d
    WHERE c.kind = 'standup' AND extract(isodow FROM d) < 6
    ORDER BY d, c.id;
    INSERT INTO occurrences (team_id, checkin_id, date, scheduled_at, started_at, closes_at, closed_at, trigger, created_at)
    SELECT ${t}, c.id, d::date, d + time '15:00', d + time '15:00', d + time '15:00' + interval '2 days', d + time '15:00' + interval '2 days', 'seed', d + time '15:00'
    FROM checkins c CROSS JOIN generate_series(current_date - ${L.days}, current_date - 1, interval '1 day') d
    WHERE c.kind = 'poll' AND extract(isodow FROM d) = 5 ORDER BY d, c.id;
    INSERT INTO occurrence_members (occurrence_id, user_id, team_id, asked_at)
    SELECT o.id, cm.user_id, o.team_id, o.scheduled_at FROM occurrences o JOIN checkin_members cm ON cm.checkin_id = o.checkin_id;
    `,
  );

  await step(
    "reports",
    `
    INSERT INTO reports (team_id, checkin_id, occurrence_id, user_id, status, started_at, submitted_at, discarded_at, created_at, updated_at)
    SELECT team_id, checkin_id, occurrence_id, user_id, status::"ReportStatus", ts - interval '4 minutes',
           CASE WHEN status = 'submitted' THEN ts END, CASE WHEN status = 'discarded' THEN ts END, ts - interval '4 minutes', ts
    FROM (
      SELECT om.team_id, o.checkin_id, o.id AS occurrence_id, om.user_id,
             CASE WHEN r < 0.02 THEN 'pending' WHEN r < 0.03 THEN 'discarded' ELSE 'submitted' END AS status,
             LEAST(o.scheduled_at + r2 * interval '8 hours', now() - interval '1 minute') AS ts
      FROM (SELECT om.*, random() AS r, random() AS r2 FROM occurrence_members om) om
      JOIN occurrences o ON o.id = om.occurrence_id
      JOIN checkins c ON c.id = o.checkin_id AND c.kind = 'standup'
      WHERE random() < least(0.95, $1::float8 / (SELECT count(*) FROM occurrence_members om2 JOIN occurrences o2 ON o2.id = om2.occurrence_id AND o2.checkin_id <= ${L.standups}))
        AND o.scheduled_at <= now()
        AND NOT EXISTS (SELECT 1 FROM absences a WHERE a.user_id = om.user_id AND a.start_date <= o.date AND a.end_date >= o.date)
    ) t
    ORDER BY ts, occurrence_id, user_id;
    `,
    [reports],
  );

  await step(
    "answers",
    `
    WITH k AS (SELECT greatest(1, count(*) / ${L.blockers})::int AS every FROM reports WHERE status <> 'pending')
    INSERT INTO answers (team_id, report_id, question_id, text, blocker_resolved_at, blocker_resolved_by_id, created_at, updated_at)
    SELECT r.team_id, r.id, q.id,
           CASE WHEN q.position < 2
                THEN ($1::text[])[1 + (r.id * 3 + q.position) % ${words.length}] || '. ' || ($1::text[])[1 + (r.id * 7 + q.position * 5) % ${words.length}] || '.'
                WHEN r.id % k.every = 0 THEN '${BLOCKING} (' || r.id || ')'
                ELSE 'No blockers.' END,
           CASE WHEN q.position = 2 AND r.id % k.every = 0 AND r.updated_at < now() - interval '14 days' AND (r.id / k.every) % 10 <> 0
                THEN r.updated_at + interval '2 days' END,
           CASE WHEN q.position = 2 AND r.id % k.every = 0 AND r.updated_at < now() - interval '14 days' AND (r.id / k.every) % 10 <> 0
                THEN r.user_id END,
           r.updated_at, r.updated_at
    FROM reports r CROSS JOIN k JOIN questions q ON q.checkin_id = r.checkin_id
    WHERE r.status <> 'pending'
    ORDER BY r.id, q.position;
    `,
    [words],
  );

  await step(
    "votes",
    `
    INSERT INTO votes (team_id, occurrence_id, question_id, user_id, choice, text, categories, created_at)
    SELECT ${t}, p.occurrence_id, q.id, p.user_id,
           CASE WHEN q.answer_type = 'multiple_choice' THEN q.choices[1 + floor(random() * 4)::int] END,
           CASE WHEN q.answer_type = 'open_ended' THEN ($1::text[])[1 + floor(random() * ${words.length})::int] END,
           CASE WHEN q.answer_type = 'open_ended' THEN ARRAY['process'] ELSE '{}' END,
           p.scheduled_at + interval '1 hour'
    FROM (
      SELECT o.id AS occurrence_id, o.checkin_id, o.scheduled_at, om.user_id
      FROM occurrences o JOIN occurrence_members om ON om.occurrence_id = o.id
      WHERE o.checkin_id > ${L.standups}
        AND random() < ${L.votes / 2}::float8 / (SELECT count(*) FROM occurrence_members om2 JOIN occurrences o2 ON o2.id = om2.occurrence_id AND o2.checkin_id > ${L.standups})
    ) p JOIN questions q ON q.checkin_id = p.checkin_id
    ORDER BY p.occurrence_id, p.user_id, q.position;
    `,
    [words],
  );

  await step(
    "chat messages",
    `
    INSERT INTO chat_messages (team_id, ts, kind, recipient_id, checkin_id, occurrence_id, text, delivery_state, delivered_at, delivered_via, created_at, updated_at)
    SELECT ${t}, 'q' || o.id || '.' || om.user_id, 'question', om.user_id, o.checkin_id, o.id,
           'Hi! It is time for ' || c.name || '. What did you do yesterday?', 'delivered', o.scheduled_at, 'builtin', o.scheduled_at, o.scheduled_at
    FROM occurrences o JOIN occurrence_members om ON om.occurrence_id = o.id JOIN checkins c ON c.id = o.checkin_id
    WHERE o.date >= current_date - ${L.messageDays}
    ORDER BY o.scheduled_at, o.id, om.user_id;
    INSERT INTO chat_messages (team_id, ts, kind, channel_id, checkin_id, occurrence_id, report_id, text, delivery_state, delivered_at, delivered_via, created_at, updated_at)
    SELECT ${t}, 'r' || r.id, 'report', c.broadcast_channel_id, r.checkin_id, r.occurrence_id, r.id,
           'User ' || r.user_id || ' posted a report in ' || c.name, 'delivered', r.submitted_at, 'builtin', r.submitted_at, r.submitted_at
    FROM reports r JOIN checkins c ON c.id = r.checkin_id
    WHERE r.status = 'submitted' AND r.submitted_at >= current_date - ${L.messageDays}
    ORDER BY r.submitted_at, r.id;
    `,
  );
}
