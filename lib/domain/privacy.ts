/**
 * The team's privacy settings as one unit (issue 45; GET / PATCH /v2/privacy, Team → Privacy):
 * the anonymity threshold k (lib/domain/anonymity.ts) and the retention (lib/domain/retention.ts).
 */
import { db, inTransaction, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { getAnonymityThreshold, setAnonymityThreshold } from "@/lib/domain/anonymity";
import { ForbiddenError } from "@/lib/domain/errors";
import { getRetention, type RetentionMode, type RetentionSettings, setRetention } from "@/lib/domain/retention";

export type PrivacySettings = { anonymityThreshold: number; retention: RetentionSettings };

/** A change of the settings: absent fields stay; `retentionDays: null` keeps answers forever. */
export type PrivacyPatch = {
  anonymityThreshold?: number;
  retentionDays?: number | null;
  retentionMode?: RetentionMode;
  auditRetentionDays?: number;
};

/** The team's settings (any member may read them). */
export async function getPrivacySettings(actor: Actor, client: Tx = db): Promise<PrivacySettings> {
  return { anonymityThreshold: await getAnonymityThreshold(actor, client), retention: await getRetention(actor, client) };
}

/**
 * Changes the team's settings (admins only; each change audited as `team.privacy` / `team.retention`).
 * @returns the settings after the change.
 * @throws ForbiddenError for non-admins; InvalidParameterError for values out of range.
 */
export async function updatePrivacySettings(actor: Actor, patch: PrivacyPatch, tx?: Tx): Promise<PrivacySettings> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change privacy settings");
  return inTransaction(tx, async (t) => {
    if (patch.anonymityThreshold !== undefined) await setAnonymityThreshold(actor, patch.anonymityThreshold, t);
    if (patch.retentionDays !== undefined || patch.retentionMode !== undefined || patch.auditRetentionDays !== undefined) {
      const now = await getRetention(actor, t);
      await setRetention(
        actor,
        {
          days: patch.retentionDays === undefined ? now.days : patch.retentionDays,
          mode: patch.retentionMode ?? now.mode,
          auditDays: patch.auditRetentionDays ?? now.auditDays,
        },
        t,
      );
    }
    return getPrivacySettings(actor, t);
  });
}
