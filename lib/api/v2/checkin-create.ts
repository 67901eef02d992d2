/**
 * The POST handler shared by the v2 creates of check-ins (POST /v2/standups, POST /v2/polls, spec
 * §4.2): the body parsed into the domain input, the write and the read-back in one transaction
 * with `Idempotency-Key`, and 201 `{data: checkin}` that always carries `questions`.
 */
import type { z } from "zod";
import { apiWriteRoute } from "@/lib/api/handler";
import { parseWith, queryObject } from "@/lib/api/query";
import type { ServedMethod } from "@/lib/api/route";
import { checkinReadQuerySchema, serializeCheckinV2 } from "@/lib/api/v2/standups";
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import type { CheckinView } from "@/lib/domain/standups";
import type { OperationDoc } from "@/lib/openapi/operation";

/** What a check-in create reads and does (`checkinCreateRoute`). */
export type CheckinCreateOptions<S extends z.ZodType, I> = {
  route: string;
  bodySchema: S;
  toInput: (body: z.output<S>) => I;
  create: (actor: Actor, input: I, tx: Tx) => Promise<{ id: number }>;
  read: (actor: Actor, id: number, opts: { withQuestions: boolean }, tx: Tx) => Promise<CheckinView>;
};

/**
 * A v2 create handler at `route`: `?include=` as on GET (plus `questions`), the JSON body checked
 * by `bodySchema` and turned into the domain input by `toInput` (400 on either), then `create`
 * and `read` (the new check-in with its questions) through one transaction.
 */
export function checkinCreateRoute<S extends z.ZodType, I>(opts: CheckinCreateOptions<S, I>) {
  return apiWriteRoute({
    route: opts.route,
    body: "json",
    parse: ({ url, body }) => ({
      include: new Set([...parseWith(checkinReadQuerySchema, queryObject(url)).include, "questions" as const]),
      checkin: opts.toInput(parseWith(opts.bodySchema, body)),
    }),
    run: async ({ actor, input, tx }) => {
      const { id } = await opts.create(actor, input.checkin, tx);
      const row = await opts.read(actor, id, { withQuestions: true }, tx);
      return { status: 201, body: { data: serializeCheckinV2(row, input.include) } };
    },
  });
}

/**
 * The POST method of a check-in collection (`apiPath`): `doc` completed with the query and body
 * that `checkinCreateRoute(opts)` parses (`checkinReadQuerySchema`, `opts.bodySchema`), so the
 * OpenAPI declaration and the handler read the same schemas.
 */
export function checkinCreateMethod<S extends z.ZodType, I>(
  doc: Omit<OperationDoc, "query" | "body">,
  opts: CheckinCreateOptions<S, I>,
): ServedMethod {
  return { doc: { ...doc, query: checkinReadQuerySchema, body: { schema: opts.bodySchema } }, handler: checkinCreateRoute(opts) };
}
