/**
 * Reading standups (spec §2.2, §2.8, §4.2 GET /v2/standups, GET /v2/standups/{id},
 * §4.3 GET /v1/standups/ and /v1/standups/{id}, the dashboard), and the list reads shared with polls
 * (`listCheckins` / `getCheckin`, which lib/domain/polls.ts calls with kind "poll"). Visibility
 * comes from lib/domain/access.ts and is applied in the queries. Lists are keyset-paginated,
 * newest first (created_at desc, id desc); the v2 reads are one statement each whatever the page
 * size (lib/domain/checkin-pages.ts; the v2 API reads render each row as its finished wire JSON
 * text over the same conditions, `checkinListSql` / `checkinReadSql`, in lib/api/v2/standups-sql.ts),
 * the settings reads load members/questions with nested selects.
 */
import { db, type Tx } from "@/lib/db";
import { type CheckinKind, checkinSql, type StandupScope, standupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { checkinViewPage } from "@/lib/domain/checkin-pages";
import { NotFoundError } from "@/lib/domain/errors";
import { questionTypeSelect } from "@/lib/domain/question-types";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The current questions of a standup or poll (not archived), in position order (then id), with
 * the fields of `select`. Used by the v2 and v1 standup/poll selects, starting a standup now
 * (lib/domain/occurrences.ts) and the dashboard's own check-ins (lib/domain/dashboard.ts).
 */
export function currentQuestionsSelect<S extends Prisma.QuestionSelect>(select: S) {
  return {
    where: { archived_at: null },
    select,
    orderBy: [{ position: "asc" }, { id: "asc" }],
  } satisfies Prisma.Checkin$questionsArgs;
}

/** When a standup runs: local time, wait before asking (minutes), timezone and weekdays. */
const standupScheduleSelect = { time: true, wait_time: true, timezone: true, days: true } satisfies Prisma.CheckinSelect;

const fullCheckinViewSelect = {
  id: true,
  kind: true,
  name: true,
  state: true,
  ...standupScheduleSelect,
  is_anonymous: true,
  is_confidential: true,
  created_at: true,
  updated_at: true,
  owner: { select: { chat_id: true } },
  broadcast_channel: { select: { chat_id: true, name: true } },
  members: {
    select: { user: { select: { chat_id: true, username: true, realname: true, email: true } } },
    orderBy: [{ added_at: "asc" }, { user_id: "asc" }],
  },
  questions: currentQuestionsSelect({ id: true, text: true, position: true, ...questionTypeSelect }),
} satisfies Prisma.CheckinSelect;

const { questions: _questions, ...briefCheckinViewSelect } = fullCheckinViewSelect;

type FullCheckinView = Prisma.CheckinGetPayload<{ select: typeof fullCheckinViewSelect }>;

/**
 * A standup or poll as the v2 serializer needs it (lib/api/v2/standups.ts). `questions` is
 * present only when loaded with `withQuestions`.
 */
export type CheckinView = Omit<FullCheckinView, "questions"> & { questions?: FullCheckinView["questions"] };

/**
 * The Prisma select producing a `CheckinView` (standups and polls alike); shared with the poll
 * and write paths so every v2 response is built from the same shape. Typed as either literal
 * select (not the wide `Prisma.CheckinSelect`), so the compiler checks that both payloads are
 * `CheckinView`s and no cast is needed.
 */
export function checkinViewSelect(opts: { withQuestions: boolean }) {
  return opts.withQuestions ? fullCheckinViewSelect : briefCheckinViewSelect;
}

/** Filters of GET /v2/standups and GET /v2/polls (spec §4.1), already validated. */
export type StandupListFilters = {
  /** Subset of active, paused (non-empty). */
  states: Array<"active" | "paused">;
  isAnonymous?: boolean;
  /** Channel chat id (e.g. C0123ABCD) of the broadcast channel. */
  broadcastChannel?: string;
  /** Inclusive lower bound on created. */
  createdSince?: Date;
  /** Exclusive upper bound on created. */
  createdUntil?: Date;
  /** Keyset position: the last item of the previous page. */
  after?: { createdAt: Date; id: number };
  /** Page size; `limit + 1` rows are fetched so the caller can tell whether more exist. */
  limit: number;
  withQuestions: boolean;
};

/**
 * Lists the standups or polls visible to `actor` (`checkinSql` of lib/domain/access.ts, the twin
 * of `checkinWhere`), filtered, newest first (created_at desc, id desc), keyset paginated: the one
 * list query behind `listStandups` and `listPolls` (lib/domain/polls.ts). One statement
 * (lib/domain/checkin-pages.ts).
 * @returns up to `limit + 1` rows (the extra one tells that more exist).
 */
export async function listCheckins(actor: Actor, kind: CheckinKind, filters: StandupListFilters, client: Tx = db): Promise<CheckinView[]> {
  return checkinViewPage(checkinListSql(actor, kind, filters), filters.limit + 1, { withQuestions: filters.withQuestions }, client);
}

/**
 * The SQL condition (over `c`) of the check-ins of `kind` that `filters` select for `actor`, keyset
 * included: the page condition of `listCheckins` and of the v2 lists' wire pages (lib/api/v2/standups-sql.ts).
 */
export function checkinListSql(actor: Actor, kind: CheckinKind, filters: StandupListFilters): Prisma.Sql {
  const and: Prisma.Sql[] = [checkinSql(actor, kind, "c"), Prisma.sql`c.state::text = ANY(${filters.states}::text[])`];
  if (filters.isAnonymous !== undefined) and.push(Prisma.sql`c.is_anonymous = ${filters.isAnonymous}`);
  if (filters.broadcastChannel !== undefined) {
    and.push(Prisma.sql`EXISTS (SELECT 1 FROM channels ch WHERE ch.team_id = c.team_id AND ch.id = c.broadcast_channel_id
      AND ch.chat_id = ${filters.broadcastChannel})`);
  }
  if (filters.createdSince) and.push(Prisma.sql`c.created_at >= ${filters.createdSince}`);
  if (filters.createdUntil) and.push(Prisma.sql`c.created_at < ${filters.createdUntil}`);
  if (filters.after) {
    // Keyset "strictly after (createdAt, id)" in (created_at desc, id desc) order, with the redundant bound.
    const { createdAt, id } = filters.after;
    and.push(Prisma.sql`c.created_at <= ${createdAt} AND (c.created_at < ${createdAt} OR c.id < ${id})`);
  }
  return Prisma.join(and, " AND ");
}

/**
 * One standup or poll visible to `actor` (`checkinSql`): the one read behind `getStandup` and
 * `getPoll` (lib/domain/polls.ts). One statement.
 * @throws NotFoundError ("Standup" / "Poll") for anything not visible.
 */
export async function getCheckin(
  actor: Actor,
  kind: CheckinKind,
  id: number,
  opts: { withQuestions: boolean },
  client: Tx = db,
): Promise<CheckinView> {
  const [row] = await checkinViewPage(checkinReadSql(actor, kind, id), 1, opts, client);
  if (!row) throw new NotFoundError(kind === "poll" ? "Poll" : "Standup");
  return row;
}

/**
 * The SQL condition (over `c`) of standup or poll `id` when visible to `actor` (`checkinSql`): the
 * condition of `getCheckin` and of the v2 `{id}` reads' wire JSON (lib/api/v2/standups-sql.ts).
 */
export function checkinReadSql(actor: Actor, kind: CheckinKind, id: number): Prisma.Sql {
  return Prisma.sql`c.id = ${id} AND ${checkinSql(actor, kind, "c")}`;
}

/**
 * Lists standups visible to `actor` (spec §4.2 GET /v2/standups), newest first.
 * @returns up to `limit + 1` rows (the extra one tells that more exist).
 */
export async function listStandups(actor: Actor, filters: StandupListFilters, client: Tx = db): Promise<CheckinView[]> {
  return listCheckins(actor, "standup", filters, client);
}

/**
 * One standup visible to `actor` (spec §4.2 GET /v2/standups/{id}).
 * @throws NotFoundError for anything not visible: draft/archived, polls, other teams, confidential not owned.
 */
export async function getStandup(actor: Actor, id: number, opts: { withQuestions: boolean }, client: Tx = db): Promise<CheckinView> {
  return getCheckin(actor, "standup", id, opts, client);
}

/** The user fields of a user card (legacy user objects, members, owners, voters; lib/api/v1/users.ts). */
export const userCardSelect = {
  id: true,
  chat_id: true,
  username: true,
  realname: true,
  email: true,
  avatar_url: true,
  is_admin: true,
  is_billing_admin: true,
} satisfies Prisma.UserSelect;

/**
 * Members of a standup or poll as user cards: users not deactivated, in the order they were
 * added. Shared by `standupSettingsSelect` and `pollSettingsSelect` (lib/domain/polls.ts).
 */
export const memberUsersSelect = {
  where: { user: { deactivated_at: null } },
  select: { user: { select: userCardSelect } },
  orderBy: [{ added_at: "asc" }, { user_id: "asc" }],
} satisfies Prisma.Checkin$membersArgs;

/**
 * The Prisma select of a standup with its full settings: sync channel, members as user cards,
 * questions with answer counts (the legacy standup shape, spec §2.8, and the dashboard).
 */
export const standupSettingsSelect = {
  id: true,
  name: true,
  state: true,
  ...standupScheduleSelect,
  sync_channel_members: true,
  is_anonymous: true,
  is_confidential: true,
  personalised: true,
  allow_anonymous_reports: true,
  next_run_at: true,
  reminder_count: true,
  reminder_after_minutes: true,
  response_window_minutes: true,
  late_answer_days: true,
  owner: { select: { id: true, chat_id: true } },
  broadcast_channel: { select: { chat_id: true, name: true } },
  sync_channel: { select: { chat_id: true, name: true } },
  members: memberUsersSelect,
  questions: currentQuestionsSelect({
    id: true,
    text: true,
    position: true,
    ...questionTypeSelect,
    color: true,
    _count: { select: { answers: true } },
  }),
} satisfies Prisma.CheckinSelect;

/** A standup loaded with `standupSettingsSelect`. */
export type StandupSettingsView = Prisma.CheckinGetPayload<{ select: typeof standupSettingsSelect }>;

/**
 * Standups with their settings, by `standupWhere(actor, scope)` (lib/domain/access.ts); the legacy
 * list uses `{ drafts: true, teamWide: admin }`. Ordered by id ascending; not paginated.
 */
export async function listStandupSettings(actor: Actor, scope: StandupScope, client: Tx = db): Promise<StandupSettingsView[]> {
  return client.checkin.findMany({ where: standupWhere(actor, scope), orderBy: { id: "asc" }, select: standupSettingsSelect });
}

/**
 * One standup with its settings that the actor can see or manage: participant, creator, or any
 * team admin; drafts and confidential standups only for their creator; archived never
 * (`standupWhere(actor, { drafts: true, teamWide: true })`); the dashboard passes
 * `teamWide: "readers"` so managers read them too.
 * @throws NotFoundError otherwise.
 */
export async function getStandupSettings(
  actor: Actor,
  id: number,
  client: Tx = db,
  teamWide: StandupScope["teamWide"] = true,
): Promise<StandupSettingsView> {
  const row = await client.checkin.findFirst({
    where: { AND: [{ id }, standupWhere(actor, { drafts: true, teamWide })] },
    select: standupSettingsSelect,
  });
  if (!row) throw new NotFoundError("Standup");
  return row;
}
