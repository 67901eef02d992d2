/**
 * Reading standups (spec §2.2, §2.8, §4.2 GET /v2/standups, GET /v2/standups/{id},
 * GET /v1/standups/ and its alias /v1/me/standups), and the v2 reads shared with polls
 * (`listCheckins` / `getCheckin`, which lib/domain/polls.ts calls with kind "poll"). Visibility
 * comes from lib/domain/visibility.ts and is applied in the queries. Lists are keyset-paginated,
 * newest first (created_at desc, id desc), and load members/questions with nested selects, so the
 * number of SQL queries per call is fixed whatever the page size.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import { type CheckinKind, v1ListableStandupWhere, visibleCheckinWhere } from "@/lib/domain/visibility";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * The current questions of a standup or poll (not archived), in position order (then id), with
 * the fields of `select`. Used by the v2 and v1 standup/poll selects, starting a standup now
 * (lib/domain/standup-admin.ts) and the dashboard's own check-ins (lib/domain/dashboard.ts).
 */
export function currentQuestionsSelect<S extends Prisma.QuestionSelect>(select: S) {
  return {
    where: { archived_at: null },
    select,
    orderBy: [{ position: "asc" }, { id: "asc" }],
  } satisfies Prisma.Checkin$questionsArgs;
}

const fullCheckinViewSelect = {
  id: true,
  kind: true,
  name: true,
  state: true,
  time: true,
  wait_time: true,
  timezone: true,
  days: true,
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
  questions: currentQuestionsSelect({ id: true, text: true, position: true, answer_type: true, choices: true }),
} satisfies Prisma.CheckinSelect;

type FullCheckinView = Prisma.CheckinGetPayload<{ select: typeof fullCheckinViewSelect }>;

/**
 * A standup or poll as the v2 serializer needs it (lib/api/v2/standups.ts). `questions` is
 * present only when loaded with `withQuestions`.
 */
export type CheckinView = Omit<FullCheckinView, "questions"> & { questions?: FullCheckinView["questions"] };

/**
 * The Prisma select producing a `CheckinView` (standups and polls alike); shared with the poll
 * and write paths so every v2 response is built from the same shape.
 */
export function checkinViewSelect(opts: { withQuestions: boolean }): Prisma.CheckinSelect {
  if (opts.withQuestions) return fullCheckinViewSelect;
  const { questions: _questions, ...rest } = fullCheckinViewSelect;
  return rest;
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

/** Keyset condition "strictly after (createdAt, id)" in (created_at desc, id desc) order, with the redundant bound. */
function createdKeyset(after: { createdAt: Date; id: number } | undefined): Prisma.CheckinWhereInput[] {
  if (!after) return [];
  return [{ created_at: { lte: after.createdAt } }, { OR: [{ created_at: { lt: after.createdAt } }, { id: { lt: after.id } }] }];
}

/**
 * Lists the standups or polls visible to `actor` (`visibleCheckinWhere` of
 * lib/domain/visibility.ts), filtered, newest first (created_at desc, id desc), keyset paginated:
 * the one list query behind `listStandups` and `listPolls` (lib/domain/polls.ts).
 * @returns up to `limit + 1` rows (the extra one tells that more exist).
 */
export async function listCheckins(actor: Actor, kind: CheckinKind, filters: StandupListFilters, client: Tx = db): Promise<CheckinView[]> {
  const and: Prisma.CheckinWhereInput[] = [visibleCheckinWhere(actor, kind), { state: { in: filters.states } }];
  if (filters.isAnonymous !== undefined) and.push({ is_anonymous: filters.isAnonymous });
  if (filters.broadcastChannel !== undefined) and.push({ broadcast_channel: { chat_id: filters.broadcastChannel } });
  if (filters.createdSince) and.push({ created_at: { gte: filters.createdSince } });
  if (filters.createdUntil) and.push({ created_at: { lt: filters.createdUntil } });
  and.push(...createdKeyset(filters.after));
  const rows = await client.checkin.findMany({
    where: { AND: and },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: filters.limit + 1,
    select: checkinViewSelect({ withQuestions: filters.withQuestions }),
  });
  return rows as unknown as CheckinView[];
}

/**
 * One standup or poll visible to `actor` (`visibleCheckinWhere`): the one read behind
 * `getStandup` and `getPoll` (lib/domain/polls.ts).
 * @throws NotFoundError ("Standup" / "Poll") for anything not visible.
 */
export async function getCheckin(
  actor: Actor,
  kind: CheckinKind,
  id: number,
  opts: { withQuestions: boolean },
  client: Tx = db,
): Promise<CheckinView> {
  const row = await client.checkin.findFirst({
    where: { AND: [{ id }, visibleCheckinWhere(actor, kind)] },
    select: checkinViewSelect(opts),
  });
  if (!row) throw new NotFoundError(kind === "poll" ? "Poll" : "Standup");
  return row as unknown as CheckinView;
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

/** The user fields a legacy (v1) user object is built from (lib/api/v1/users.ts): members, owners, voters. */
export const userV1Select = {
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
 * Members of a standup or poll as the legacy (v1) shapes list them: users not deactivated, in
 * the order they were added, with `userV1Select`. Shared by `standupV1Select` and `pollV1Select`.
 */
export const membersV1Select = {
  where: { user: { deactivated_at: null } },
  select: { user: { select: userV1Select } },
  orderBy: [{ added_at: "asc" }, { user_id: "asc" }],
} satisfies Prisma.Checkin$membersArgs;

/** The Prisma select of a legacy (v1) standup (spec §2.8, compatibility.md "Standup"). */
export const standupV1Select = {
  id: true,
  name: true,
  state: true,
  time: true,
  wait_time: true,
  timezone: true,
  days: true,
  sync_channel_members: true,
  is_anonymous: true,
  is_confidential: true,
  personalised: true,
  owner: { select: { id: true, chat_id: true } },
  broadcast_channel: { select: { chat_id: true, name: true } },
  sync_channel: { select: { chat_id: true, name: true } },
  members: membersV1Select,
  questions: currentQuestionsSelect({
    id: true,
    text: true,
    position: true,
    answer_type: true,
    choices: true,
    color: true,
    _count: { select: { answers: true } },
  }),
} satisfies Prisma.CheckinSelect;

/** A standup loaded with `standupV1Select`. */
export type StandupV1View = Prisma.CheckinGetPayload<{ select: typeof standupV1Select }>;

/**
 * Standups of the legacy list (GET /v1/standups/, GET /v1/me/standups): the ones the caller
 * participates in or created; with `admin` (team admins only; ignored otherwise) every standup of
 * the team. Drafts and confidential standups only when the caller created them; archived never.
 * Ordered by id ascending; not paginated (the legacy shape is a bare array).
 */
export async function listStandupsForV1(actor: Actor, opts: { admin?: boolean } = {}, client: Tx = db): Promise<StandupV1View[]> {
  return client.checkin.findMany({
    where: v1ListableStandupWhere(actor, opts),
    orderBy: { id: "asc" },
    select: standupV1Select,
  });
}
