/**
 * Anonymity that holds (issue 45): k, the team's minimum number of respondents. The results of
 * one occurrence of an anonymous poll (choice counts, answer lists, category breakdowns, totals,
 * CSV rows, the chat results message) are shown only once at least k distinct people answered
 * it; until then every rendering says how many answers are still needed (`answers_needed`).
 * k is `teams.anonymity_threshold` (default 3, never below 2: a CHECK constraint and
 * `setAnonymityThreshold`).
 *
 * Anonymous reports (of an anonymous standup, or submitted anonymously) are held back the same way:
 * `anonymousReportShownSql` is part of every report list, search and single read
 * (lib/domain/reports.ts), so the API (v1, v2), the exports and the dashboard lists show an
 * anonymous report to anyone but its author only once k people answered its occurrence.
 *
 * The poll rule is applied where results are computed — lib/domain/votes.ts `getPollVotes` (v1, the
 * dashboard, the CSV export) and lib/api/v2/votes.ts `pollVotesWire` (GET
 * /v2/polls/{id}/votes) with the same `answersNeeded` in SQL (`answersNeededSql`) — and in the
 * chat results message (lib/domain/occurrence-close.ts) and the `poll.closed` webhook (lib/domain/webhook-events.ts).
 *
 * Elsewhere: anonymous reports' broadcasts and `report.*` webhooks are held below k
 * (lib/domain/anonymous-release.ts); their times are stored coarse (migration
 * 20261128132700_anonymous_times); anonymous poll votes keep only a keyed hash of their voter
 * (lib/domain/voter-hash.ts).
 */
import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { releaseRunsReachingThreshold } from "@/lib/domain/anonymous-release";
import { recordAudit } from "@/lib/domain/audit";
import { ForbiddenError, InvalidParameterError } from "@/lib/domain/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** Smallest k a team may choose (one or two answers identify their authors). */
export const MIN_ANONYMITY_THRESHOLD = 2;
/** k of a new team. */
export const DEFAULT_ANONYMITY_THRESHOLD = 3;
/** Largest k accepted (a bound for the form and the API, not a privacy rule). */
export const MAX_ANONYMITY_THRESHOLD = 1000;

/**
 * How many more people must answer before results are shown: 0 when the results are not
 * anonymous or `answered` (distinct respondents of the occurrence) reached `threshold` (k).
 */
export function answersNeeded(anonymous: boolean, answered: number, threshold: number): number {
  return anonymous ? Math.max(threshold - answered, 0) : 0;
}

/**
 * `answersNeeded` in SQL for one poll occurrence: `anonymous` a boolean expression, `occurrenceId`
 * and `teamId` integer expressions. Counts the distinct voters only for anonymous polls.
 */
export function answersNeededSql(anonymous: Prisma.Sql, occurrenceId: Prisma.Sql, teamId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${anonymous} THEN greatest(
      (SELECT t.anonymity_threshold FROM teams t WHERE t.id = ${teamId})
      - (SELECT count(DISTINCT COALESCE(v.user_id::text, v.voter_hash)) FROM votes v WHERE v.occurrence_id = ${occurrenceId}), 0)::int ELSE 0 END`;
}

/**
 * Whether a report (alias `r`) may be shown to `actor` under the anonymity threshold, as SQL: the
 * actor's own report, a report that is not anonymous (the stored flag, fixed at submission to
 * "standup anonymous OR report anonymous", as `reportAuthor`), or an anonymous one whose
 * occurrence at least k people (distinct authors of submitted reports) answered. An ad-hoc report
 * (no occurrence: sent on a day the standup does not run) counts with the standup's other ad-hoc
 * reports of the same UTC day. Filters cannot narrow the group: the count is over the whole
 * occurrence, whatever else the statement filters on.
 */
export function anonymousReportShownSql(actor: Actor, r: string): Prisma.Sql {
  const R = Prisma.raw(`"${r}"`);
  const day = Prisma.sql`(date_trunc('day', ${R}.submitted_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
  return Prisma.sql`(${R}.user_id = ${actor.userId} OR NOT ${R}.is_anonymous
    OR (CASE WHEN ${R}.occurrence_id IS NOT NULL
        THEN (SELECT count(DISTINCT x.user_id) FROM reports x WHERE x.occurrence_id = ${R}.occurrence_id AND x.status = 'submitted')
        ELSE (SELECT count(DISTINCT x.user_id) FROM reports x WHERE x.checkin_id = ${R}.checkin_id AND x.occurrence_id IS NULL
          AND x.status = 'submitted' AND x.submitted_at >= ${day} AND x.submitted_at < ${day} + interval '1 day') END)
      >= (SELECT t.anonymity_threshold FROM teams t WHERE t.id = ${R}.team_id))`;
}

/** The team's k. */
export async function getAnonymityThreshold(actor: Actor, client: Tx = db): Promise<number> {
  const team = await client.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { anonymity_threshold: true } });
  return team.anonymity_threshold;
}

/**
 * Sets the team's k (admins only), audited as `team.privacy`. Lowering k releases what the runs
 * that now reach it held back (lib/domain/anonymous-release.ts).
 * @throws ForbiddenError for non-admins; InvalidParameterError when k is not a whole number in
 *   [MIN_ANONYMITY_THRESHOLD, MAX_ANONYMITY_THRESHOLD].
 */
export async function setAnonymityThreshold(actor: Actor, threshold: number, client?: Tx): Promise<void> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change privacy settings");
  if (!Number.isInteger(threshold) || threshold < MIN_ANONYMITY_THRESHOLD || threshold > MAX_ANONYMITY_THRESHOLD) {
    throw new InvalidParameterError(
      `anonymity threshold must be a whole number from ${MIN_ANONYMITY_THRESHOLD} to ${MAX_ANONYMITY_THRESHOLD}`,
    );
  }
  await inTransaction(client, async (tx) => {
    const before = await tx.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { anonymity_threshold: true } });
    await tx.team.update({ where: { id: actor.teamId }, data: { anonymity_threshold: threshold } });
    // A lower k: runs that now have k answers release their held posts and events.
    await releaseRunsReachingThreshold(tx, actor.teamId, before.anonymity_threshold, threshold);
    await recordAudit(tx, {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: "team.privacy",
      target: `team:${actor.teamId}`,
      details: { anonymity_threshold: { from: before.anonymity_threshold, to: threshold } },
    });
  });
}
