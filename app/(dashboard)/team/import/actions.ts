"use server";

import type { ActionState } from "@/components/ui/action-form";
import { startDashboardImport } from "@/lib/import/geekbot/dashboard-run";
import { actorFormAction, field } from "../../form-action";

/**
 * Starts a Geekbot import from Team → Import (admins only; `startDashboardImport`): fields
 * `baseUrl` (empty: Geekbot's API), `key` (an admin key of the source) and `dryRun` ("on").
 */
export async function startImportAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/team/import"], async (actor) => {
    const dryRun = field(form, "dryRun") === "on";
    await startDashboardImport(actor, { baseUrl: field(form, "baseUrl"), key: field(form, "key"), dryRun });
    return { ok: dryRun ? "Dry run queued: nothing will be written." : "Import queued. This page shows its progress." };
  });
}
