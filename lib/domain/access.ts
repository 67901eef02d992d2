/**
 * Who may see and change what (spec §2.3, §2.4, §3, §4.2, §4.3, §5): every visibility `where`
 * and every permission check of the API and the dashboard, in one place. Rules are Prisma `where`
 * builders applied inside queries (never by filtering rows after loading), so pagination,
 * counts and existence checks all see the same set. Everything is scoped to the actor's team.
 *
 * - Standups, `standupWhere(actor, { drafts, teamWide })`: kind standup; a standup's creator always
 *   sees it; anyone else sees it when it is active or paused, not confidential, and they are a
 *   member — or, with `teamWide` and a team-admin actor, without being a member; with
 *   `teamWide: "readers"` (the dashboard, issue 11 roles) admins AND managers see them so. Drafts (creator
 *   only) are included with `drafts`; archived standups never are. Default (no options): the v2
 *   rule; `{ drafts: true }`: the legacy standup list; `{ drafts: true, teamWide: true }`: the
 *   dashboard, single legacy standups and every standup edit.
 * - Polls, `pollWhere(actor, { participants })`: kind poll, active or paused, created by the actor
 *   (v2) — or, with `participants`, also polls the actor is a member of (legacy endpoints). A team
 *   admin signed in to the dashboard manages every poll (`managesAllPolls`, `canManagePoll`: live
 *   results and their CSV); with an API key the creator rule holds for everyone (issue 40).
 * - Roles (issue 11): admin (everything in the team), manager (reads every non-confidential
 *   standup's reports and participation in the dashboard; creates standups and polls), member.
 *   `canManagePeople` (admins: people, roles, channels, others' keys, audit log) and
 *   `readsTeamWide` (admins and managers) are the two role checks; the API's member rules are
 *   unchanged for every role.
 * - Reports: `reportListWhere` (submitted reports of ACTIVE visible standups; with
 *   `{ teamWide: "readers" }` for admins and managers also every non-confidential standup's) and
 *   `reportReadWhere` (one submitted report: own standup, own report, or member of an active
 *   non-confidential standup), with their SQL twins `reportListSql` and `reportReadSql` for the
 *   one-statement report reads (lib/domain/report-pages.ts).
 * - Channel messages: `channelMessageWhere` (messages about a confidential standup: creator only).
 * - Editing a standup: `canEditStandup` (creator or team admin) and `editableStandup`, which loads,
 *   optionally locks, and checks it.
 * - Blockers (dashboard): `canResolveBlocker` — the member who reported it, the standup's creator
 *   or a team admin may mark a blocker resolved.
 * - SQL twins for the raw statements that build a whole answer in one round trip (participation,
 *   poll votes): `standupSql`, `pollSql`, `checkinSql` select exactly what `standupWhere()` (v2
 *   scope), `pollWhere` and `checkinWhere` select (tests/access-sql.test.ts compares them).
 * - Anonymity: `reportAuthor` — the one rule every rendering of a report uses (API v1/v2, chat
 *   message, dashboard): the stored flag, fixed at submission to "standup anonymous OR report
 *   anonymous", hides the author.
 */
import { queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** Team roles (`users.role`; `users.is_admin` mirrors `role = admin` for the API's `is_admin`). */
export const ROLES = ["admin", "manager", "member"] as const;
export type Role = (typeof ROLES)[number];

/** The actor's role (older actors without `role`: admin when `isAdmin`, else member). */
export function roleOf(actor: Pick<Actor, "isAdmin" | "role">): Role {
  return actor.role ?? (actor.isAdmin ? "admin" : "member");
}

/** Parses a role name. @throws InvalidParameterError for anything else. */
export function parseRole(value: unknown): Role {
  if (typeof value === "string" && (ROLES as readonly string[]).includes(value)) return value as Role;
  throw new InvalidParameterError("role must be admin, manager or member");
}

/** True for admins: invite, change roles, deactivate, manage channels and other people's keys, read the audit log. */
export function canManagePeople(actor: Pick<Actor, "isAdmin" | "role">): boolean {
  return roleOf(actor) === "admin";
}

/** True for admins and managers: read every non-confidential standup of the team in the dashboard. */
export function readsTeamWide(actor: Pick<Actor, "isAdmin" | "role">): boolean {
  const role = roleOf(actor);
  return role === "admin" || role === "manager";
}

/** The states anyone but the creator can see (spec §3). */
export const VISIBLE_STATES = ["active", "paused"] as const;

/** What a check-in read is about: a standup or a poll (the `kind` of a `checkins` row). */
export type CheckinKind = "standup" | "poll";

/** Options of `standupWhere`. */
export type StandupScope = {
  /** Include drafts (their creator only). Default false. */
  drafts?: boolean;
  /**
   * `true`: for team admins, every non-confidential standup of the team, member or not (the v1
   * `admin` flag, single v1 standups, edits). `"readers"`: the same for admins and managers (the
   * dashboard's reads). Default false.
   */
  teamWide?: boolean | "readers";
};

/** True when `scope.teamWide` lets this actor see non-confidential standups they are not in. */
function seesTeamWide(actor: Actor, teamWide: StandupScope["teamWide"]): boolean {
  return teamWide === "readers" ? readsTeamWide(actor) : Boolean(teamWide) && actor.isAdmin;
}

/** Standups (kind standup) the actor can see; see the module comment. */
export function standupWhere(actor: Actor, scope: StandupScope = {}): Prisma.CheckinWhereInput {
  const others: Prisma.CheckinWhereInput = { state: { in: [...VISIBLE_STATES] }, is_confidential: false };
  if (!seesTeamWide(actor, scope.teamWide)) others.members = { some: { user_id: actor.userId } };
  return {
    team_id: actor.teamId,
    kind: "standup",
    state: { in: scope.drafts ? ["active", "paused", "draft"] : [...VISIBLE_STATES] },
    OR: [{ owner_id: actor.userId }, others],
  };
}

/** Polls (kind poll, active or paused) the actor created — or, with `participants`, also takes part in. */
export function pollWhere(actor: Actor, opts: { participants?: boolean } = {}): Prisma.CheckinWhereInput {
  const base: Prisma.CheckinWhereInput = { team_id: actor.teamId, kind: "poll", state: { in: [...VISIBLE_STATES] } };
  if (!opts.participants) return { ...base, owner_id: actor.userId };
  return { ...base, OR: [{ owner_id: actor.userId }, { members: { some: { user_id: actor.userId } } }] };
}

/**
 * The poll `pollId` of the actor's team while it is live (kind poll, active or paused), with no
 * per-actor rule: the callers (ballot, vote, poll overview) check recipient or manager themselves.
 */
export function livePollWhere(actor: Actor, pollId: number): Prisma.CheckinWhereInput {
  return { id: pollId, team_id: actor.teamId, kind: "poll", state: { in: [...VISIBLE_STATES] } };
}

/** The v2 rule of either kind: `standupWhere` for standups, `pollWhere` (creator) for polls. */
export function checkinWhere(actor: Actor, kind: CheckinKind): Prisma.CheckinWhereInput {
  return kind === "poll" ? pollWhere(actor) : standupWhere(actor);
}

/** The dashboard's one reading rule (README "Roles"): admins and managers read every non-confidential standup. */
export const DASHBOARD_READS = { teamWide: "readers" } as const;

/**
 * Standups whose submitted reports lists show: active standups the actor can see; with
 * `{ teamWide: "readers" }` (the dashboard, `DASHBOARD_READS`), for admins and managers also every
 * active or paused non-confidential standup of the team. The one rule behind the report list,
 * blockers, exports and every dashboard count of reports.
 */
export function reportStandupWhere(actor: Actor, opts: { teamWide?: "readers" } = {}): Prisma.CheckinWhereInput {
  const own: Prisma.CheckinWhereInput = { AND: [standupWhere(actor), { state: "active" }] };
  if (!seesTeamWide(actor, opts.teamWide)) return own;
  return { OR: [own, { team_id: actor.teamId, kind: "standup", state: { in: [...VISIBLE_STATES] }, is_confidential: false }] };
}

/**
 * Reports that lists show: submitted reports of the standups of `reportStandupWhere(actor, opts)`
 * (active standups the actor can see; with `{ teamWide: "readers" }`, admins and managers also
 * every active or paused non-confidential standup of the team).
 */
export function reportListWhere(actor: Actor, opts: { teamWide?: "readers" } = {}): Prisma.ReportWhereInput {
  return { team_id: actor.teamId, status: "submitted", submitted_at: { not: null }, checkin: reportStandupWhere(actor, opts) };
}

/**
 * `reportListWhere(actor, opts)` as SQL over the reports alias `r` and its standup's checkins
 * alias `c` (the caller joins `c.id = r.checkin_id`): the rule of the one-statement report pages
 * (lib/domain/report-pages.ts). tests/access-sql.test.ts proves both select the same reports.
 */
export function reportListSql(actor: Actor, opts: { teamWide?: "readers" }, r: string, c: string): Prisma.Sql {
  const [R, C] = [Prisma.raw(`"${r}"`), Prisma.raw(`"${c}"`)];
  const base = Prisma.sql`${R}.team_id = ${actor.teamId} AND ${R}.status = 'submitted' AND ${R}.submitted_at IS NOT NULL`;
  const own = Prisma.sql`(${standupSql(actor, c)} AND ${C}.state = 'active')`;
  if (!seesTeamWide(actor, opts.teamWide)) return Prisma.sql`(${base} AND ${own})`;
  const others = Prisma.sql`(${C}.team_id = ${actor.teamId} AND ${C}.kind = 'standup' AND ${C}.state IN ('active', 'paused') AND NOT ${C}.is_confidential)`;
  return Prisma.sql`(${base} AND (${own} OR ${others}))`;
}

/** `authorFilterWhere(actor)` as SQL over the reports alias `r` and its standup's alias `c`. */
export function authorFilterSql(actor: Actor, r: string, c: string): Prisma.Sql {
  const [R, C] = [Prisma.raw(`"${r}"`), Prisma.raw(`"${c}"`)];
  return Prisma.sql`(${R}.user_id = ${actor.userId} OR (NOT ${R}.is_anonymous AND NOT ${C}.is_anonymous))`;
}

/** `standupWhere(actor)` (the v2 scope) as SQL over the checkins alias `c`. */
export function standupSql(actor: Actor, c: string): Prisma.Sql {
  const a = Prisma.raw(`"${c}"`);
  return Prisma.sql`(${a}.team_id = ${actor.teamId} AND ${a}.kind = 'standup' AND ${a}.state IN ('active', 'paused')
    AND (${a}.owner_id = ${actor.userId}
      OR (NOT ${a}.is_confidential AND EXISTS (SELECT 1 FROM checkin_members vm WHERE vm.checkin_id = ${a}.id AND vm.user_id = ${actor.userId}))))`;
}

/**
 * Whether the actor manages every poll of the team: a team admin signed in to the dashboard (live
 * results, "Ask now", the results CSV from the poll's page). A caller with an API key never does,
 * admin or not: with a key, a poll is visible only to its creator (spec §2.3), the CSV export
 * (`/exports/polls/{id}/results.csv`) included, as in `GET /v2/polls/{id}/votes` (issue 40).
 */
export function managesAllPolls(actor: Pick<Actor, "isAdmin" | "apiKeyId">): boolean {
  return actor.isAdmin && actor.apiKeyId === undefined;
}

/** Whether the actor may manage a poll (see live results, ask again): its creator, or `managesAllPolls`. */
export function canManagePoll(actor: Pick<Actor, "isAdmin" | "userId" | "apiKeyId">, poll: { owner_id: number }): boolean {
  return managesAllPolls(actor) || poll.owner_id === actor.userId;
}

/**
 * `pollWhere(actor, opts)` as SQL over the checkins alias `c`. With `managers`, an actor who
 * `managesAllPolls` (a dashboard admin) reads every poll of the team (`canManagePoll`); others,
 * API keys included, still only their own (or, with `participants`, those they take part in).
 */
export function pollSql(actor: Actor, c: string, opts: { participants?: boolean; managers?: boolean } = {}): Prisma.Sql {
  const a = Prisma.raw(`"${c}"`);
  const who =
    opts.managers && managesAllPolls(actor)
      ? Prisma.sql`TRUE`
      : opts.participants
        ? Prisma.sql`(${a}.owner_id = ${actor.userId} OR EXISTS (SELECT 1 FROM checkin_members vm WHERE vm.checkin_id = ${a}.id AND vm.user_id = ${actor.userId}))`
        : Prisma.sql`${a}.owner_id = ${actor.userId}`;
  return Prisma.sql`(${a}.team_id = ${actor.teamId} AND ${a}.kind = 'poll' AND ${a}.state IN ('active', 'paused') AND ${who})`;
}

/** `checkinWhere(actor, kind)` as SQL over the checkins alias `c`. */
export function checkinSql(actor: Actor, kind: CheckinKind, c: string): Prisma.Sql {
  return kind === "poll" ? pollSql(actor, c) : standupSql(actor, c);
}

/**
 * A single readable report (spec §4.2): submitted, of an active or paused standup of the team, and
 * either the standup is the actor's own, or it is active and non-confidential and the actor is a
 * member or the report's author. Reports of paused or confidential standups are not readable by
 * anyone but the owner, the author included; authors keep their own history in the dashboard.
 */
export function reportReadWhere(actor: Actor): Prisma.ReportWhereInput {
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

/** `reportReadWhere(actor)` as SQL over the reports alias `r` and its standup's checkins alias `c` (GET /v2/reports/{id}). */
export function reportReadSql(actor: Actor, r: string, c: string): Prisma.Sql {
  const [R, C] = [Prisma.raw(`"${r}"`), Prisma.raw(`"${c}"`)];
  const open = Prisma.sql`${C}.state = 'active' AND NOT ${C}.is_confidential`;
  return Prisma.sql`(${R}.team_id = ${actor.teamId} AND ${R}.status = 'submitted' AND ${R}.submitted_at IS NOT NULL
    AND ${C}.team_id = ${actor.teamId} AND ${C}.kind = 'standup' AND ${C}.state IN ('active', 'paused')
    AND (${C}.owner_id = ${actor.userId}
      OR (${open} AND ${R}.user_id = ${actor.userId})
      OR (${open} AND EXISTS (SELECT 1 FROM checkin_members vm WHERE vm.checkin_id = ${C}.id AND vm.user_id = ${actor.userId}))))`;
}

/**
 * The condition every filter by report author adds, so that it never reveals who wrote an
 * anonymous report: the actor's own reports, and otherwise only reports that are not anonymous
 * and whose standup is not anonymous now.
 */
export function authorFilterWhere(actor: Actor): Prisma.ReportWhereInput {
  return { OR: [{ user_id: actor.userId }, { is_anonymous: false, checkin: { is_anonymous: false } }] };
}

/** Channel messages of the team the actor may read: messages about a confidential standup only for its creator. */
export function channelMessageWhere(actor: Actor): Prisma.ChatMessageWhereInput {
  return {
    team_id: actor.teamId,
    OR: [{ checkin_id: null }, { checkin: { is_confidential: false } }, { checkin: { owner_id: actor.userId } }],
  };
}

/**
 * The author of a report as every rendering shows it: `author`, or null when the report is
 * anonymous. The stored `is_anonymous` was fixed at submission to "standup anonymous OR report
 * anonymous" (spec §2.4); making a standup anonymous later does not rewrite past reports.
 */
export function reportAuthor<T>(report: { is_anonymous: boolean }, author: T): T | null {
  return report.is_anonymous ? null : author;
}

/** True when the actor may change a standup: its creator or a team admin. */
export function canEditStandup(actor: Actor, standup: { owner_id: number } | { ownerChatId: string }): boolean {
  if (actor.isAdmin) return true;
  return "owner_id" in standup ? standup.owner_id === actor.userId : standup.ownerChatId === actor.userChatId;
}

/** True when the actor may set or clear the resolved marker of a blocker answer. */
export function canResolveBlocker(actor: Actor, blocker: { authorId: number; standupOwnerId: number }): boolean {
  return actor.isAdmin || blocker.authorId === actor.userId || blocker.standupOwnerId === actor.userId;
}

/** The fields of a standup that edits need, as `editableStandup` returns them. */
const editableStandupSelect = {
  id: true,
  team_id: true,
  owner_id: true,
  state: true,
  time: true,
  timezone: true,
  days: true,
  broadcast_channel_id: true,
  sync_channel_id: true,
  sync_channel_members: true,
} satisfies Prisma.CheckinSelect;

/** A standup loaded by `editableStandup`. */
export type EditableStandup = Prisma.CheckinGetPayload<{ select: typeof editableStandupSelect }>;

/**
 * Loads a standup the actor may edit. With `lock`, the row is first locked (`FOR UPDATE`) so
 * concurrent edits of one standup serialize; visibility is read after the lock, so it reflects any
 * edit that was waiting on it. Visibility is `standupWhere(actor, { drafts: true, teamWide: true })`
 * (never archived).
 * @throws NotFoundError (not visible), ForbiddenError (visible but the actor may not edit it).
 */
export async function editableStandup(tx: Tx, actor: Actor, id: number, opts: { lock?: boolean } = {}): Promise<EditableStandup> {
  if (opts.lock) await tx.$queryRaw`SELECT id FROM checkins WHERE id = ${id} AND team_id = ${actor.teamId} FOR UPDATE`;
  const row = await tx.checkin.findFirst({
    where: { AND: [{ id }, standupWhere(actor, { drafts: true, teamWide: true })] },
    select: editableStandupSelect,
  });
  if (!row) throw new NotFoundError("Standup");
  if (!canEditStandup(actor, row)) throw new ForbiddenError("Only the creator of this standup or a team admin can change it");
  return row;
}

/**
 * The condition (over `r` = reports and `c` = its standup) for the actor's own submitted report of
 * a standup the API can see at all (active or paused): the reports the actor may edit or discard.
 * Reports of draft or archived standups are "not visible" (spec §3, §7).
 */
export function ownSubmittedReportSql(actor: Actor): Prisma.Sql {
  return Prisma.sql`r.team_id = ${actor.teamId} AND r.user_id = ${actor.userId} AND r.status = 'submitted'
    AND c.team_id = r.team_id AND c.kind = 'standup' AND c.state IN ('active', 'paused')`;
}

/**
 * The actor's own submitted report (`ownSubmittedReportSql`), row-locked (`FOR UPDATE`), for
 * editing or discarding.
 * @throws NotFoundError otherwise.
 */
export async function lockOwnSubmittedReport(tx: Tx, actor: Actor, reportId: number): Promise<{ id: number; checkin_id: number }> {
  const rows = await queryRows<{ id: number; checkin_id: number }>(
    Prisma.sql`SELECT r.id, r.checkin_id FROM reports r JOIN checkins c ON c.id = r.checkin_id
    WHERE r.id = ${reportId} AND ${ownSubmittedReportSql(actor)}
    FOR UPDATE OF r`,
    tx,
  );
  if (!rows.length) throw new NotFoundError("Report");
  return rows[0];
}
