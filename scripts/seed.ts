/**
 * `npm run seed [-- --reset]`: applies pending migrations, then seeds the demo data into
 * DATABASE_URL, the embedded database of a running `npm start`, or the embedded database started
 * for the duration of the command. Refuses when teams exist unless --reset is given.
 */
import { parseArgs } from "node:util";
import { getDb } from "@/lib/db";
import { runWithDatabase } from "@/lib/runtime/cli";
import { applyMigrations } from "@/lib/runtime/migrate";
import { SeedRefusedError, seedDemoData } from "@/lib/seed/index";

const { values } = parseArgs({
  options: { reset: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } },
  strict: true,
});
if (values.help) {
  console.log("Usage: npm run seed [-- --reset]\n  --reset  delete all tenant data (teams, users, standups, reports...) and seed again");
  process.exit(0);
}

await runWithDatabase(
  "seed",
  async (url) => {
    const m = await applyMigrations(url, (l) => console.log(l));
    if (m.applied.length) console.log(`Applied ${m.applied.length} migration(s).`);
    const result = await seedDemoData({ db: getDb(), log: (l) => console.log(l), reset: values.reset });
    const c = result.counts;
    console.log(
      [
        "",
        `Teams: ${result.teams.map((t) => `${t.name} (id ${t.id}, ${t.chat_id}, ${t.users} users)`).join("; ")}`,
        `Standups: ${c.standups}, polls: ${c.polls}, occurrences: ${c.occurrences} (${c.occurrence_members} asked members)`,
        `Reports: ${c.reports.submitted} submitted, ${c.reports.pending} pending, ${c.reports.discarded} discarded; ${c.answers} answers`,
        `Votes: ${c.votes}, categorizations: ${c.categorizations}, absences: ${c.absences}, chat messages: ${c.chat_messages}`,
        "",
        `Dashboard login: ${result.credentials.dashboard.email} (its password and the API keys are in ${result.credentialsFile})`,
        `Try: ${result.credentials.example}`,
      ].join("\n"),
    );
  },
  (err) => {
    if (err instanceof SeedRefusedError) console.error(err.message);
    else console.error("Seeding failed:", err);
  },
);
