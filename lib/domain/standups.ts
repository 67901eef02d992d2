/**
 * Reading standups (spec §2.2, §2.8, §4.2 GET /v2/standups, GET /v2/standups/{id},
 * GET /v1/standups/ and its alias /v1/me/standups). Visibility comes from lib/domain/visibility.ts
 * and is applied in the queries. Lists are keyset-paginated, newest first (created_at desc, id
 * desc), and load members/questions with nested selects, so the number of SQL queries per call is
 * fixed whatever the page size.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import { v1ListableStandupWhere, visibleStandupWhere } from "@/lib/domain/visibility";
import type { Prisma } from "@/lib/generated/prisma/client";

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
  questions: {
    where: { archived_at: null },
    select: { id: true, text: true, position: true, answer_type: true, choices: true },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  },
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

/** Filters of GET /v2/standups (spec §4.1), already validated. */
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
 * Lists standups visible to `actor` (spec §4.2 GET /v2/standups), newest first.
 * @returns up to `limit + 1` rows (the extra one tells that more exist).
 */
export async function listStandups(actor: Actor, filters: StandupListFilters, client: Tx = db): Promise<CheckinView[]> {
  const and: Prisma.CheckinWhereInput[] = [visibleStandupWhere(actor), { state: { in: filters.states } }];
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
 * One standup visible to `actor` (spec §4.2 GET /v2/standups/{id}).
 * @throws NotFoundError for anything not visible: draft/archived, polls, other teams, confidential not owned.
 */
export async function getStandup(actor: Actor, id: number, opts: { withQuestions: boolean }, client: Tx = db): Promise<CheckinView> {
  const row = await client.checkin.findFirst({
    where: { AND: [{ id }, visibleStandupWhere(actor)] },
    select: checkinViewSelect(opts),
  });
  if (!row) throw new NotFoundError("Standup");
  return row as unknown as CheckinView;
}

const userV1Select = {
  id: true,
  chat_id: true,
  username: true,
  realname: true,
  email: true,
  avatar_url: true,
  is_admin: true,
  is_billing_admin: true,
} satisfies Prisma.UserSelect;

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
  members: {
    where: { user: { deactivated_at: null } },
    select: { user: { select: userV1Select } },
    orderBy: [{ added_at: "asc" }, { user_id: "asc" }],
  },
  questions: {
    where: { archived_at: null },
    select: { id: true, text: true, position: true, answer_type: true, choices: true, color: true, _count: { select: { answers: true } } },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  },
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
