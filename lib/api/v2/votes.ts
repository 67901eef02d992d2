/**
 * v2 poll results at the HTTP edge (spec §2.5, §4.2 GET /v2/polls/{id}/votes): the query schema
 * (since inclusive, until exclusive defaulting to now) and the serializer of lib/domain/votes.ts
 * results. Multiple-choice questions carry `choices`; open-ended ones `categorization_status`,
 * `categories` and `responses`; voters are chat user ids (null when the poll is anonymous).
 *
 * GET /v2/polls/{id}/votes does not call the serializer: PostgreSQL builds the same JSON text
 * (`pollVotesWire` below, checked byte for byte against `serializePollResultsV2` by
 * tests/votes-wire.test.ts, which also checks the route) and the route sends it as it is (issue 14): one statement returns the
 * whole `data` object of the response as text, so Node neither groups nor serializes the rows.
 * Same scope and visibility as `getPollVotes` (lib/domain/votes.ts `pollVotesScopeSql`); the
 * results rules are those of the lib/domain/votes.ts module comment, written in SQL. Closed
 * broadcasts' `questions` are stored in that rendering (`storePollResults`, the `store_poll_results` job).
 */
import { z } from "zod";
import { dataEnvelopeSchema } from "@/lib/api/envelope";
import { zDate } from "@/lib/api/query";
import { categoryCountSchema, zCalendarDate, zChatUserId, zCount, zId } from "@/lib/api/wire";
import { jsonArrayTextSql } from "@/lib/api/wire-sql";
import { db, queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";
import { type PollAccess, type PollResults, type PollVotesFilters, pollVotesScopeSql, type QuestionResult } from "@/lib/domain/votes";
import { Prisma } from "@/lib/generated/prisma/client";

/** Query of GET /v2/polls/{id}/votes. */
export const votesQuerySchema = z.object({ since: zDate.optional(), until: zDate.optional() }).superRefine((q, ctx) => {
  if (q.since && q.until && q.since > q.until)
    ctx.addIssue({ code: "custom", path: ["since"], message: "must not be after until (reversed range)" });
});

const questionResultShape = {
  question_id: zId,
  text: z.string(),
  total_responses: zCount.meta({ description: "Total answers submitted." }),
  total_responders: zCount.meta({ description: "Distinct responders." }),
};

/** Multiple-choice question result (spec §2.5). */
export const multipleChoiceResultV2Schema = z
  .strictObject({
    ...questionResultShape,
    answer_type: z.literal("multiple_choice"),
    choices: z.array(
      z.strictObject({
        text: z.string().meta({ description: "Choice label." }),
        votes: zCount,
        voters: z.array(zChatUserId).nullable().meta({ description: "User ids; null when the poll is anonymous." }),
      }),
    ),
  })
  .meta({ id: "MultipleChoiceResultV2" });

/** Open-ended question result (spec §2.5). */
export const openEndedResultV2Schema = z
  .strictObject({
    ...questionResultShape,
    answer_type: z.literal("open_ended"),
    categorization_status: z.enum(["pending", "processing", "completed", "failed"]).nullable(),
    categories: z.array(categoryCountSchema).optional().meta({ description: "When categorization is completed." }),
    responses: z.array(
      z.strictObject({
        text: z.string(),
        categories: z.array(z.string()).optional().meta({ description: "Categories assigned, when categorization is completed." }),
        user_id: zChatUserId.nullable().meta({ description: "Null when the poll is anonymous." }),
      }),
    ),
  })
  .meta({ id: "OpenEndedResultV2" });

/** v2 poll results (spec §2.5): `data` of GET /v2/polls/{pollId}/votes. */
export const pollResultsV2Schema = z
  .strictObject({
    poll_id: zId,
    poll_name: z.string(),
    is_anonymous: z.boolean(),
    instances: z
      .array(
        z.strictObject({
          instance_id: zId,
          date: zCalendarDate,
          questions: z.array(z.discriminatedUnion("answer_type", [multipleChoiceResultV2Schema, openEndedResultV2Schema])),
          suppressed: z.literal(true).optional().meta({
            description:
              "Extension (issue 45): present when the poll is anonymous and fewer than the team's anonymity threshold (k) answered this instance; every question then shows zero totals and empty lists.",
          }),
          answers_needed: zCount.optional().meta({
            description: "Extension (issue 45), with `suppressed`: how many more people must answer before the results show.",
          }),
        }),
      )
      .meta({ description: "Instances in scope (latest only by default)." }),
  })
  .meta({ id: "PollResultsV2" });

export type V2QuestionResult = z.output<typeof multipleChoiceResultV2Schema> | z.output<typeof openEndedResultV2Schema>;
export type V2PollResults = z.output<typeof pollResultsV2Schema>;
export const pollResultsDataV2Schema = dataEnvelopeSchema(pollResultsV2Schema, "PollResultsDataV2");

function serializeQuestion(q: QuestionResult): V2QuestionResult {
  const head = { question_id: q.questionId, text: q.text };
  const totals = { total_responses: q.totalResponses, total_responders: q.totalResponders };
  if (q.answerType === "multiple_choice") {
    return {
      ...head,
      answer_type: "multiple_choice",
      ...totals,
      choices: (q.choices ?? []).map((c) => ({ text: c.text, votes: c.votes, voters: c.voters ? c.voters.map((v) => v.chatId) : null })),
    };
  }
  return {
    ...head,
    answer_type: "open_ended",
    ...totals,
    categorization_status: q.categorizationStatus ?? null,
    categories: q.categories ?? [],
    responses: (q.responses ?? []).map((r) => ({ text: r.text, categories: r.categories, user_id: r.voter ? r.voter.chatId : null })),
  };
}

/** Serializes poll results (spec §2.5). */
export function serializePollResultsV2(results: PollResults): V2PollResults {
  return {
    poll_id: results.pollId,
    poll_name: results.pollName,
    is_anonymous: results.isAnonymous,
    instances: results.instances.map((i) => ({
      instance_id: i.id,
      date: i.date,
      questions: i.questions.map(serializeQuestion),
      ...(i.answersNeeded > 0 ? { suppressed: true as const, answers_needed: i.answersNeeded } : {}),
    })),
  };
}

/**
 * The JSON text JavaScript prints for the number `Number(n)` (n: a numeric SQL expression).
 * Exact for integers below 1e15 in magnitude and for the other numbers between 1e-4 and 1e15
 * (float8's shortest text, the default extra_float_digits); beyond that PostgreSQL writes an
 * exponent where JavaScript does not (or "e-07" for "e-7"). Values past the double range print
 * "null" (JavaScript: Infinity, written as null) or "0" (instead of a denormal).
 */
function jsNumberSql(n: string): string {
  return `CASE WHEN abs(${n}) < 1e15 AND ${n} = trunc(${n}) THEN trunc(${n})::text
    WHEN abs(${n}) > 1.7976931348623157e308 THEN 'null' WHEN abs(${n}) < 1e-307 THEN '0'
    ELSE (${n})::float8::text END`;
}

/** `String(value)` of a category's `name` (jsonb `e.item->'name'`) for the JSON types it can have; null when absent. */
const CATEGORY_NAME = `CASE jsonb_typeof(e.item->'name') WHEN 'string' THEN e.item->>'name' WHEN 'boolean' THEN e.item->>'name'
    WHEN 'number' THEN ${jsNumberSql("(e.item->>'name')::numeric")} WHEN 'object' THEN '[object Object]' END`;

/** Numerals JavaScript's Number() reads like PostgreSQL's numeric does (decimal, optional sign, exponent, blanks around). */
const DECIMAL_NUMERAL = String.raw`^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$`;

/** The JSON text of `Number(count ?? 0)` of a category's `count` (jsonb `e.item->'count'`). */
const CATEGORY_COUNT = `CASE jsonb_typeof(e.item->'count')
    WHEN 'number' THEN ${jsNumberSql("(e.item->>'count')::numeric")}
    WHEN 'boolean' THEN CASE WHEN (e.item->'count')::boolean THEN '1' ELSE '0' END
    WHEN 'string' THEN CASE WHEN e.item->>'count' ~ '^\\s*$' THEN '0'
      WHEN e.item->>'count' ~ '${DECIMAL_NUMERAL}' THEN ${jsNumberSql("(e.item->>'count')::numeric")} ELSE 'null' END
    WHEN 'object' THEN 'null' WHEN 'array' THEN CASE WHEN jsonb_array_length(e.item->'count') = 0 THEN '0' ELSE 'null' END
    ELSE '0' END`;

/**
 * The `questions` of one broadcast as JSON text (see `pollVotesWire` for the shape and rules): a
 * scalar subquery over `inst` (the occurrence: `inst.id`) and `poll` (`poll.id`,
 * `poll.is_anonymous`), both in scope. Objects are built by `row_to_json` over their leading keys
 * and their trailing arrays spliced in as text, so no part of the (large) text is parsed again.
 * The one implementation of the results: the live read (`pollVotesWire`) and the stored results
 * (`storePollResults`) both use it.
 */
function instanceQuestionsSql(): Prisma.Sql {
  const completed = Prisma.raw(`coalesce(k.status = 'completed', false)`);
  return Prisma.sql`(SELECT '[' || coalesce(string_agg(qw.json, ',' ORDER BY q.position, q.id), '') || ']'
    FROM questions q
      CROSS JOIN LATERAL (SELECT count(*) AS total_responses, count(DISTINCT COALESCE(v.user_id::text, v.voter_hash)) AS total_responders,
          count(v.text) AS responses
        FROM votes v WHERE v.occurrence_id = inst.id AND v.question_id = q.id) t
      LEFT JOIN categorizations k ON k.occurrence_id = inst.id AND k.question_id = q.id
      CROSS JOIN LATERAL (SELECT CASE WHEN q.answer_type = 'multiple_choice' THEN
        (SELECT left(row_to_json(mw)::text, -1) || ',"choices":' ||
            (SELECT ${jsonArrayTextSql("cw", "dc.ord IS NULL, dc.ord, g.first_id")}
              FROM unnest(q.choices) WITH ORDINALITY dc(label, ord)
                FULL JOIN (SELECT v.choice, count(*) AS votes, min(v.id) AS first_id, array_agg(u.chat_id ORDER BY v.id) AS voters
                  FROM votes v LEFT JOIN users u ON u.id = v.user_id
                  WHERE v.occurrence_id = inst.id AND v.question_id = q.id AND v.choice IS NOT NULL
                  GROUP BY v.choice) g ON g.choice = dc.label,
              LATERAL (SELECT CASE WHEN dc.ord IS NULL THEN g.choice ELSE dc.label END AS text, coalesce(g.votes, 0) AS votes,
                  CASE WHEN poll.is_anonymous THEN NULL ELSE coalesce(g.voters, '{}') END AS voters) cw) || '}'
          FROM (SELECT q.id AS question_id, q.text, 'multiple_choice' AS answer_type, t.total_responses, t.total_responders) mw)
      ELSE
        (SELECT left(row_to_json(ow)::text, -1) || ',"categories":' ||
            CASE WHEN ${completed} THEN
              (SELECT ${jsonArrayTextSql("cw", "e.ord")}
                FROM jsonb_array_elements(CASE WHEN jsonb_typeof(k.categories) = 'array' THEN k.categories ELSE '[]' END)
                    WITH ORDINALITY e(item, ord),
                  LATERAL (SELECT ${Prisma.raw(CATEGORY_NAME)} AS name, (${Prisma.raw(CATEGORY_COUNT)})::json AS count) cw
                WHERE jsonb_typeof(e.item) = 'object' AND cw.name <> '')
            ELSE '[]' END || ',"responses":' ||
            (SELECT ${jsonArrayTextSql("rw", "v.id")}
              FROM votes v LEFT JOIN users u ON u.id = v.user_id,
                LATERAL (SELECT v.text, CASE WHEN ${completed} THEN v.categories ELSE '{}'::text[] END AS categories,
                  CASE WHEN poll.is_anonymous THEN NULL ELSE u.chat_id END AS user_id) rw
              WHERE v.occurrence_id = inst.id AND v.question_id = q.id AND v.text IS NOT NULL) || '}'
          FROM (SELECT q.id AS question_id, q.text, 'open_ended' AS answer_type, t.total_responses, t.total_responders,
            coalesce(k.status::text, CASE WHEN t.responses > 0 THEN 'pending' END) AS categorization_status) ow)
      END AS json) qw
    WHERE q.checkin_id = poll.id AND (q.archived_at IS NULL OR t.total_responses > 0))`;
}

/**
 * The `questions` of one broadcast whose results are suppressed by the anonymity threshold
 * (lib/domain/anonymity.ts; the same questions as `instanceQuestionsSql` lists): zero totals, no
 * choices, no categories, no responses, no categorization status. Over `inst` and `poll` in scope.
 */
function suppressedQuestionsSql(): Prisma.Sql {
  return Prisma.sql`(SELECT '[' || coalesce(string_agg(left(row_to_json(sw)::text, -1) ||
        CASE WHEN q.answer_type = 'multiple_choice' THEN ',"choices":[]}' ELSE ',"categorization_status":null,"categories":[],"responses":[]}' END,
        ',' ORDER BY q.position, q.id), '') || ']'
    FROM questions q,
      LATERAL (SELECT q.id AS question_id, q.text,
        CASE WHEN q.answer_type = 'multiple_choice' THEN 'multiple_choice' ELSE 'open_ended' END AS answer_type,
        0 AS total_responses, 0 AS total_responders) sw
    WHERE q.checkin_id = poll.id
      AND (q.archived_at IS NULL OR EXISTS (SELECT 1 FROM votes v WHERE v.occurrence_id = inst.id AND v.question_id = q.id)))`;
}

/**
 * The results of a poll (latest broadcast, or every broadcast in [since, until)) as the exact
 * text of `JSON.stringify(serializePollResultsV2(await getPollVotes(actor, pollId, filters,
 * opts)))` (lib/domain/votes.ts): `{poll_id, poll_name, is_anonymous, instances: [{instance_id, date ("YYYY-MM-DD"),
 * questions}]}`, instances newest first; per instance the poll's questions (position, then id)
 * that are current or have votes in it. A multiple_choice question: `{question_id, text,
 * answer_type, total_responses, total_responders, choices: [{text, votes, voters}]}`, the declared
 * choices in order then the other labels voted in order of their first vote, voters the voters'
 * chat ids in vote order (null when the poll is anonymous). Any other type, as open_ended:
 * `{question_id, text, answer_type, total_responses, total_responders, categorization_status,
 * categories: [{name, count}], responses: [{text, categories, user_id}]}`, the status from the
 * categorization row, else "pending" with responses, else null; categories (the row's, without
 * non-objects and empty names, count defaulting to 0) and each response's categories only when
 * completed; responses in vote order, user_id null when anonymous. Totals: vote rows and distinct
 * voters. Strings go through row_to_json (JSON.stringify's escaping); see `jsNumberSql` for the
 * range of category counts printed exactly. One statement; dates do not depend on the session's
 * TimeZone. A broadcast of an anonymous poll answered by fewer than the team's k people
 * (lib/domain/anonymity.ts) shows each question with zero totals and empty lists, then the
 * extension fields `"suppressed":true,"answers_needed":n`.
 *
 * A closed broadcast's `questions` come from `poll_results` when stored at its current
 * `results_version` (`storePollResults`; the migration's triggers bump the version on every change
 * that alters them), so a year of weekly broadcasts costs one row read each instead of a pass over
 * their votes; any other broadcast (open, never stored, or stored before a change) is computed live.
 * @throws NotFoundError ("Poll") when the poll is not readable with `opts.access` (default
 *   "creator"); InvalidParameterError when since is after until (until defaulting to `opts.now` or now).
 */
export async function pollVotesWire(
  actor: Actor,
  pollId: number,
  filters: PollVotesFilters = {},
  opts: { access?: PollAccess; now?: Date } = {},
  client: Tx = db,
): Promise<string> {
  const [row] = await queryRows<{ json: string }>(
    Prisma.sql`${pollVotesScopeSql(actor, pollId, filters, opts)}
    SELECT left(row_to_json(d)::text, -1) || ',"instances":[' || coalesce(
      (SELECT string_agg('{"instance_id":' || inst.id || ',"date":"' || to_char(inst.date, 'YYYY-MM-DD') || '","questions":' ||
          CASE WHEN inst.answers_needed > 0 THEN ${suppressedQuestionsSql()}
            WHEN inst.closed_at IS NOT NULL AND pr.version = inst.results_version THEN pr.questions
            ELSE ${instanceQuestionsSql()} END ||
          CASE WHEN inst.answers_needed > 0 THEN ',"suppressed":true,"answers_needed":' || inst.answers_needed ELSE '' END
          || '}', ',' ORDER BY inst.date DESC, inst.id DESC)
        FROM inst LEFT JOIN poll_results pr ON pr.team_id = inst.team_id AND pr.occurrence_id = inst.id), '') || ']}' AS json
    FROM poll, LATERAL (SELECT poll.id AS poll_id, poll.name AS poll_name, poll.is_anonymous) d`,
    client,
  );
  if (!row) throw new NotFoundError("Poll");
  return row.json;
}

/**
 * Stores the results of one closed poll broadcast (`poll_results`: its `questions` text as
 * `pollVotesWire` renders it, at the occurrence's `results_version` read in the same statement), so
 * reads stop computing them. Run by the `store_poll_results` job (lib/jobs/tasks.ts), which the
 * database enqueues when a broadcast closes and after any change to its results. A row stored at a
 * newer version is never replaced by an older one. Does nothing for an open broadcast, a standup
 * occurrence or an unknown id.
 * @returns true when a row was written.
 */
export async function storePollResults(occurrenceId: number, client: Tx = db): Promise<boolean> {
  const written = await client.$executeRaw(Prisma.sql`
    INSERT INTO poll_results (team_id, occurrence_id, version, questions)
    SELECT inst.team_id, inst.id, inst.results_version, ${instanceQuestionsSql()}
    FROM occurrences inst JOIN checkins poll ON poll.id = inst.checkin_id AND poll.kind = 'poll'
    WHERE inst.id = ${occurrenceId} AND inst.closed_at IS NOT NULL
    ON CONFLICT (team_id, occurrence_id) DO UPDATE SET version = EXCLUDED.version, questions = EXCLUDED.questions, stored_at = now()
      WHERE poll_results.version <= EXCLUDED.version`);
  return written > 0;
}
