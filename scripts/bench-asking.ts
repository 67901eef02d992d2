/**
 * `npm run bench:asking`: the asking loop at scale (issue 10). Starts a throwaway embedded
 * PostgreSQL, applies the migrations, generates one team with BENCH_MEMBERS members (default
 * 10,000) in BENCH_STANDUPS standups (default 500, members split evenly) that are all due in the
 * same minute, then runs the scheduler tick exactly as the `schedule_tick` job does and prints:
 * - the tick that asks everyone: per step (open, ask, remind, close) and total, in ms;
 * - members asked, question messages enqueued, pending reports, and the seconds from the due
 *   minute until the last question message was enqueued;
 * - an idle tick (nothing due), the reminder tick (60 min later: one reminder per member) and the
 *   closing tick (24 h later: every occurrence closed, members recorded as missed).
 * Numbers only, no pass/fail. Env: BENCH_MEMBERS, BENCH_STANDUPS.
 */
import fs from "node:fs";
import { applyMigrations } from "@/lib/runtime/migrate";
import { benchNumber } from "@/scripts/lib/bench-settings";
import { startThrowawayPostgres } from "@/scripts/throwaway";

const MEMBERS = benchNumber("BENCH_MEMBERS", 10_000);
const STANDUPS = benchNumber("BENCH_STANDUPS", 500);

const { dir, database } = await startThrowawayPostgres("bench-asking");
try {
  await applyMigrations(database.url);
  process.env.DATABASE_URL = database.url;
  const { db } = await import("@/lib/db");
  const { runSchedulerTick } = await import("@/lib/domain/scheduler");

  // The due minute: the next whole minute of today (UTC); every standup runs every day at it.
  const due = new Date(Math.ceil(Date.now() / 60_000) * 60_000);
  const time = due.toISOString().slice(11, 19);
  console.log(`Generating ${MEMBERS} members in ${STANDUPS} standups, all due at ${due.toISOString()}`);
  const t0 = performance.now();
  const team = await db.team.create({ data: { chat_id: "TBENCH", name: "Bench" } });
  await db.$executeRaw`
    INSERT INTO users (chat_id, team_id, username, realname, firstname, email, timezone)
    SELECT 'UB' || g, ${team.id}, 'user' || g, 'User ' || g, 'User', 'user' || g || '@bench.example', 'UTC'
    FROM generate_series(1, ${MEMBERS}) g`;
  const owner = await db.user.findFirstOrThrow({ where: { team_id: team.id }, orderBy: { id: "asc" }, select: { id: true } });
  await db.$executeRaw`
    INSERT INTO checkins (team_id, kind, name, state, time, timezone, days, wait_time, owner_id, next_run_at, updated_at)
    SELECT ${team.id}, 'standup', 'Standup ' || g, 'active', ${time}, 'UTC', ARRAY['Mon','Tue','Wed','Thu','Fri','Sat','Sun'], 0,
           ${owner.id}, ${due}, now()
    FROM generate_series(1, ${STANDUPS}) g`;
  await db.$executeRaw`
    INSERT INTO questions (team_id, checkin_id, position, text)
    SELECT ${team.id}, c.id, q.p, q.t FROM checkins c
    CROSS JOIN (VALUES (0, 'What did you do yesterday?'), (1, 'What will you do today?'), (2, 'Anything blocking you?')) AS q(p, t)
    WHERE c.team_id = ${team.id}`;
  await db.$executeRaw`
    INSERT INTO checkin_members (checkin_id, user_id, team_id)
    SELECT c.id, u.id, ${team.id}
    FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM users WHERE team_id = ${team.id}) u
    JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM checkins WHERE team_id = ${team.id}) c ON c.n = u.n % ${STANDUPS}`;
  console.log(`  generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const count = async () => {
    const [row] = await db.$queryRaw<Array<{ asked: bigint; questions: bigint; pending: bigint; last: Date | null }>>`
      SELECT (SELECT count(*) FROM occurrence_members WHERE team_id = ${team.id} AND asked_at IS NOT NULL) AS asked,
             (SELECT count(*) FROM chat_messages WHERE team_id = ${team.id} AND kind = 'question') AS questions,
             (SELECT count(*) FROM reports WHERE team_id = ${team.id} AND status = 'pending') AS pending,
             (SELECT max(created_at) FROM chat_messages WHERE team_id = ${team.id} AND kind = 'question') AS last`;
    return row;
  };
  const fmt = (r: Awaited<ReturnType<typeof runSchedulerTick>>) =>
    `open ${r.ms.open.toFixed(0)} ms, ask ${r.ms.ask.toFixed(0)} ms, remind ${r.ms.remind.toFixed(0)} ms, close ${r.ms.close.toFixed(0)} ms, total ${r.ms.total.toFixed(0)} ms`;

  // Wait for the due minute, then tick the way the job does (new Date() at the start of the tick).
  const wait = due.getTime() - Date.now();
  if (wait > 0) {
    console.log(`Waiting ${(wait / 1000).toFixed(0)} s for the due minute`);
    await new Promise((r) => setTimeout(r, wait + 200));
  }
  const tickStart = new Date();
  const first = await runSchedulerTick(tickStart);
  const finished = Date.now();
  const c = await count();
  console.log(`\nTick at the due minute: ${first.opened} occurrences opened (each asks its members in its own transaction)`);
  console.log(`  ${fmt(first)}`);
  console.log(`  members asked: ${c.asked} of ${MEMBERS}; question messages enqueued: ${c.questions}; pending reports: ${c.pending}`);
  console.log(`  tick started ${((tickStart.getTime() - due.getTime()) / 1000).toFixed(1)} s after the due minute`);
  console.log(`  every member asked (messages enqueued) ${((finished - due.getTime()) / 1000).toFixed(1)} s after the due minute`);

  const idle = await runSchedulerTick(new Date(tickStart.getTime() + 60_000));
  console.log(`\nIdle tick (nothing due): ${fmt(idle)}`);
  const remind = await runSchedulerTick(new Date(tickStart.getTime() + 61 * 60_000));
  console.log(`Reminder tick (+61 min): ${remind.reminded} reminders; ${fmt(remind)}`);
  const close = await runSchedulerTick(new Date(due.getTime() + 24 * 3_600_000));
  const [missed] = await db.$queryRaw<
    Array<{ n: bigint }>
  >`SELECT count(*) AS n FROM occurrence_members WHERE team_id = ${team.id} AND missed_at IS NOT NULL`;
  console.log(
    `Closing tick (+24 h): ${close.closed} occurrences closed, ${missed.n} members missed (and the next day's ${close.opened} runs opened); ${fmt(close)}`,
  );
  await db.$disconnect();
} finally {
  await database.stop().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}
