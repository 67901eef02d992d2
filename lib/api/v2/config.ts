/**
 * "Check-ins as code" at the HTTP edge (issue 43, a v2 extension): GET /v2/config (the team's
 * document), POST /v2/config/plan and POST /v2/config/apply (body `{document, prune}`), and the
 * JSON Schema of the document at GET /v2/config.schema.json. Admins only (others: 404).
 */
import { z } from "zod";
import { dataEnvelopeSchema } from "@/lib/api/envelope";
import { parseWith } from "@/lib/api/query";
import type { ApplyResult } from "@/lib/config/apply";
import { ConfigDocumentError } from "@/lib/config/errors";
import type { ConfigPlan } from "@/lib/config/plan";
import { type TeamConfig, teamConfigSchema, validateTeamConfig } from "@/lib/config/schema";

/** Body of POST /v2/config/plan and /v2/config/apply. */
export const configBodySchema = z
  .strictObject({
    document: teamConfigSchema.meta({ description: "The team's configuration (see /v2/config.schema.json)." }),
    prune: z.boolean().optional().meta({ description: "Also delete what the document does not name (default false)." }),
  })
  .meta({ id: "ConfigApplyBody" });

const bodyShape = z.strictObject({ document: z.record(z.string(), z.unknown()), prune: z.boolean().optional() });

/**
 * Parses the body; the document's problems are listed with their paths (`standups[2].questions[0].choices: ...`).
 * @throws InvalidParameterError (body shape), ConfigDocumentError (document).
 */
export function parseConfigBody(body: unknown): { config: TeamConfig; prune: boolean } {
  const b = parseWith(bodyShape, body);
  const r = validateTeamConfig(b.document);
  if (!r.ok) throw new ConfigDocumentError(r.problems);
  return { config: r.config, prune: b.prune ?? false };
}

const fieldChangeSchema = z.strictObject({ field: z.string(), from: z.unknown(), to: z.unknown() });
const kindSchema = z.enum(["standup", "poll", "holiday", "webhook"]);

export const configPlanV2Schema = z
  .strictObject({
    changes: z.array(
      z.strictObject({
        action: z.enum(["create", "change", "delete"]),
        kind: kindSchema,
        name: z.string().meta({ description: "Standup/poll name, holiday date or webhook url." }),
        fields: z.array(fieldChangeSchema).meta({ description: "Changed fields (for `change`)." }),
      }),
    ),
    unmanaged: z
      .array(z.strictObject({ kind: kindSchema, name: z.string() }))
      .meta({ description: "What the document does not name (deleted with `prune`)." }),
  })
  .meta({ id: "ConfigPlanV2" });

export const configPlanDataV2Schema = dataEnvelopeSchema(configPlanV2Schema, "ConfigPlanDataV2");

export const configAppliedDataV2Schema = dataEnvelopeSchema(
  configPlanV2Schema.extend({
    webhook_secrets: z
      .array(z.strictObject({ url: z.string(), secret: z.string() }))
      .meta({ description: "Signing secrets of the webhooks created now (shown once)." }),
  }),
  "ConfigAppliedDataV2",
);

export const configDataV2Schema = dataEnvelopeSchema(teamConfigSchema, "ConfigDataV2");

/** The plan as sent. */
export function serializeConfigPlanV2(plan: ConfigPlan): z.output<typeof configPlanV2Schema> {
  return { changes: plan.changes, unmanaged: plan.unmanaged };
}

/** The result of an apply as sent. */
export function serializeConfigAppliedV2(result: ApplyResult) {
  return { ...serializeConfigPlanV2(result.plan), webhook_secrets: result.secrets };
}
