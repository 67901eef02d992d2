/**
 * Poll results (spec §2.5, §4.2 GET /v2/polls/{id}/votes; §4.3 GET /v1/polls/{id}/votes).
 *
 * Scope: without `since`/`until` only the latest broadcast (occurrence by date desc, id desc);
 * with either bound every broadcast whose date D overlaps [since, until) — D >= day(since) and
 * D < ceil-day(until), `until` defaulting to now (so today's broadcast is included). Instances
 * are returned newest first.
 *
 * Per question of each instance:
 * - total_responses = vote rows (a multiple-choice voter picking two options counts twice);
 *   total_responders = distinct voters;
 * - multiple_choice: every choice of the question (then any other label voted, e.g. an own
 *   option) with its vote count and voters (null when the poll is anonymous);
 * - other answer types are reported as open_ended: `categorization_status` from the
 *   categorization row of (instance, question); with no row it is `pending` when there are
 *   responses (categorization has not picked them up yet) and null otherwise; `categories`
 *   ([{name, count}]) and each response's `categories` are filled only when the status is
 *   `completed` (empty arrays otherwise); a response's voter is null when the poll is anonymous.
 *
 * - anonymity threshold (issue 45, lib/domain/anonymity.ts): a broadcast of an anonymous poll
 *   answered by fewer than the team's k people shows no results (`answersNeeded` > 0).
 *
 * Cost: ONE SQL statement whatever the number of instances: the poll (gated by the visibility
 * rule in SQL), its questions, the instances and, for all instances at once, totals, choices,
 * responses and categorizations, each aggregated to JSON by PostgreSQL. GET /v2/polls/{id}/votes
 * reads the same results as finished wire JSON instead (lib/api/v2/votes.ts, same scope:
 * `pollVotesScopeSql`); v1 and the dashboard use `getPollVotes`.
 */
import { db, queryRows, type Tx } from "@/lib/db";
import { pollSql as accessiblePollSql } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { answersNeededSql } from "@/lib/domain/anonymity";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { utcCeilDay, utcDay } from "@/lib/domain/participation";
import type { userCardSelect } from "@/lib/domain/standups";
import { type CategorizationStatus, Prisma } from "@/lib/generated/prisma/client";

/** Time filter of the results. Neither bound: the latest broadcast only. */
export type PollVotesFilters = { since?: Date; until?: Date };

/** A voter as a user card (lib/domain/standups.ts `userCardSelect`). */
export type PollVoter = Prisma.UserGetPayload<{ select: typeof userCardSelect }>;

/** A voter: numeric id (v1 places) and chat id (v2 places). */
export type VoterRef = { id: number; chatId: string };

export type ChoiceResult = { text: string; votes: number; voters: VoterRef[] | null };
export type ResponseResult = { text: string; categories: string[]; voter: VoterRef | null };

/** Result of one question in one instance. MC fields or open-ended fields are set, per `answerType`. */
export type QuestionResult = {
  questionId: number;
  text: string;
  answerType: "multiple_choice" | "open_ended";
  totalResponses: number;
  totalResponders: number;
  choices?: ChoiceResult[];
  categorizationStatus?: CategorizationStatus | null;
  categories?: Array<{ name: string; count: number }>;
  /** How the categorization was made ("offline", "model:<name>", "seed"); null before it ran. */
  categorizationEngine?: string | null;
  /** Reason of the last failure, or of a fallback from the model to offline. */
  categorizationError?: string | null;
  responses?: ResponseResult[];
};

/**
 * Results of one broadcast. `answersNeeded` > 0 (anonymous poll answered by fewer than the team's k,
 * lib/domain/anonymity.ts): the results are suppressed — each question has zero totals and no
 * choices, categories or responses — and this many more people must answer before they show.
 */
export type PollInstanceResult = { id: number; date: string; questions: QuestionResult[]; answersNeeded: number };

/** A current (non-archived) question of a poll, in position order. */
export type PollQuestionRef = { id: number; text: string; answer_type: string };

/**
 * Results of a poll; `currentQuestions` are the poll's non-archived questions in position order
 * (from the same query as the poll), so callers can list every question even when no instance
 * has it.
 */
export type PollResults = {
  /** With `withVoterProfiles`: the profile (v1 user fields) of everyone who voted in the instances. */
  voterProfiles?: PollVoter[];
  pollId: number;
  pollName: string;
  isAnonymous: boolean;
  currentQuestions: PollQuestionRef[];
  instances: PollInstanceResult[];
};

/**
 * Who may read the results: "creator" (v2: a poll is visible only to its creator),
 * "creator_or_member" (legacy endpoints: also polls the user participates in) or "manager" (the
 * dashboard and the results CSV: the creator or a team admin signed in to the dashboard; with an API
 * key the creator only, lib/domain/access.ts `managesAllPolls`). All: the team's active/paused polls.
 */
