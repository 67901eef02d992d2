/**
 * POST /v2/standups at the HTTP edge (spec §4.2): the body schema and its mapping onto the
 * version-neutral `createStandup` input (lib/domain/standup-writes.ts). The response is the v2
 * standup serializer of lib/api/v2/standups.ts.
 */
import { z } from "zod";
import type { CreateStandupInput } from "@/lib/domain/standup-writes";

const zText = z.string().trim().min(1, "must not be empty");

/** Body of POST /v2/standups. Unknown fields are ignored. */
export const standupCreateBodySchema = z.object({
  name: z.string().nullish(),
  questions: z
    .array(z.object({ text: zText, choices: z.array(zText).nullish() }), { message: "must be an array of {text, choices?}" })
    .min(1, "at least one question is required"),
  days: z.array(z.string(), { message: "must be an array of day names" }).min(1, "at least one day is required"),
  time: z.string({ message: "must be a string HH:MM or HH:MM:SS" }),
  broadcast_channel: zText,
  sync_channel: zText.nullish(),
  users: z.array(z.union([zText, z.number().int().positive()]), { message: "must be an array of user ids" }).nullish(),
  timezone: zText.nullish(),
  is_anonymous: z.boolean().optional(),
});

export type StandupCreateBody = z.output<typeof standupCreateBodySchema>;

/** Maps the v2 body onto the domain input (members: users, else sync_channel, else broadcast_channel). */
export function toCreateStandupInput(body: StandupCreateBody): CreateStandupInput {
  return {
    name: body.name ?? null,
    questions: body.questions.map((q) => ({ text: q.text, choices: q.choices ?? null })),
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
