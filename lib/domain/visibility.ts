/**
 * Visibility rules of the API (spec §2.3, §3, §4.2), in one place, as Prisma `where` builders.
 * They are applied inside queries (never by filtering rows after loading), so pagination, counts
 * and existence checks all see the same set. Everything is scoped to the actor's team (spec §5).
 *
 * - Standup (v2, and every "standup visible to the caller" elsewhere): kind standup, state active
 *   or paused; non-confidential: the caller is a member or the creator; confidential: creator only.
 * - Poll (v2): kind poll, state active or paused, created by the caller.
 * - Poll (v1: GET /v1/polls, /v1/polls/{id}, /v1/polls/{id}/votes): kind poll, state active or
 *   paused, created by the caller or with the caller as a member.
 * - Report list (GET /v2/reports): submitted reports of ACTIVE standups visible to the caller.
 * - Single report (GET /v2/reports/{id}): submitted; its standup is a standup in state active or
 *   paused of the team; visible when the caller owns (created) the standup, or the standup is
 *   active and non-confidential and the caller is a member or the report's author. Reports of
 *   paused or confidential standups are 404 for everyone but the owner, the author included
 *   (spec §4.2); authors keep their own history in the dashboard (My check-ins).
 * - v1 standup list (GET /v1/standups/, /v1/me/standups): any non-archived standup the caller
 *   participates in or created (or, with `admin` for team admins, every standup of the team);
 *   drafts and confidential standups only when the caller created them.
 */
import type { Actor } from "@/lib/domain/actor";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The states the v2 API can see (spec §3). */
export const VISIBLE_STATES = ["active", "paused"] as const;

/** Standups (kind standup, active|paused) the actor can see. */
export function visibleStandupWhere(actor: Actor): Prisma.CheckinWhereInput {
  return {
    team_id: actor.teamId,
    kind: "standup",
    state: { in: [...VISIBLE_STATES] },
    OR: [{ owner_id: actor.userId }, { is_confidential: false, members: { some: { user_id: actor.userId } } }],
  };
}

/** Polls (kind poll, active|paused) the actor can see: only the ones the actor created (spec §2.3). */
export function visiblePollWhere(actor: Actor): Prisma.CheckinWhereInput {
  return { team_id: actor.teamId, kind: "poll", state: { in: [...VISIBLE_STATES] }, owner_id: actor.userId };
}

/**
 * Polls the legacy (v1) endpoints open: kind poll, active or paused, of the actor's team, that the
 * actor created or takes part in (a member).
 */
export function v1AccessiblePollWhere(actor: Actor): Prisma.CheckinWhereInput {
  return {
    team_id: actor.teamId,
    kind: "poll",
    state: { in: [...VISIBLE_STATES] },
    OR: [{ owner_id: actor.userId }, { members: { some: { user_id: actor.userId } } }],
  };
}

/** What a check-in read is about: a standup or a poll (the `kind` of a `checkins` row). */
export type CheckinKind = "standup" | "poll";

/** The v2 rule of either kind: `visibleStandupWhere` for standups, `visiblePollWhere` for polls. */
export function visibleCheckinWhere(actor: Actor, kind: CheckinKind): Prisma.CheckinWhereInput {
  return kind === "poll" ? visiblePollWhere(actor) : visibleStandupWhere(actor);
}

/** Reports listed by GET /v2/reports: submitted reports of active standups the actor can see. */
export function listableReportWhere(actor: Actor): Prisma.ReportWhereInput {
  return {
    team_id: actor.teamId,
    status: "submitted",
    submitted_at: { not: null },
    checkin: { AND: [visibleStandupWhere(actor), { state: "active" }] },
  };
}

/**
 * A single report readable by GET /v2/reports/{id} (spec §4.2): submitted, of a visible-state
 * standup of the team, and either the standup is the actor's own, or it is active and
 * non-confidential and the actor is a member or the report's author.
 */
export function readableReportWhere(actor: Actor): Prisma.ReportWhereInput {
  return {
    team_id: actor.teamId,
    status: "submitted",
    submitted_at: { not: null },
    checkin: { team_id: actor.teamId, kind: "standup", state: { in: [...VISIBLE_STATES] } },
    OR: [
      { checkin: { owner_id: actor.userId } },
      { checkin: { state: "active", is_confidential: false }, user_id: actor.userId },
      { checkin: { state: "active", is_confidential: false, members: { some: { user_id: actor.userId } } } },
    ],
  };
}

/**
 * Standups of the legacy list (GET /v1/standups/, /v1/me/standups). `admin` (honoured only for
 * team admins) widens the list to every standup of the team; archived ones are never listed.
 */
export function v1ListableStandupWhere(actor: Actor, opts: { admin?: boolean } = {}): Prisma.CheckinWhereInput {
  const all = Boolean(opts.admin && actor.isAdmin);
  return {
    team_id: actor.teamId,
    kind: "standup",
    state: { in: ["active", "paused", "draft"] },
    AND: [
      // drafts and confidential ("restricted") standups: creator only
      { OR: [{ owner_id: actor.userId }, { state: { in: [...VISIBLE_STATES] }, is_confidential: false }] },
      ...(all ? [] : [{ OR: [{ owner_id: actor.userId }, { members: { some: { user_id: actor.userId } } }] }]),
    ],
  };
}