export type PollAccess = "creator" | "creator_or_member" | "manager";

/** The SQL visibility rule of `access`; "manager" is the creator or a dashboard team admin (live results). */
function pollSql(actor: Actor, access: PollAccess): Prisma.Sql {
  return accessiblePollSql(actor, "c", { participants: access === "creator_or_member", managers: access === "manager" });
}

/**
 * The scope of a poll's results as the two CTEs every results statement starts with (getPollVotes,
 * lib/api/v2/votes.ts `pollVotesWire`): `poll` (id, name, is_anonymous; no row when the
 * poll is not readable by `actor` with `opts.access`, default "creator") and `inst` (id, date,
 * team_id, closed_at, results_version, answers_needed (lib/domain/anonymity.ts) of the instances in scope, see the module comment: the latest broadcast without bounds, else the
 * dates in [day(since), ceil-day(until)) with `until` defaulting to `opts.now` or now; newest first).
 * @returns SQL text starting with `WITH`, to be followed by the statement's SELECT.
 * @throws InvalidParameterError when since is after until (until defaulting to now).
 */
export function pollVotesScopeSql(
  actor: Actor,
  pollId: number,
  filters: PollVotesFilters,
  opts: { access?: PollAccess; now?: Date },
): Prisma.Sql {
  const ranged = filters.since !== undefined || filters.until !== undefined;
  const until = filters.until ?? opts.now ?? new Date();
  if (filters.since && filters.since.getTime() > until.getTime()) {
    throw new InvalidParameterError(
      filters.until ? "since must not be after until (reversed range)" : "since must not be in the future (until defaults to now)",
    );
  }
  const conditions: Prisma.Sql[] = [];
  if (ranged) {
    if (filters.since) conditions.push(Prisma.sql`o.date >= ${utcDay(filters.since)}::date`);
    conditions.push(Prisma.sql`o.date < ${utcCeilDay(until)}::date`);
  }
  return Prisma.sql`WITH poll AS MATERIALIZED (
      SELECT c.id, c.name, c.is_anonymous FROM checkins c WHERE c.id = ${pollId} AND ${pollSql(actor, opts.access ?? "creator")}
    ),
    inst AS MATERIALIZED (
      SELECT o.id, o.date, o.team_id, o.closed_at, o.results_version,
        ${answersNeededSql(Prisma.sql`poll.is_anonymous`, Prisma.sql`o.id`, Prisma.sql`o.team_id`)} AS answers_needed
      FROM occurrences o JOIN poll ON o.checkin_id = poll.id
      ${conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty}
      ORDER BY o.date DESC, o.id DESC
      ${ranged ? Prisma.empty : Prisma.sql`LIMIT 1`}
    )`;
}

type PollQuestionRow = { id: number; text: string; answer_type: string; choices: string[]; archived_at: string | null };
/** The first row of the statement (kind 0): everything but the open-ended responses, as JSON. */
type VotesHeader = {
  poll: { id: number; name: string; is_anonymous: boolean } | null;
  questions: PollQuestionRow[];
  instances: Array<{ id: number; date: string; answers_needed: number }>;
  totals: Array<{ occurrence_id: number; question_id: number; responses: number; responders: number }>;
  choices: Array<{
    occurrence_id: number;
    question_id: number;
    choice: string;
    votes: number;
    voter_ids: number[];
    voter_chat_ids: string[];
  }>;
  categorizations: Array<{
    occurrence_id: number;
    question_id: number;
    status: CategorizationStatus;
    categories: unknown;
    engine: string | null;
    error: string | null;
  }>;
  voters: PollVoter[] | null;
};
/** The rows after it (kind 1): one open-ended response each, in vote order (plain columns: cheaper than JSON). */
type ResponseRow = { occurrence_id: number; question_id: number; text: string; categories: string[]; user_id: number; chat_id: string };
type VotesRow = ResponseRow & { kind: number; header: VotesHeader | null };

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

function parseCategories(value: unknown): Array<{ name: string; count: number }> {
  if (!Array.isArray(value)) return [];
  return value
    .filter((c): c is { name: unknown; count: unknown } => typeof c === "object" && c !== null)
    .map((c) => ({ name: String(c.name ?? ""), count: Number(c.count ?? 0) }))
    .filter((c) => c.name);
}

