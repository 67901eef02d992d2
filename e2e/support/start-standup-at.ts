/**
 * Opens runs of a standup at given instants, for e2e specs that need a run on another day than
 * today (the service runs on the real clock): `startStandup` (lib/domain/occurrences.ts, the same
 * function as "Ask now" and POST /v1/standups/{id}/start) with its `now` argument, as the team
 * admin whose e-mail is given, against `DATABASE_URL` (the spec's service database).
 *
 * Usage: node --import tsx e2e/support/start-standup-at.ts <standupId> <adminEmail> <ISO instant>...
 * Prints one JSON line per run: { date, asked } (asked: the chat ids of the people asked).
 */
import { db } from "@/lib/db";
import { startStandup } from "@/lib/domain/occurrences";

const [standupId, email, ...instants] = process.argv.slice(2);
const admin = await db.user.findFirstOrThrow({
  where: { email: { equals: email }, is_admin: true },
  select: { id: true, team_id: true, chat_id: true },
});
const actor = { teamId: admin.team_id, userId: admin.id, userChatId: admin.chat_id, isAdmin: true, role: "admin" as const };
for (const at of instants) {
  const r = await startStandup(actor, Number(standupId), {}, db, new Date(at));
  const asked = await db.user.findMany({ where: { id: { in: r.asked } }, select: { chat_id: true } });
  console.log(JSON.stringify({ date: r.date, asked: asked.map((u) => u.chat_id) }));
}
await db.$disconnect();
