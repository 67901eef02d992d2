/**
 * Legacy (v1) poll serializers: the v1 poll (spec §2.8 + compatibility.md "Poll") and the v1 poll
 * results (spec §2.8 "v1 poll results" + compatibility.md "Poll votes"). Rows come from
 * `pollSettingsSelect` / `getPollResultsWithVoters` (lib/domain/polls.ts, lib/domain/votes.ts).
 *
 * Decisions where the spec is silent:
 * - `time` is "HH:MM:SS"; `sync_channel` and `channel` are channel names ("" when none).
 * - `recurrence` is the stored `{type, repeat, every, day, month}` (one-time polls: type "once");
 *   a poll without one is reported as weekly on its days.
 * - `users` (spec §2.8: `id` number), `creator` and the voters of the results are v1 user objects
 *   with the numeric user id (lib/api/v1/users.ts); `intro` is "" when the poll has none.
 * - Results come from the shared `getPollVotes` (lib/domain/votes.ts). `percentage` =
 *   round(100 × votes / answers to that question in that instance), a whole number (0 when
 *   nobody answered); `users` are v1 user objects, [] when the poll is anonymous; open-ended
 *   answers are grouped by identical text; `answer_count` of an instance = answers given in it;
 *   instances and per-date results are newest first.
 */
import { z } from "zod";
import { formatTimeV1 } from "@/lib/api/v1/standups";
import { legacyUserV1Schema, serializeLegacyUserV1, type V1LegacyUser } from "@/lib/api/v1/users";
import { categoryCountSchema, zCount, zId } from "@/lib/api/wire";
import type { PollSettingsView } from "@/lib/domain/polls";
import type { PollResultsWithVoters } from "@/lib/domain/votes";

/** v1 poll (spec §2.8 + compatibility.md "Poll"). */
export const pollV1Schema = z
  .strictObject({
    id: zId,
    name: z.string(),
    time: z.string(),
    timezone: z.string(),
    questions: z.array(
      z.strictObject({
        id: zId,
        text: z.string(),
        answer_type: z.string(),
        answer_choices: z.array(z.string()),
        add_own_options: z.boolean(),
        one_option_limit: z.boolean(),
      }),
    ),
    users: z.array(legacyUserV1Schema),
    recurrence: z
      .strictObject({
        type: z.string().meta({ example: "once" }),
        repeat: z.unknown(),
        every: z.unknown(),
        day: z.unknown(),
        month: z.unknown(),
      })
      .meta({ description: "Inner field types: not shown in the spec." }),
    sync_channel_members: z.boolean(),
    sync_channel: z.string(),
    anonymous: z.boolean(),
    dm_mode: z.boolean(),
    intro: z.string(),
    creator: legacyUserV1Schema,
    users_total: zCount,
    paused: z.boolean(),
    days: z.array(z.string()).meta({ description: "Extension: the poll's schedule days (Mon..Sun)." }),
    channel: z.string().meta({ description: 'Extension: broadcast channel name ("" when none).' }),
    duration: z.number().int().nullable().meta({ description: "Extension: minutes the poll stays open; null when unlimited." }),
  })
  .meta({ id: "PollV1" });

/**
 * v1 poll as `serializePollV1` sends it: the documented shape plus `days`, `channel` and
 * `duration`, which the contract does not name (tests/api/openapi.test.ts KNOWN_DEVIATIONS).
 */
export type V1Poll = z.output<typeof pollV1Schema> & { days: string[]; channel: string; duration: number | null };
export type V1Recurrence = V1Poll["recurrence"];

function recurrenceOf(row: PollSettingsView): V1Recurrence {
  const r = row.recurrence;
  if (r && typeof r === "object" && !Array.isArray(r) && typeof (r as { type?: unknown }).type === "string") {
    const o = r as Record<string, unknown>;
    return { type: o.type as string, repeat: o.repeat ?? null, every: o.every ?? null, day: o.day ?? null, month: o.month ?? null };
  }
  return { type: "weekly", repeat: null, every: 1, day: [...row.days], month: null };
}

/** Serializes a v1 poll loaded with `pollSettingsSelect`. */
export function serializePollV1(row: PollSettingsView): V1Poll {
  return {
    id: row.id,
    name: row.name,
    time: formatTimeV1(row.time),
    timezone: row.timezone,
    days: [...row.days],
    channel: row.broadcast_channel?.name ?? "",
    questions: row.questions.map((q) => ({
      id: q.id,
      text: q.text,
      answer_type: q.answer_type,
      answer_choices: [...q.choices],
      add_own_options: q.add_own_options,
      one_option_limit: q.one_option_limit,
    })),
    users: row.members.map((m) => serializeLegacyUserV1(m.user)),
    recurrence: recurrenceOf(row),
    sync_channel_members: row.sync_channel_members,
    sync_channel: row.sync_channel?.name ?? row.broadcast_channel?.name ?? "",
    anonymous: row.is_anonymous,
    dm_mode: row.dm_mode,
    intro: row.intro ?? "",
    creator: serializeLegacyUserV1(row.owner),
    users_total: row.members.length,
    paused: row.state === "paused",
    duration: row.duration,
  };
}

