/**
 * Blockers (dashboard, issue 16): answers to "blocker" questions (`questions.is_blocker`) that say
 * something other than "no"/"none", with who reported them, since when (a run of consecutive
 * blocking answers of the same person to the same question), and a resolved marker that the
 * member or a manager (standup creator or team admin) can set.
 *
 * Visibility: the same set as the dashboard's report list (`reportListWhere` with `DASHBOARD_READS`
 * of lib/domain/access.ts): submitted reports of active standups the caller can see, and for admins
 * and managers those of every non-confidential standup. Authors of anonymous reports (or of
 * anonymous standups) are never named, and no "blocked for" run is computed for them (it would
 * link anonymous answers to one person). Anonymous reports below the team's anonymity threshold
 * (lib/domain/anonymity.ts) are left out for everyone but their author.
 */
import { db, queryRows, type Tx } from "@/lib/db";
import { canResolveBlocker, DASHBOARD_READS, reportListWhere, reportStandupWhere } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { anonymousReportShownSql } from "@/lib/domain/anonymity";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * A normalised answer (lower case, letters/digits/'/' and single spaces only) matching this says
 * "no blocker": empty, "-", "No", "None 👍", "No blockers.", "Nothing right now.", "All good!",
 * "Nope, smooth sailing.", "n/a". Used verbatim in SQL (PostgreSQL `~`) and in `isBlockingAnswer`.
 */
export const NO_BLOCKER_PATTERN =
  "^(|no|none|nope|nah|nothing|nil|na|n/a|all good|all clear|not really|not at the moment|nothing new)( (blockers?|issues?|problems?|right now|at the moment|so far|today|for now|smooth sailing|here|thanks|currently|atm))*$";

const NO_BLOCKER_RE = new RegExp(NO_BLOCKER_PATTERN);

/** The normalisation applied before matching `NO_BLOCKER_PATTERN` (mirrors `NORMALISED_SQL`). */
export function normaliseAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s/]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** True when an answer to a blocker question reports an actual blocker (not empty / "no" / "none"). */
export function isBlockingAnswer(text: string): boolean {
  return !NO_BLOCKER_RE.test(normaliseAnswer(text));
}

/** SQL of `normaliseAnswer(a.text)`. */
const NORMALISED_SQL = Prisma.sql`btrim(regexp_replace(regexp_replace(lower(a.text), '[^[:alnum:][:space:]/]', '', 'g'), '\\s+', ' ', 'g'))`;

/** One blocker as the Blockers page and the Overview show it. */
export type BlockerItem = {
  answerId: number;
  reportId: number;
  standupId: number;
  standupName: string;
  questionText: string;
  text: string;
  /** Local date of the occurrence the report answered (UTC midnight of that date). */
  date: Date;
  submittedAt: Date;
  /** null when the report is anonymous. */
  author: { chatId: string; realname: string } | null;
  /** First date of the run of consecutive blocking answers ending here (null when anonymous). */
  blockedSince: Date | null;
  /** Calendar days from `blockedSince` to `date`, inclusive (1 = reported today only). */
  blockedDays: number | null;
  /** True when this is the person's latest answer to the question (a later "no" closes it). */
  latest: boolean;
  resolvedAt: Date | null;
  resolvedBy: string | null;
  /** Whether the actor may set or clear the resolved marker. */
  canResolve: boolean;
};

/** Filters of `listBlockers`. */
export type BlockerFilters = {
  /** "open": latest and not resolved; "resolved": marked resolved; "all": every blocking answer. */
  status: "open" | "resolved" | "all";
  /** Inclusive lower bound on the occurrence date (UTC midnight of a local date). Default: 30 days ago. */
  since?: Date;
  standupId?: number;
  /** Only this author's blockers (chat id); anonymous reports are then skipped. */
  userChatId?: string;
  /** At most this many items (default 200). */
  limit?: number;
  /**
   * Whose standups: "dashboard" (default, `readableStandupIds`: admins and managers read every
   * non-confidential standup) or "api" (the standups the API's report list shows the actor,
   * `reportStandupWhere(actor)`: the MCP server, lib/mcp/tools.ts).
   */
  scope?: "dashboard" | "api";
};

