/**
 * POST /v2/standups (spec §4.2): creates a non-confidential standup owned by the caller; 201
 * `{data: standup}`. Accepts `Idempotency-Key`. The response always carries `questions` (the
 * caller needs their ids to submit reports); `include` adds member fields as on GET.
 */
import { apiWriteRoute } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import { standupCreateBodySchema, toCreateStandupInput } from "@/lib/api/v2/standup-create";
import { checkinReadQuerySchema, serializeCheckinV2 } from "@/lib/api/v2/standups";
import { createStandup } from "@/lib/domain/standup-writes";
import { getStandup } from "@/lib/domain/standups";

export const POST = apiWriteRoute({
  route: "/v2/standups",
  body: "json",
  parse: ({ url, body }) => ({
    include: new Set([...parseWith(checkinReadQuerySchema, queryObject(url)).include, "questions" as const]),
    standup: toCreateStandupInput(parseWith(standupCreateBodySchema, body)),
  }),
  run: async ({ actor, input, tx }) => {
    const { id } = await createStandup(actor, input.standup, tx);
    const row = await getStandup(actor, id, { withQuestions: true }, tx);
    return { status: 201, body: { data: serializeCheckinV2(row, input.include) } };
  },
});
