/**
 * `npm run bench:import`: the import rate of `npm run import -- geekbot` (issue 43) on a large
 * history. Generates a large team (lib/bench/generate.ts; BENCH_REPORTS, default 100000) in a
 * throwaway embedded PostgreSQL, serves it on 127.0.0.1 through this service's own route handlers
 * (tests/fakes/api-server.ts: the source, a second instance of this service in process), imports it
 * into an empty team of the same database and prints the summary: reports imported per second
 * (source reads included: both sides share this process and its CPU, so the number is a floor).
 * Numbers only, no pass/fail. Run it on a quiet machine.
 */
import type pg from "pg";
import { createApiKey } from "@/lib/auth/api-keys";
import * as gen from "@/lib/bench/generate";
import { getDb } from "@/lib/db";
import { formatSummary } from "@/lib/import/geekbot/context";
import { importFromGeekbot } from "@/lib/import/geekbot/run";
import { runOnBenchData } from "@/scripts/lib/bench-run";
import { benchNumber } from "@/scripts/lib/bench-settings";
import { startApiServer } from "@/tests/fakes/api-server";

const REPORTS = benchNumber("BENCH_REPORTS", 100_000);

/**
 * What the import must reproduce, counted in one team: standups and polls (active or paused), their
 * active questions and members, submitted reports and their answers, poll votes. `source`: only
 * what the importing admin (LEAD_USER_ID) sees through the API: no confidential standup of someone
 * else, and only the reports of active standups (Geekbot's API lists no reports of paused ones).
 */
async function teamCounts(client: pg.Client, teamId: number, source: boolean): Promise<Record<string, number>> {
  const { rows } = await client.query(
    `WITH c AS (SELECT id, kind, state FROM checkins WHERE team_id = $1 AND state IN ('active', 'paused')
                  AND (NOT $2 OR NOT is_confidential OR owner_id = ${gen.LEAD_USER_ID}))
     SELECT (SELECT count(*) FROM c WHERE kind = 'standup')::int AS standups,
            (SELECT count(*) FROM c WHERE kind = 'poll')::int AS polls,
            (SELECT count(*) FROM questions q JOIN c ON c.id = q.checkin_id WHERE q.archived_at IS NULL)::int AS questions,
            (SELECT count(*) FROM checkin_members m JOIN c ON c.id = m.checkin_id)::int AS members,
            (SELECT count(*) FROM reports r JOIN c ON c.id = r.checkin_id
              WHERE r.status = 'submitted' AND c.kind = 'standup' AND (NOT $2 OR c.state = 'active'))::int AS reports,
            (SELECT count(*) FROM answers a JOIN reports r ON r.id = a.report_id JOIN c ON c.id = r.checkin_id
              WHERE r.status = 'submitted' AND c.kind = 'standup' AND (NOT $2 OR c.state = 'active'))::int AS answers,
            (SELECT count(*) FROM votes v JOIN occurrences o ON o.id = v.occurrence_id JOIN c ON c.id = o.checkin_id)::int AS votes`,
    [teamId, source],
  );
  return rows[0];
}

/** "Comparison (source → target): standups 51 = 51, ..." with a mismatch marked. */
function compareTeams(source: Record<string, number>, target: Record<string, number>): string {
  const parts = Object.keys(source).map((k) => `${k} ${source[k]}${source[k] === target[k] ? " = " : " ≠ "}${target[k]}`);
  return `Comparison (source → target): ${parts.join(", ")}`;
}

await runOnBenchData("bench-import", REPORTS, async (raw) => {
  const db = getDb();
  const { key } = await createApiKey(db, { teamId: gen.TEAM_A, userId: gen.LEAD_USER_ID, name: "bench:import" });
  await db.user.update({ where: { id: gen.LEAD_USER_ID }, data: { is_admin: true, role: "admin" } });
  const team = await db.team.create({ data: { chat_id: "TIMPORTBENCH", name: "Import target" } });
  await db.user.create({
    data: {
      team_id: team.id,
      chat_id: "UIMPORTADMIN",
      username: "admin",
      realname: "Admin",
      firstname: "Admin",
      email: "admin@target.example",
      role: "admin",
      is_admin: true,
    },
  });
  const server = await startApiServer();
  try {
    let last = 0;
    const result = await importFromGeekbot({
      baseUrl: server.url,
      key,
      teamId: team.id,
      log: (line) => {
        if (Date.now() - last < 5000 && line.startsWith("  ")) return; // a progress line every 5 s
        last = Date.now();
        console.log(line);
      },
    });
    for (const line of formatSummary(result, { dryRun: false })) console.log(line);
    console.log(`  source requests: ${result.http.requests}; ${result.reportsPerSecond} reports/s over the report phase`);
    console.log(compareTeams(await teamCounts(raw, gen.TEAM_A, true), await teamCounts(raw, team.id, false)));
    // The "a second run changes nothing": the same import again imports nothing new.
    const second = await importFromGeekbot({ baseUrl: server.url, key, teamId: team.id, log: () => {} });
    console.log("Second run:");
    for (const line of formatSummary(second, { dryRun: false })) console.log(line);
    console.log(compareTeams(await teamCounts(raw, gen.TEAM_A, true), await teamCounts(raw, team.id, false)));
  } finally {
    await server.close();
  }
});
