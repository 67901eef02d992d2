/**
 * Erasure of a person ("right to be forgotten", issue 45), requested by the person or done by a
 * team admin, in one transaction:
 * - the account is deactivated (`deactivatePerson`: sign-in ends, API keys revoked, standup and
 *   channel memberships removed) and its identity replaced by a tombstone: name "Erased member",
 *   username/e-mail/chat id derived from the row id, no avatar, title, password or API key names;
 * - their answers are removed per the team's retention mode (lib/domain/retention.ts): with
 *   "anonymise" (default) the fact that they answered is kept — the answer rows of their reports
 *   are deleted, their reports stay (status, times, occurrence), their votes keep the choice but
 *   lose any typed text and categories, so participation rates and vote counts are unchanged; with
 *   "delete" their reports and votes are deleted too. Absences lose their note;
 * - their report broadcasts are deleted on the chat platform through the outbox
 *   (`removeReportBroadcast`) and every chat message text that names them or quotes their answers
 *   is scrubbed;
 * - every stored copy elsewhere is scrubbed: idempotency records of their requests are deleted;
 *   webhook delivery payloads, audit details, occurrence summaries, pending job payloads (job
 *   outbox and graphile-worker) have each string that contains one of their identifiers or answer
 *   texts replaced by "[erased]"; stored poll results of the broadcasts they voted in are dropped
 *   (recomputed from the anonymised votes).
 * The erasure itself is audited as `user.erase` (target `user:<id>`, no identifier in the details).
 */

import { inTransaction, queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { recordAudit } from "@/lib/domain/audit";
import { ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { removeReportBroadcast } from "@/lib/domain/outbox-reports";
import { deactivatePerson } from "@/lib/domain/people";
import { anonymousVoteIdsOf } from "@/lib/domain/voter-hash";
import { Prisma } from "@/lib/generated/prisma/client";

/** What replaces an erased identifier or answer inside stored text. */
export const ERASED = "[erased]";
/** Shortest needle searched for (shorter names or answers would match unrelated text). */
const MIN_NEEDLE = 3;

/** Counts of what an erasure changed. */
export type ErasureResult = {
  answersDeleted: number;
  votesAnonymised: number;
  /** With the team's retention mode "delete": their reports and votes themselves. */
  reportsDeleted: number;
  votesDeleted: number;
  broadcastsDeleted: number;
  rowsScrubbed: number;
};

/** Replaces every needle (case-insensitive) in a string. */
function scrubText(text: string, needles: readonly string[]): string {
  let out = text;
  for (const n of needles) {
    if (out.toLowerCase().includes(n.toLowerCase())) out = out.replace(new RegExp(n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), ERASED);
  }
  return out;
}

/** `scrubText` over every string (keys included) of a JSON value. */
export function scrubJson(value: unknown, needles: readonly string[]): unknown {
  if (typeof value === "string") return scrubText(value, needles);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, needles));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrubText(k, needles), scrubJson(v, needles)]));
  }
  return value;
}