type Row = {
  answer_id: number;
  report_id: number;
  checkin_id: number;
  checkin_name: string;
  question_text: string;
  text: string;
  day: Date;
  submitted_at: Date;
  anonymous: boolean;
  user_id: number;
  chat_id: string;
  realname: string;
  owner_id: number;
  blocking: boolean;
  run_start: Date;
  is_latest: boolean;
  resolved_at: Date | null;
  resolved_by: string | null;
};

/**
 * Ids of the standups whose reports the dashboard lists to the actor (`reportStandupWhere` with
 * `DASHBOARD_READS`: admins and managers read every non-confidential standup): the scope of the
 * Blockers page, the Overview's open-blocker count and the report exports.
 */
export async function readableStandupIds(actor: Actor, client: Tx = db): Promise<number[]> {
  const rows = await client.checkin.findMany({ where: reportStandupWhere(actor, DASHBOARD_READS), select: { id: true } });
  return rows.map((r) => r.id);
}

/**
 * Blockers visible to `actor`, newest first (by occurrence date, then submission time).
 * One SQL query over the answers to blocker questions in the window: runs of consecutive blocking
 * answers per (person, question) are found with window functions (gaps and islands).
 */
export async function listBlockers(actor: Actor, filters: BlockerFilters, client: Tx = db): Promise<BlockerItem[]> {
  const standupIds =
    filters.scope === "api"
      ? (await client.checkin.findMany({ where: reportStandupWhere(actor), select: { id: true } })).map((r) => r.id)
      : await readableStandupIds(actor, client);
  const wanted = filters.standupId === undefined ? standupIds : standupIds.filter((id) => id === filters.standupId);
  if (wanted.length === 0) return [];
  const since = filters.since ?? new Date(Date.now() - 30 * 86_400_000);
  const limit = Math.min(Math.max(filters.limit ?? 200, 1), 1000);
  const rows = await queryRows<Row>(
    Prisma.sql`
    WITH answered AS (
      SELECT a.id AS answer_id, r.id AS report_id, r.checkin_id, c.name AS checkin_name, q.text AS question_text,
             a.text, COALESCE(o.date, (r.submitted_at AT TIME ZONE c.timezone)::date) AS day, r.submitted_at,
             (r.is_anonymous OR c.is_anonymous) AS anonymous, r.user_id, u.chat_id, u.realname, c.owner_id,
             a.question_id, a.blocker_resolved_at AS resolved_at, ru.realname AS resolved_by,
             NOT (${NORMALISED_SQL} ~ ${NO_BLOCKER_PATTERN}) AS blocking
      FROM answers a
      JOIN questions q ON q.id = a.question_id AND q.is_blocker
      JOIN reports r ON r.id = a.report_id AND r.status = 'submitted' AND r.submitted_at IS NOT NULL
      JOIN checkins c ON c.id = r.checkin_id
      JOIN users u ON u.id = r.user_id
      LEFT JOIN occurrences o ON o.id = r.occurrence_id
      LEFT JOIN users ru ON ru.id = a.blocker_resolved_by_id
      WHERE a.team_id = ${actor.teamId} AND r.checkin_id = ANY(${wanted}::int[])
        AND r.submitted_at >= ${since} AND ${anonymousReportShownSql(actor, "r")}
    ), runs AS (
      SELECT *,
        row_number() OVER (PARTITION BY user_id, question_id ORDER BY day, submitted_at)
          - row_number() OVER (PARTITION BY user_id, question_id, blocking ORDER BY day, submitted_at) AS grp,
        row_number() OVER (PARTITION BY user_id, question_id ORDER BY day DESC, submitted_at DESC) = 1 AS is_latest
      FROM answered
    ), marked AS (
      SELECT *, min(day) OVER (PARTITION BY user_id, question_id, blocking, grp) AS run_start FROM runs
    )
    SELECT answer_id, report_id, checkin_id, checkin_name, question_text, text, day, submitted_at, anonymous,
           user_id, chat_id, realname, owner_id, blocking, run_start, is_latest, resolved_at, resolved_by
    FROM marked
    WHERE blocking
      ${filters.status === "open" ? Prisma.sql`AND is_latest AND resolved_at IS NULL` : Prisma.empty}
      ${filters.status === "resolved" ? Prisma.sql`AND resolved_at IS NOT NULL` : Prisma.empty}
      ${filters.userChatId !== undefined ? Prisma.sql`AND chat_id = ${filters.userChatId} AND (NOT anonymous OR user_id = ${actor.userId})` : Prisma.empty}
    ORDER BY day DESC, submitted_at DESC, answer_id DESC
    LIMIT ${limit}`,
    client,
  );
  return rows.map((r) => toItem(actor, r));
}