/** A question of a suppressed broadcast (anonymity threshold): zero totals, nothing listed. */
function suppressedResult(q: PollQuestionRow): QuestionResult {
  const common = { questionId: q.id, text: q.text, totalResponses: 0, totalResponders: 0 };
  if (q.answer_type === "multiple_choice") return { ...common, answerType: "multiple_choice", choices: [] };
  return {
    ...common,
    answerType: "open_ended",
    categorizationStatus: null,
    categories: [],
    categorizationEngine: null,
    categorizationError: null,
    responses: [],
  };
}

/**
 * Results of a poll for the latest broadcast or a date range (see the module comment).
 * @throws NotFoundError when the poll is not readable with `access`; InvalidParameterError when
 *   since is after until (until defaulting to now).
 */
export async function getPollVotes(
  actor: Actor,
  pollId: number,
  filters: PollVotesFilters = {},
  opts: { access?: PollAccess; now?: Date; withVoterProfiles?: boolean } = {},
  client: Tx = db,
): Promise<PollResults> {
  const rows = await queryRows<VotesRow>(
    Prisma.sql`
    ${pollVotesScopeSql(actor, pollId, filters, opts)}
    SELECT 0 AS kind, 0 AS ord, json_build_object(
      'poll', (SELECT row_to_json(poll) FROM poll),
      'questions', (SELECT coalesce(json_agg(json_build_object('id', q.id, 'text', q.text, 'answer_type', q.answer_type,
          'choices', q.choices, 'archived_at', q.archived_at) ORDER BY q.position, q.id), '[]')
        FROM questions q JOIN poll ON q.checkin_id = poll.id),
      'instances', (SELECT coalesce(json_agg(json_build_object('id', inst.id, 'date', to_char(inst.date, 'YYYY-MM-DD'), 'answers_needed', inst.answers_needed)
          ORDER BY inst.date DESC, inst.id DESC), '[]') FROM inst),
      'totals', (SELECT coalesce(json_agg(t), '[]') FROM (
          SELECT occurrence_id, question_id, count(*) AS responses, count(DISTINCT COALESCE(user_id::text, voter_hash)) AS responders
          FROM votes WHERE occurrence_id = ANY(ARRAY(SELECT id FROM inst)) GROUP BY occurrence_id, question_id) t),
      'choices', (SELECT coalesce(json_agg(ch ORDER BY ch.first_id), '[]') FROM (
          SELECT v.occurrence_id, v.question_id, v.choice, count(*) AS votes, min(v.id) AS first_id,
                 array_agg(v.user_id ORDER BY v.id) AS voter_ids, array_agg(u.chat_id ORDER BY v.id) AS voter_chat_ids
          FROM votes v LEFT JOIN users u ON u.id = v.user_id WHERE v.occurrence_id = ANY(ARRAY(SELECT id FROM inst)) AND v.choice IS NOT NULL
          GROUP BY v.occurrence_id, v.question_id, v.choice) ch),
      'categorizations', (SELECT coalesce(json_agg(json_build_object('occurrence_id', k.occurrence_id, 'question_id', k.question_id,
          'status', k.status, 'categories', k.categories, 'engine', k.engine, 'error', k.error)), '[]')
        FROM categorizations k WHERE k.occurrence_id = ANY(ARRAY(SELECT id FROM inst))),
      'voters', ${
        opts.withVoterProfiles
          ? Prisma.sql`(SELECT coalesce(json_agg(json_build_object('id', u.id, 'chat_id', u.chat_id, 'username', u.username,
              'realname', u.realname, 'email', u.email, 'avatar_url', u.avatar_url, 'is_admin', u.is_admin,
              'is_billing_admin', u.is_billing_admin) ORDER BY u.id), '[]')
            FROM users u WHERE u.team_id = ${actor.teamId}
              AND u.id IN (SELECT v.user_id FROM votes v WHERE v.occurrence_id = ANY(ARRAY(SELECT id FROM inst))))`
          : Prisma.sql`NULL::json`
      }
    ) AS header,
      NULL::int AS occurrence_id, NULL::int AS question_id, NULL::text AS text, NULL::text[] AS categories, NULL::int AS user_id, NULL::text AS chat_id
    UNION ALL
    SELECT 1, v.id, NULL, v.occurrence_id, v.question_id, v.text, v.categories, v.user_id, u.chat_id
    FROM votes v LEFT JOIN users u ON u.id = v.user_id WHERE v.occurrence_id = ANY(ARRAY(SELECT id FROM inst)) AND v.text IS NOT NULL
    ORDER BY kind, ord`,
    client,
  );
  const header = rows[0]?.header;
  const poll = header?.poll;
  if (!header || !poll) throw new NotFoundError("Poll");
  const questionsOfPoll = header.questions;
  const base = {
    ...(opts.withVoterProfiles ? { voterProfiles: header.voters ?? [] } : {}),
    pollId: poll.id,
    pollName: poll.name,
    isAnonymous: poll.is_anonymous,
    currentQuestions: questionsOfPoll
      .filter((q) => q.archived_at === null)
      .map((q) => ({ id: q.id, text: q.text, answer_type: q.answer_type })),
  };
  const instances = header.instances;
  if (!instances.length) return { ...base, instances: [] };
  const { totals, choices: choiceRows, categorizations } = header;
  const responseRows: ResponseRow[] = rows.slice(1);

  const key = (o: number, q: number) => `${o}:${q}`;
  const totalBy = new Map(totals.map((t) => [key(t.occurrence_id, t.question_id), t]));
  const choicesBy = groupBy(choiceRows, (c) => key(c.occurrence_id, c.question_id));
  const responsesBy = groupBy(responseRows, (r) => key(r.occurrence_id, r.question_id));
  const categorizationBy = new Map(categorizations.map((c) => [key(c.occurrence_id, c.question_id), c]));
  const anonymous = poll.is_anonymous;

  return {
    ...base,
    instances: instances.map((instance) => {
      const questions = questionsOfPoll.filter((q) => q.archived_at === null || totalBy.has(key(instance.id, q.id)));
      const answersNeeded = Number(instance.answers_needed);
      if (answersNeeded > 0) return { id: instance.id, date: instance.date, questions: questions.map(suppressedResult), answersNeeded };
      return {
        id: instance.id,
        date: instance.date,
        answersNeeded: 0,
        questions: questions.map((q): QuestionResult => {
          const k = key(instance.id, q.id);
          const total = totalBy.get(k);
          const common = {
            questionId: q.id,
            text: q.text,
            totalResponses: Number(total?.responses ?? 0),
            totalResponders: Number(total?.responders ?? 0),
          };
          if (q.answer_type === "multiple_choice") {
            const voted = new Map((choicesBy.get(k) ?? []).map((c) => [c.choice, c]));
            const labels = [...q.choices, ...[...voted.keys()].filter((label) => !q.choices.includes(label))];
            return {
              ...common,
              answerType: "multiple_choice",
              choices: labels.map((label) => {
                const row = voted.get(label);
                return {
                  text: label,
                  votes: Number(row?.votes ?? 0),
                  voters: anonymous ? null : (row?.voter_ids ?? []).map((id, i) => ({ id, chatId: row?.voter_chat_ids[i] ?? "" })),
                };
              }),
            };
          }
          const responses = responsesBy.get(k) ?? [];
          const categorization = categorizationBy.get(k);
          const status: CategorizationStatus | null = categorization?.status ?? (responses.length ? "pending" : null);
          const completed = status === "completed";
          return {
            ...common,
            answerType: "open_ended",
            categorizationStatus: status,
            categories: completed ? parseCategories(categorization?.categories) : [],
            categorizationEngine: categorization?.engine ?? null,
            categorizationError: categorization?.error ?? null,
            responses: responses.map((r) => ({
              text: r.text,
              categories: completed ? [...r.categories] : [],
              voter: anonymous ? null : { id: r.user_id, chatId: r.chat_id },
            })),
          };
        }),
      };
    }),
  };
}