/** v1 poll results (spec §2.8 "v1 poll results" + compatibility.md "Poll votes"). */
export const pollResultsV1Schema = z
  .strictObject({
    total_results: zCount.meta({ description: "Number of poll instances in the result." }),
    questions: z.array(
      z.strictObject({
        id: zId,
        text: z.string(),
        answer_type: z.string(),
        total_responses: zCount,
        total_responders: zCount,
        categories: z.array(categoryCountSchema),
        results: z.array(
          z.strictObject({
            date: z.string(),
            answers: z.array(
              z.strictObject({
                text: z.string(),
                votes: zCount,
                percentage: z.number().int().min(0).max(100).meta({ description: "Whole number." }),
                users: z.array(legacyUserV1Schema).meta({ description: "Empty when the poll is anonymous." }),
              }),
            ),
          }),
        ),
      }),
    ),
    instances: z.array(
      z.strictObject({
        id: zId,
        date: z.string(),
        answer_count: zCount,
        suppressed: z.literal(true).optional().meta({
          description:
            "Extension (issue 45): present when the poll is anonymous and fewer than the team's anonymity threshold (k) answered this instance; its results then list no answers and count zero.",
        }),
        answers_needed: zCount.optional().meta({
          description: "Extension (issue 45), with `suppressed`: how many more people must answer before the results show.",
        }),
      }),
    ),
  })
  .meta({ id: "PollResultsV1" });

export type V1PollResults = z.output<typeof pollResultsV1Schema>;
export type V1PollAnswer = V1PollResults["questions"][number]["results"][number]["answers"][number];

/** Whole-number share of `votes` in `total` (0 when total is 0). */
export function percentageOf(votes: number, total: number): number {
  return total > 0 ? Math.round((votes / total) * 100) : 0;
}

type InstanceQuestion = PollResultsWithVoters["results"]["instances"][number]["questions"][number];

/** The answers of one question in one instance: choices as they are, open-ended responses grouped by text. */
function answersOf(q: InstanceQuestion, usersById: Map<number, V1LegacyUser>, anonymous: boolean): V1PollAnswer[] {
  const users = (ids: number[]) => (anonymous ? [] : ids.map((id) => usersById.get(id)).filter((u): u is V1LegacyUser => u !== undefined));
  if (q.answerType === "multiple_choice") {
    return (q.choices ?? []).map((c) => ({
      text: c.text,
      votes: c.votes,
      percentage: percentageOf(c.votes, q.totalResponses),
      users: users((c.voters ?? []).map((v) => v.id)),
    }));
  }
  const grouped = new Map<string, number[]>();
  for (const r of q.responses ?? []) {
    const ids = grouped.get(r.text) ?? [];
    if (r.voter) ids.push(r.voter.id);
    else ids.push(-1);
    grouped.set(r.text, ids);
  }
  return [...grouped].map(([text, ids]) => ({
    text,
    votes: ids.length,
    percentage: percentageOf(ids.length, q.totalResponses),
    users: users([...new Set(ids.filter((id) => id > 0))]),
  }));
}

type V1PollQuestionResults = V1PollResults["questions"][number];

/**
 * Serializes the results of GET /v1/polls/{id}/votes. Questions are the poll's current questions
 * in position order — listed with `results: []` and zero totals when no instance in the range has
 * them — then any question only found in the instances (since removed from the poll);
 * `total_responses` / `total_responders` sum the instances in the result; `categories` sum the
 * completed categorizations of open-ended answers.
 */
export function serializePollResultsV1({ results, voters, questions: current }: PollResultsWithVoters): V1PollResults {
  const usersById = new Map(voters.map((v) => [v.id, serializeLegacyUserV1(v)]));
  const anonymous = results.isAnonymous;
  // Insertion order is the answer's order: current questions first, then ones only in the instances.
  const questions = new Map<number, V1PollQuestionResults>();
  const entryOf = (id: number, text: string, answerType: V1PollQuestionResults["answer_type"]) => {
    let out = questions.get(id);
    if (!out) {
      out = { id, text, answer_type: answerType, total_responses: 0, total_responders: 0, categories: [], results: [] };
      questions.set(id, out);
    }
    return out;
  };
  for (const q of current) entryOf(q.id, q.text, q.answer_type);
  for (const instance of results.instances) {
    for (const q of instance.questions) {
      const out = entryOf(q.questionId, q.text, q.answerType);
      out.total_responses += q.totalResponses;
      out.total_responders += q.totalResponders;
      for (const c of q.categories ?? []) {
        const existing = out.categories.find((x) => x.name === c.name);
        if (existing) existing.count += c.count;
        else out.categories.push({ name: c.name, count: c.count });
      }
      out.results.push({ date: instance.date, answers: answersOf(q, usersById, anonymous) });
    }
  }
  return {
    total_results: results.instances.length,
    questions: [...questions.values()],
    instances: results.instances.map((i) => ({
      id: i.id,
      date: i.date,
      answer_count: i.questions.reduce((n, q) => n + q.totalResponses, 0),
      ...(i.answersNeeded > 0 ? { suppressed: true as const, answers_needed: i.answersNeeded } : {}),
    })),
  };
}
