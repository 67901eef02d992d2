/**
 * The team's privacy settings at the HTTP edge (issue 45, a v2 extension; GET / PATCH /v2/privacy):
 * `{anonymity_threshold, retention_days, retention_mode, audit_retention_days}` — k of the
 * anonymity threshold (lib/domain/anonymity.ts) and the retention (lib/domain/retention.ts).
 */
import { z } from "zod";
import { dataEnvelopeSchema } from "@/lib/api/envelope";
import { MAX_ANONYMITY_THRESHOLD, MIN_ANONYMITY_THRESHOLD } from "@/lib/domain/anonymity";
import type { PrivacySettings } from "@/lib/domain/privacy";
import { MAX_RETENTION_DAYS } from "@/lib/domain/retention";

const zDays = z.number().int("must be a whole number of days").min(1).max(MAX_RETENTION_DAYS);

/** Body of PATCH /v2/privacy: any of the fields; `retention_days: null` keeps answers forever. */
export const privacyUpdateBodySchema = z
  .strictObject({
    anonymity_threshold: z.number().int("must be a whole number").min(MIN_ANONYMITY_THRESHOLD).max(MAX_ANONYMITY_THRESHOLD).optional(),
    retention_days: zDays.nullable().optional(),
    retention_mode: z.enum(["anonymise", "delete"]).optional(),
    audit_retention_days: zDays.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "give at least one of anonymity_threshold, retention_days, retention_mode, audit_retention_days",
  });

export const privacyV2Schema = z
  .strictObject({
    anonymity_threshold: z.number().int().meta({ description: "k: anonymous results show once this many people answered." }),
    retention_days: z.number().int().nullable().meta({ description: "Days answers are kept; null: forever." }),
    retention_mode: z.enum(["anonymise", "delete"]),
    audit_retention_days: z.number().int(),
  })
  .meta({ id: "PrivacyV2" });

/** `{data: privacy settings}`. */
export const privacyDataV2Schema = dataEnvelopeSchema(privacyV2Schema, "PrivacyDataV2");

/** Serializes the settings. */
export function serializePrivacyV2(s: PrivacySettings): z.output<typeof privacyV2Schema> {
  return {
    anonymity_threshold: s.anonymityThreshold,
    retention_days: s.retention.days,
    retention_mode: s.retention.mode,
    audit_retention_days: s.retention.auditDays,
  };
}
