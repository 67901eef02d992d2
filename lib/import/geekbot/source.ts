/**
 * The records an import reads from a Geekbot-compatible source (issue 43), parsed leniently:
 * only the fields the import uses are checked, unknown fields are ignored, and user ids arrive as
 * strings or numbers (Geekbot mixes them: chat ids in teams/standups/reports, numbers in polls).
 * Endpoints: `/v1/me`, `/v1/teams/`, `/v1/standups/?admin=true`, `/v1/reports/` (paged backwards by
 * `before`, limit 100), `/v1/polls`, `/v1/polls/{id}/votes`, and `/v2/standups?include=...` where the
 * source has it (channel chat ids, state; absent on older servers: 404 is fine).
 */
import { z } from "zod";
import type { SourceClient } from "@/lib/import/geekbot/client";
import { SourceResponseError } from "@/lib/import/geekbot/client";

const zIdString = z.union([z.string(), z.number()]).transform(String);
const zText = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

/** A person as the source shows one (team users, standup users, poll users and voters). */
export const sourceUserSchema = z.looseObject({
  id: zIdString,
  email: z.string().nullish(),
  username: zText,
  realname: zText,
  role: z.string().nullish(),
  profile_img: z.string().nullish(),
});
export type SourceUser = z.output<typeof sourceUserSchema>;

export const sourceMeSchema = z.looseObject({
  user: z.looseObject({ id: zIdString, email: z.string().nullish() }),
  team: z.looseObject({ id: zIdString, name: z.string() }),
});

export const sourceTeamSchema = z.looseObject({ id: zIdString, name: z.string(), users: z.array(sourceUserSchema).default([]) });

export const sourceQuestionSchema = z.looseObject({
  id: zIdString,
  text: zText,
  answer_type: z.string().nullish(),
  answer_choices: z.array(z.string()).nullish(),
  color: z.string().nullish(),
  add_own_options: z.boolean().nullish(),
  one_option_limit: z.boolean().nullish(),
});
export type SourceQuestion = z.output<typeof sourceQuestionSchema>;

/** The fields a standup and a poll of the source share: schedule, channel, questions, members, flags. */
const sourceCheckinShape = {
  id: zIdString,
  name: z.string(),
  time: z.string().nullish(),
  timezone: z.string().nullish(),
  days: z.array(z.string()).nullish(),
  channel: z.string().nullish(),
  questions: z.array(sourceQuestionSchema).default([]),
  users: z.array(sourceUserSchema).default([]),
  anonymous: z.boolean().nullish(),
  paused: z.boolean().nullish(),
};

export const sourceStandupSchema = z.looseObject({
  ...sourceCheckinShape,
  wait_time: z.number().nullish(),
  master: zIdString.nullish(),
  personalised: z.boolean().nullish(),
  confidential: z.boolean().nullish(),
  draft: z.boolean().nullish(),
  sync_channel_members: z.boolean().nullish(),
});
export type SourceStandup = z.output<typeof sourceStandupSchema>;

/** What `/v2/standups` adds: the channel's chat id and the member e-mails. */
export const sourceStandupV2Schema = z.looseObject({
  id: zIdString,
  broadcast_channel: z.looseObject({ id: zIdString, name: z.string() }).nullish(),
  members: z.array(z.looseObject({ id: zIdString, email: z.string().nullish() })).nullish(),
});
export type SourceStandupV2 = z.output<typeof sourceStandupV2Schema>;

export const sourceReportSchema = z.looseObject({
  id: zIdString,
  standup_id: zIdString,
  timestamp: z.number(),
  is_anonymous: z.boolean().nullish(),
  is_confidential: z.boolean().nullish(),
  member: z.looseObject({ id: zIdString, username: zText, realname: zText }).nullish(),
  questions: z
    .array(z.looseObject({ id: zIdString.nullish(), question: zText, question_id: zIdString, answer: zText, color: z.string().nullish() }))
    .default([]),
});
export type SourceReport = z.output<typeof sourceReportSchema>;

export const sourcePollSchema = z.looseObject({
  ...sourceCheckinShape,
  recurrence: z.record(z.string(), z.unknown()).nullish(),
  intro: z.string().nullish(),
  creator: sourceUserSchema.nullish(),
});
export type SourcePoll = z.output<typeof sourcePollSchema>;

export const sourcePollVotesSchema = z.looseObject({
  questions: z
    .array(
      z.looseObject({
        id: zIdString,
        results: z
          .array(
            z.looseObject({
              date: z.string(),
              answers: z
                .array(z.looseObject({ text: zText, votes: z.number().default(0), users: z.array(sourceUserSchema).nullish() }))
                .default([]),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
  instances: z.array(z.looseObject({ id: zIdString, date: z.string() })).default([]),
});
export type SourcePollVotes = z.output<typeof sourcePollVotesSchema>;

function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new SourceResponseError(`Unexpected ${what} from the source: ${z.prettifyError(r.error).slice(0, 300)}`);
  return r.data;
}

/** The reads of one source, parsed. Each method throws what `SourceClient.get` throws, or SourceResponseError. */
export function geekbotSource(client: SourceClient) {
  return {
    /** `/v1/me`: the key's user and team (the first call: a wrong key stops here). */
    me: async () => parse(sourceMeSchema, await client.get("/v1/me"), "/v1/me"),
    /** `/v1/teams/`: the team with its users. */
    team: async () => parse(sourceTeamSchema, await client.get("/v1/teams/"), "/v1/teams/"),
    /** `/v1/standups/?admin=true`: every standup the admin may see. */
    standups: async () => parse(z.array(sourceStandupSchema), await client.get("/v1/standups/?admin=true"), "/v1/standups/"),
    /** `/v2/standups` pages (channel chat ids, member e-mails); empty when the source has no v2. */
    standupsV2: async (): Promise<SourceStandupV2[]> => {
      const out: SourceStandupV2[] = [];
      let cursor: string | null = null;
      do {
        const q: string = `/v2/standups?include=questions,member_email&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const page = await client.get<{ data?: unknown; next_cursor?: string | null }>(q, { allow404: true });
        if (!page || !Array.isArray(page.data)) return out;
        out.push(...parse(z.array(sourceStandupV2Schema), page.data, "/v2/standups"));
        cursor = page.next_cursor ?? null;
      } while (cursor);
      return out;
    },
    /** One page of `/v1/reports/` of a standup, newest first, strictly before `before` (Unix seconds) and after `after`. */
    reports: async (standupId: string, opts: { before?: number; after?: number; limit: number }) => {
      const q = new URLSearchParams({ standup_id: standupId, limit: String(opts.limit) });
      if (opts.before !== undefined) q.set("before", String(opts.before));
      if (opts.after !== undefined) q.set("after", String(opts.after));
      return parse(z.array(sourceReportSchema), await client.get(`/v1/reports/?${q}`), "/v1/reports/");
    },
    /** `/v1/polls`: the polls of the key's user. */
    polls: async () => parse(z.array(sourcePollSchema), await client.get("/v1/polls"), "/v1/polls"),
    /** `/v1/polls/{id}/votes`: results per instance date. */
    pollVotes: async (pollId: string) =>
      parse(sourcePollVotesSchema, await client.get(`/v1/polls/${encodeURIComponent(pollId)}/votes`), "/v1/polls/{id}/votes"),
  };
}

export type GeekbotSource = ReturnType<typeof geekbotSource>;
