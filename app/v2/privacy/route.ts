/**
 * GET / PATCH /v2/privacy (issue 45, a v2 extension): the team's anonymity threshold and retention
 * settings. Any member reads them; only admins change them (others: 404). PATCH accepts
 * `Idempotency-Key`.
 */
import { json } from "@/lib/api/errors";
import { apiRoute, apiWriteRoute } from "@/lib/api/handler";
import { parseWith } from "@/lib/api/query";
import { apiPath } from "@/lib/api/route";
import { privacyDataV2Schema, privacyUpdateBodySchema, serializePrivacyV2 } from "@/lib/api/v2/privacy";
import { getPrivacySettings, type PrivacyPatch, updatePrivacySettings } from "@/lib/domain/privacy";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiPath("/v2/privacy", {
  GET: {
    doc: {
      tag: "Privacy",
      id: "getPrivacy",
      summary: "The team's anonymity threshold and retention",
      response: { description: "`{data: privacy settings}`.", schema: privacyDataV2Schema },
    },
    handler: apiRoute("v2", async ({ actor }) => json({ data: serializePrivacyV2(await getPrivacySettings(actor)) })),
  },
  PATCH: {
    doc: {
      tag: "Privacy",
      id: "updatePrivacy",
      summary: "Change the team's anonymity threshold and retention (admins)",
      description: "`retention_days: null` keeps answers forever. Non-admins get 404.",
      body: { schema: privacyUpdateBodySchema },
      response: { description: "`{data: privacy settings}` after the change.", schema: privacyDataV2Schema },
      errors: { 400: ["INVALID_PARAMETER"], 404: true },
    },
    handler: apiWriteRoute<Record<string, never>, PrivacyPatch>({
      route: "/v2/privacy",
      body: "json",
      parse: ({ body }) => {
        const b = parseWith(privacyUpdateBodySchema, body);
        return {
          anonymityThreshold: b.anonymity_threshold,
          retentionDays: b.retention_days,
          retentionMode: b.retention_mode,
          auditRetentionDays: b.audit_retention_days,
        };
      },
      run: async ({ actor, input, tx }) => ({
        status: 200,
        body: { data: serializePrivacyV2(await updatePrivacySettings(actor, input, tx)) },
      }),
    }),
  },
});
