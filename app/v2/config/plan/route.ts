/** POST /v2/config/plan (issue 43, a v2 extension): what applying the document would do, changes nothing (admins; others 404). */
import { json } from "@/lib/api/errors";
import { apiRoute } from "@/lib/api/handler";
import { readJson } from "@/lib/api/query";
import { apiPath } from "@/lib/api/route";
import { configBodySchema, configPlanDataV2Schema, parseConfigBody, serializeConfigPlanV2 } from "@/lib/api/v2/config";
import { planTeamConfig } from "@/lib/config/apply";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/config/plan", {
  POST: {
    doc: {
      tag: "Configuration",
      id: "planConfig",
      summary: "Plan a configuration document: creates, field-level changes, deletes (admins)",
      description: "Invalid documents get 400 naming each problem's path (`standups[2].questions[0].choices: ...`).",
      body: { schema: configBodySchema },
      response: { description: "`{data: plan}`.", schema: configPlanDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    handler: apiRoute("v2", async ({ actor, request }) => {
      const { config, prune } = parseConfigBody(await readJson(request));
      return json({ data: serializeConfigPlanV2(await planTeamConfig(actor, config, { prune })) });
    }),
  },
});
