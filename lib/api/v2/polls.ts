/**
 * v2 polls at the HTTP edge (spec §2.3, §4.2): the POST body schema, its mapping onto
 * `createPoll` (lib/domain/polls.ts), and the poll serializer, which is the v2 standup serializer
 * of lib/api/v2/standups.ts (it drops `wait_time` and `is_confidential` for polls). The list query
 * schema and cursor binding are shared with GET /v2/standups (`checkinListQuerySchema`,
 * `toCheckinListFilters(q, "v2.polls")`).
 */
import { z } from "zod";
import { dataEnvelopeSchema, listEnvelopeSchema } from "@/lib/api/envelope";
import { type CheckinV2Row, checkinV2Shape, type IncludeSet, serializeCheckinV2, type V2Checkin } from "@/lib/api/v2/standups";
import { LIMITS } from "@/lib/domain/limits";
import { type CreatePollInput, MAX_POLL_DURATION_MINUTES } from "@/lib/domain/polls";

const zText = (max: number) =>
  z.string({ message: "must be a string" }).trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/** Body of POST /v2/polls. `duration` is in minutes (1..525600). Sizes: lib/domain/limits.ts. */
export const pollCreateBodySchema = z.object({
  name: zText(LIMITS.name),
  question: zText(LIMITS.questionText),
  choices: z
    .array(zText(LIMITS.choiceText), { message: "must be an array of strings" })
    .min(2, "at least 2 choices are required")
    .max(LIMITS.choices, `must have at most ${LIMITS.choices} choices`)
    .refine((c) => new Set(c).size === c.length, "choices must be distinct"),
  broadcast_channel: zText(LIMITS.name),
  duration: z
    .number({ message: "must be a number of minutes" })
    .int("must be a whole number of minutes")
    .min(1, "must be at least 1 minute")
    .max(MAX_POLL_DURATION_MINUTES, `must be at most ${MAX_POLL_DURATION_MINUTES} minutes`)
    .nullish(),
});

/** Maps the POST body onto `createPoll`'s input. */
export function toCreatePollInput(body: z.output<typeof pollCreateBodySchema>): CreatePollInput {
  return {
    name: body.name,
    question: body.question,
    choices: body.choices,
    broadcastChannel: body.broadcast_channel,
    duration: body.duration ?? null,
  };
}

/** Serializes a poll (spec §2.3) from a `checkinViewSelect` row. */
export function serializePollV2(row: CheckinV2Row, include: IncludeSet): V2Checkin {
  return serializeCheckinV2(row, include);
}

/** v2 poll (spec §2.3): the standup fields without `wait_time` and `is_confidential`. */
export const pollV2Schema = z.strictObject(checkinV2Shape).meta({ id: "PollV2" });

export const pollListV2Schema = listEnvelopeSchema(pollV2Schema, "PollListV2");
export const pollDataV2Schema = dataEnvelopeSchema(pollV2Schema, "PollDataV2");