/**
 * Results of a poll with its voters (GET /v1/polls/{id}/votes): the shared results, the voters' user rows, and the
 * poll's current questions (so each is listed even when no instance falls in the range).
 */
export type PollResultsWithVoters = { results: PollResults; voters: PollVoter[]; questions: PollQuestionRef[] };

/** Start of the "every instance" range (no date is earlier). */
const BEGINNING = new Date(Date.UTC(1970, 0, 1));

/**
 * Results of a poll the caller takes part in or created, computed by `getPollVotes` (as GET
 * /v2/polls/{id}/votes) over the instances whose date falls in [from, to) — every instance up to
 * today when neither bound is given (the legacy endpoint has no "latest only" default) — with the
 * user cards of every voter from the same statement (`withVoterProfiles`); the poll's current
 * questions come with the results (`currentQuestions`).
 * @throws NotFoundError, InvalidParameterError (reversed range).
 */
export async function getPollResultsWithVoters(
  actor: Actor,
  id: number,
  range: { from?: Date; to?: Date },
  client: Tx = db,
): Promise<PollResultsWithVoters> {
  const now = new Date();
  // A `from` in the future with no `to` is an empty range here, not a reversed one.
  const until = range.to ?? (range.from && range.from.getTime() > now.getTime() ? range.from : undefined);
  const { voterProfiles, ...results } = await getPollVotes(
    actor,
    id,
    { since: range.from ?? BEGINNING, until },
    { access: "creator_or_member", now, withVoterProfiles: true },
    client,
  );
  return { results, voters: voterProfiles ?? [], questions: results.currentQuestions };
}