function toItem(actor: Actor, r: Row): BlockerItem {
  const hidden = r.anonymous && r.user_id !== actor.userId;
  const days = Math.round((r.day.getTime() - r.run_start.getTime()) / 86_400_000) + 1;
  return {
    answerId: r.answer_id,
    reportId: r.report_id,
    standupId: r.checkin_id,
    standupName: r.checkin_name,
    questionText: r.question_text,
    text: r.text,
    date: r.day,
    submittedAt: r.submitted_at,
    author: hidden ? null : { chatId: r.chat_id, realname: r.realname },
    blockedSince: hidden ? null : r.run_start,
    blockedDays: hidden ? null : days,
    latest: r.is_latest,
    resolvedAt: r.resolved_at,
    resolvedBy: r.resolved_by,
    canResolve: canResolveBlocker(actor, { authorId: r.user_id, standupOwnerId: r.owner_id }),
  };
}

/**
 * Sets (`resolved: true`, now) or clears the resolved marker of one blocker answer.
 * @throws NotFoundError when the answer is not a visible answer to a blocker question;
 *   ForbiddenError unless the actor wrote it, created the standup or is a team admin.
 */
export async function setBlockerResolved(
  actor: Actor,
  input: { answerId: number; resolved: boolean },
  client: Tx = db,
): Promise<{ answerId: number; resolvedAt: Date | null }> {
  const answer = await client.answer.findFirst({
    where: { id: input.answerId, team_id: actor.teamId, question: { is_blocker: true }, report: reportListWhere(actor, DASHBOARD_READS) },
    select: { id: true, updated_at: true, report: { select: { user_id: true, checkin: { select: { owner_id: true } } } } },
  });
  if (!answer) throw new NotFoundError("Blocker");
  const { user_id, checkin } = answer.report;
  if (!canResolveBlocker(actor, { authorId: user_id, standupOwnerId: checkin.owner_id })) {
    throw new ForbiddenError("Only the member who reported it, the standup's creator or a team admin can resolve a blocker");
  }
  const resolvedAt = input.resolved ? new Date() : null;
  await client.answer.update({
    where: { id: answer.id },
    // updated_at is kept: resolving is not an edit of the answer (the "(edited)" marker reads it).
    data: { blocker_resolved_at: resolvedAt, blocker_resolved_by_id: input.resolved ? actor.userId : null, updated_at: answer.updated_at },
  });
  return { answerId: answer.id, resolvedAt };
}

/** Ids of the current blocker questions of one standup the actor can see (for the edit form). */
export async function listBlockerQuestionIds(actor: Actor, standupId: number, client: Tx = db): Promise<number[]> {
  const rows = await client.question.findMany({
    where: { team_id: actor.teamId, checkin_id: standupId, is_blocker: true, archived_at: null },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}
