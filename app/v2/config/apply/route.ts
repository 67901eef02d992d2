/**
 * POST /v2/config/apply (issue 43, a v2 extension): makes the team match the document in one
 * transaction (all or nothing; a second run changes nothing). Admins only (others: 404). Accepts
 * `Idempotency-Key`.
 */
import { apiWriteRoute } from "@/lib/api/handler";
import { apiPath } from "@/lib/api/route";
import { configAppliedDataV2Schema, configBodySchema, parseConfigBody, serializeConfigAppliedV2 } from "@/lib/api/v2/config";
import { applyTeamConfig } from "@/lib/config/apply";
import { transaction } from "@/lib/db";

/** Up to two minutes for one apply (the keyed path keeps the 20 s of every v2 write). */
const APPLY_TRANSACTION_OPTIONS = { timeout: 120_000, maxWait: 10_000 } as const;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/config/apply", {
  POST: {
    doc: {
      tag: "Configuration",
      id: "applyConfig",
      summary: "Apply a configuration document (admins)",
      description:
        "Creates, changes and (with `prune`) deletes standups, polls, holidays and webhooks so the team matches the document. " +
        "Questions are matched by `key`: a reworded question keeps its id and answers.",
      body: { schema: configBodySchema },
      response: { description: "`{data: plan carried out + webhook_secrets}`.", schema: configAppliedDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true, 422: true },
    },
    handler: apiWriteRoute({
      route: "/v2/config/apply",
      body: "json",
      parse: ({ body }) => parseConfigBody(body),
      run: async ({ actor, input, tx }) => ({
        status: 200,
        body: { data: serializeConfigAppliedV2(await applyTeamConfig(actor, input.config, { prune: input.prune }, tx)) },
      }),
      // Without a key: one transaction with room for a large team (forty standups and their members).
      runUnkeyed: ({ actor, input }) =>
        transaction(
          async (tx) => ({
            status: 200,
            body: { data: serializeConfigAppliedV2(await applyTeamConfig(actor, input.config, { prune: input.prune }, tx)) },
          }),
          APPLY_TRANSACTION_OPTIONS,
        ),
    }),
  },
});