/** A LIKE pattern finding `needle` inside the JSON text of a column (as JSON escapes it). */
function likePatterns(needles: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const n of needles) {
    forms.add(n);
    forms.add(JSON.stringify(n).slice(1, -1));
  }
  return [...forms].map((f) => `%${f.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/** Stored JSON columns that may hold copies of a person's data: table, key column, JSON column, team scoped. */
const JSON_COPIES = [
  { table: "webhook_deliveries", key: "id", column: "payload", team: true },
  { table: "audit_entries", key: "id", column: "details", team: true },
  { table: "occurrence_summaries", key: "id", column: "sections", team: true },
  { table: "job_outbox", key: "id", column: "payload", team: false },
  { table: "graphile_worker._private_jobs", key: "id", column: "payload", team: false },
] as const;

/** Stored text columns that may quote a person's identifiers or answers. */
const TEXT_COPIES = [
  { table: "chat_messages", column: "text" },
  { table: "occurrence_summaries", column: "text" },
  { table: "audit_entries", column: "target" },
] as const;

/**
 * Erases a person of the actor's team (see the module comment). The person themselves or a team
 * admin may erase; `confirm` must repeat the person's e-mail address (the dashboard's
 * confirmation). Idempotent: erasing an erased person changes nothing more.
 * @throws ForbiddenError when the actor is neither the person nor an admin; NotFoundError for an
 *   unknown person or another team's; InvalidParameterError when `confirm` does not match;
 *   ConflictError when they are the team's last active admin.
 */
export async function erasePerson(actor: Actor, input: { userId: number; confirm: string }, tx?: Tx): Promise<ErasureResult> {
  if (!actor.isAdmin && actor.userId !== input.userId) throw new ForbiddenError("Only the person or a team admin can erase a person");
  return inTransaction(tx, async (t) => {
    const user = await t.user.findFirst({
      where: { id: input.userId, team_id: actor.teamId },
      select: {
        id: true,
        team_id: true,
        email: true,
        realname: true,
        username: true,
        firstname: true,
        chat_id: true,
        avatar_url: true,
        title: true,
      },
    });
    if (!user) throw new NotFoundError("User");
    if (input.confirm.trim().toLowerCase() !== user.email.toLowerCase()) {
      throw new InvalidParameterError("confirm must repeat the person's e-mail address");
    }
    await deactivatePerson(null, { teamId: user.team_id, userId: user.id }, t);

    const answers = await t.answer.findMany({ where: { report: { user_id: user.id } }, select: { text: true } });
    // Their votes: naming them, or (anonymous polls) found by their keyed hash (lib/domain/voter-hash.ts).
    const anonymousVoteIds = await anonymousVoteIdsOf(user.id, t);
    const theirVotes: Prisma.VoteWhereInput = { OR: [{ user_id: user.id }, { id: { in: anonymousVoteIds } }] };
    const votes = await t.vote.findMany({ where: { ...theirVotes, text: { not: null } }, select: { text: true } });
    const needles = [
      user.email,
      user.realname,
      user.username,
      user.firstname,
      user.chat_id,
      user.avatar_url ?? "",
      user.title ?? "",
      ...answers.map((a) => a.text),
      ...votes.map((v) => v.text ?? ""),
    ]
      .map((s) => s.trim())
      .filter((s) => s.length >= MIN_NEEDLE && !s.startsWith(ERASED))
      .sort((a, b) => b.length - a.length);

    const reports = await t.report.findMany({ where: { user_id: user.id }, select: { id: true } });
    let broadcastsDeleted = 0;
    for (const r of reports) broadcastsDeleted += await removeReportBroadcast(t, r.id);
    await t.$executeRaw`DELETE FROM poll_results pr WHERE pr.team_id = ${user.team_id}
      AND pr.occurrence_id IN (SELECT v.occurrence_id FROM votes v WHERE v.user_id = ${user.id} OR v.id = ANY(${anonymousVoteIds}::int[]))`;
    const answersDeleted = (await t.answer.deleteMany({ where: { report: { user_id: user.id } } })).count;
    // The team's retention mode decides: "delete" removes the reports and votes too (lib/domain/retention.ts).
    const { retention_mode } = await t.team.findUniqueOrThrow({ where: { id: user.team_id }, select: { retention_mode: true } });
    const deleting = retention_mode === "delete";
    const reportsDeleted = deleting ? (await t.report.deleteMany({ where: { user_id: user.id } })).count : 0;
    const votesDeleted = deleting ? (await t.vote.deleteMany({ where: theirVotes })).count : 0;
    const votesAnonymised = (
      await t.vote.updateMany({
        where: { AND: [theirVotes, { OR: [{ text: { not: null } }, { categories: { isEmpty: false } }] }] },
        data: { text: null, categories: [] },
      })
    ).count;
    // Their anonymous votes stay counted but no longer lead back to them: a random voter stand-in per broadcast.
    if (!deleting && anonymousVoteIds.length) {
      await t.$executeRaw`UPDATE votes v SET voter_hash = d.h FROM (SELECT o.occurrence_id, 'erased:' || md5(random()::text || o.occurrence_id) AS h
          FROM (SELECT DISTINCT occurrence_id FROM votes WHERE id = ANY(${anonymousVoteIds}::int[])) o) d
        WHERE v.id = ANY(${anonymousVoteIds}::int[]) AND v.occurrence_id = d.occurrence_id`;
    }
    await t.absence.updateMany({ where: { user_id: user.id }, data: { note: null } });
    // Calendar feeds (secret addresses, issue 48) go; the absences they provided stay as history.
    await t.absence.updateMany({ where: { user_id: user.id, calendar_feed_id: { not: null } }, data: { calendar_feed_id: null } });
    await t.calendarFeed.deleteMany({ where: { team_id: user.team_id, user_id: user.id } });
    // Activity connections (sealed tokens) and the activity fetched for them go (issue 48).
    await t.activityConnection.deleteMany({ where: { team_id: user.team_id, user_id: user.id } });
    await t.activitySuggestion.deleteMany({ where: { team_id: user.team_id, user_id: user.id } });
    await t.idempotencyRecord.deleteMany({ where: { user_id: user.id } });
    await t.dataExport.deleteMany({ where: { user_id: user.id } });
    await t.authToken.deleteMany({ where: { user_id: user.id } });
    await t.apiKey.updateMany({ where: { user_id: user.id }, data: { name: "erased" } });
    await t.user.update({
      where: { id: user.id },
      data: {
        realname: "Erased member",
        firstname: "",
        username: `erased-${user.id}`,
        email: `erased-${user.id}@erased.invalid`,
        chat_id: `XERASED${user.id}`,
        avatar_url: null,
        title: null,
        password_hash: null,
      },
    });

    const rowsScrubbed = needles.length ? await scrubCopies(t, user.team_id, needles) : 0;
    await recordAudit(t, {
      teamId: user.team_id,
      actorId: actor.userId === user.id ? null : actor.userId,
      action: "user.erase",
      target: `user:${user.id}`,
      details: {
        answersDeleted,
        votesAnonymised,
        reportsDeleted,
        votesDeleted,
        broadcastsDeleted,
        rowsScrubbed,
        bySelf: actor.userId === user.id,
      },
    });
    return { answersDeleted, votesAnonymised, reportsDeleted, votesDeleted, broadcastsDeleted, rowsScrubbed };
  });
}

/** Scrubs the needles out of every stored copy (`JSON_COPIES`, `TEXT_COPIES`). @returns rows changed. */
async function scrubCopies(t: Tx, teamId: number, needles: string[]): Promise<number> {
  const patterns = likePatterns(needles);
  let changed = 0;
  for (const c of TEXT_COPIES) {
    const table = Prisma.raw(c.table);
    const column = Prisma.raw(c.column);
    const rows = await queryRows<{ id: number; text: string }>(
      Prisma.sql`SELECT id, ${column} AS text FROM ${table} WHERE team_id = ${teamId} AND ${column} ILIKE ANY(${patterns}::text[])`,
      t,
    );
    for (const r of rows) {
      await t.$executeRaw`UPDATE ${table} SET ${column} = ${scrubText(r.text, needles)} WHERE id = ${r.id}`;
      changed++;
    }
  }
  for (const c of JSON_COPIES) {
    const table = Prisma.raw(c.table);
    const column = Prisma.raw(c.column);
    const scope = c.team ? Prisma.sql`team_id = ${teamId} AND` : Prisma.empty;
    const rows = await queryRows<{ id: number | bigint; value: unknown; type: string }>(
      Prisma.sql`SELECT ${Prisma.raw(c.key)} AS id, ${column} AS value, pg_typeof(${column})::text AS type FROM ${table}
        WHERE ${scope} ${column}::text ILIKE ANY(${patterns}::text[])`,
      t,
    );
    for (const r of rows) {
      const scrubbed = JSON.stringify(scrubJson(r.value, needles));
      await t.$executeRaw`UPDATE ${table} SET ${column} = ${scrubbed}::${Prisma.raw(r.type)} WHERE ${Prisma.raw(c.key)} = ${r.id}`;
      changed++;
    }
  }
  return changed;
}
