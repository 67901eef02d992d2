/**
 * POST /v2/standups at the HTTP edge (spec §4.2): the body schema and its mapping onto the
 * version-neutral `createStandup` input (lib/domain/standup-writes.ts). The response is the v2
 * standup serializer of lib/api/v2/standups.ts.
 */
import { z } from "zod";
import { LIMITS } from "@/lib/domain/limits";
import { QUESTION_TYPES } from "@/lib/domain/question-types";
import type { CreateStandupInput } from "@/lib/domain/standup-writes";

const zText = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`);

/** Body of POST /v2/standups. Unknown fields are ignored. Sizes: lib/domain/limits.ts. */
export const standupCreateBodySchema = z.object({
  name: z.string().max(LIMITS.name, `must be at most ${LIMITS.name} characters`).nullish(),
  questions: z
    .array(
      z.object({
        text: zText(LIMITS.questionText),
        choices: z.array(zText(LIMITS.choiceText)).max(LIMITS.choices, `must have at most ${LIMITS.choices} choices`).nullish(),
        answer_type: z
          .enum(QUESTION_TYPES, { message: `must be one of ${QUESTION_TYPES.join(", ")}` })
          .optional()
          .meta({ description: "Extension (issue 41). Default: multiple_choice when `choices` is given, else text." }),
        optional: z.boolean().optional().meta({ description: "Extension: may be left out or answered blank. Default false." }),
        scale: z
          .object({
            min: z.number().int().optional(),
            max: z.number().int().optional(),
            labels: z.array(zText(LIMITS.choiceText)).max(11, "must have at most 11 labels").optional(),
          })
          .nullish()
          .meta({ description: "Extension: the scale of a rating question (default 1 to 5; labels one per point, or none)." }),
      }),
      { message: "must be an array of {text, choices?, answer_type?, optional?, scale?}" },
    )
    .min(1, "at least one question is required")
    .max(LIMITS.questions, `must have at most ${LIMITS.questions} questions`),
  days: z
    .array(z.string().max(LIMITS.shortText, "is not a day name"), { message: "must be an array of day names" })
    .min(1, "at least one day is required")
    .max(7, "must name at most 7 days"),
  time: z.string({ message: "must be a string HH:MM or HH:MM:SS" }).max(LIMITS.shortText, "must be HH:MM or HH:MM:SS"),
  broadcast_channel: zText(LIMITS.name),
  sync_channel: zText(LIMITS.name).nullish(),
  users: z
    .array(z.union([zText(LIMITS.shortText), z.number().int().positive()]), { message: "must be an array of user ids" })
    .max(LIMITS.users, `must name at most ${LIMITS.users} users`)
    .nullish(),
  timezone: zText(LIMITS.shortText).nullish(),
  is_anonymous: z.boolean().optional(),
});

export type StandupCreateBody = z.output<typeof standupCreateBodySchema>;

/** Maps the v2 body onto the domain input (members: users, else sync_channel, else broadcast_channel). */
export function toCreateStandupInput(body: StandupCreateBody): CreateStandupInput {
  return {
    name: body.name ?? null,
    questions: body.questions.map((q) => ({
      text: q.text,
      choices: q.choices ?? null,
      ...(q.answer_type ? { answerType: q.answer_type } : {}),
      ...(q.optional !== undefined ? { optional: q.optional } : {}),
      ...(q.scale ? { scale: q.scale } : {}),
    })),
    days: body.days,
    time: body.time,
    timezone: body.timezone ?? null,
    broadcastChannel: body.broadcast_channel,
    syncChannel: body.sync_channel ?? null,
    users: body.users ?? null,
    isAnonymous: body.is_anonymous ?? false,
    isConfidential: false,
  };
}
