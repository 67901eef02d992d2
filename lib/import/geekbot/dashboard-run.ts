/**
 * The dashboard's _Team → Import_ (issue 43): an admin starts a Geekbot import as an
 * `import_geekbot` job (lib/jobs/tasks.ts) and the page shows its progress. One run per team at a
 * time; its state is one `import_map` checkpoint row (source "dashboard", id "run"): state, the
 * last progress lines, then the summary or the error. The key travels in the job's payload only
 * (one attempt: graphile-worker deletes the job when it ends) and is never stored in the state.
 * The source URL passes the webhook URL rule (no private addresses unless webhooks may use them).
 */

import { db, inTransaction, type Tx } from "@/lib/db";
import { canManagePeople } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { ConflictError, ForbiddenError, InvalidParameterError } from "@/lib/domain/errors";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";
import { deliverySettings } from "@/lib/env";
import { SourceAuthError, SourceUnavailableError } from "@/lib/import/geekbot/client";
import { formatSummary } from "@/lib/import/geekbot/context";
import { GEEKBOT_API_URL, importFromGeekbot } from "@/lib/import/geekbot/run";
import { readCheckpoint, writeCheckpoint } from "@/lib/import/map";
import { enqueueJob } from "@/lib/jobs/enqueue";

/** The state of a team's dashboard import. */
export type DashboardImportState = {
  state: "queued" | "running" | "done" | "failed";
  baseUrl: string;
  dryRun: boolean;
  startedAt: string;
  updatedAt: string;
  /** The last progress lines (at most 15). */
  lines: string[];
  /** The end-of-run summary lines (done). */
  summary: string[] | null;
  /** Why it stopped (failed). */
  error: string | null;
};

/** Payload of the `import_geekbot` job. */
export type ImportJobPayload = { teamId: number; baseUrl: string; key: string; dryRun: boolean };

const scope = (teamId: number) => ({ teamId, source: "dashboard" });
const RUN = "run";
/** A queued or running state older than this is taken as abandoned (the worker died): a new run may start. */
const STALE_MS = 30 * 60_000;

function assertAdmin(actor: Actor): void {
  if (!canManagePeople(actor)) throw new ForbiddenError("Only team admins can import a team");
}

/** The team's last dashboard import, or null (admins only). @throws ForbiddenError */
export async function getDashboardImport(actor: Actor, tx: Tx = db): Promise<DashboardImportState | null> {
  assertAdmin(actor);
  return readCheckpoint<DashboardImportState>(tx, scope(actor.teamId), RUN);
}

/**
 * Queues an import of `baseUrl` (default Geekbot's API) with an admin key of the source into the
 * actor's team. @throws ForbiddenError (not an admin), InvalidParameterError (no key, bad URL),
 * ConflictError (a run of the team is still queued or running).
 */
export async function startDashboardImport(
  actor: Actor,
  input: { baseUrl?: string; key: string; dryRun: boolean },
  tx?: Tx,
): Promise<void> {
  assertAdmin(actor);
  const key = input.key.trim();
  if (!key) throw new InvalidParameterError("Paste an API key of a Geekbot admin.");
  const baseUrl = (input.baseUrl?.trim() || GEEKBOT_API_URL).replace(/\/+$/, "");
  const problem = await webhookUrlProblem(baseUrl, { allowPrivate: deliverySettings().webhooksAllowPrivate });
  if (problem) throw new InvalidParameterError(`Source URL: ${problem}`);
  await inTransaction(tx, async (t) => {
    await t.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('import_geekbot'), ${actor.teamId})`;
    const current = await readCheckpoint<DashboardImportState>(t, scope(actor.teamId), RUN);
    if (current && (current.state === "queued" || current.state === "running") && Date.now() - Date.parse(current.updatedAt) < STALE_MS)
      throw new ConflictError("An import of this team is already under way.");
    const now = new Date().toISOString();
    const state: DashboardImportState = {
      state: "queued",
      baseUrl,
      dryRun: input.dryRun,
      startedAt: now,
      updatedAt: now,
      lines: [],
      summary: null,
      error: null,
    };
    await writeCheckpoint(t, scope(actor.teamId), RUN, state);
    const payload: ImportJobPayload = { teamId: actor.teamId, baseUrl, key, dryRun: input.dryRun };
    await enqueueJob(t, "import_geekbot", payload, { jobKey: `import_geekbot:${actor.teamId}`, maxAttempts: 1 });
  });
}

/**
 * Runs a queued dashboard import (the `import_geekbot` task): progress lines are saved at most every
 * 2 seconds, then the summary or the error. Never throws for the source's errors (the state says them).
 */
export async function runDashboardImport(payload: ImportJobPayload, log: (line: string) => void = () => {}): Promise<DashboardImportState> {
  const s = scope(payload.teamId);
  const state = (await readCheckpoint<DashboardImportState>(db, s, RUN)) ?? {
    state: "queued",
    baseUrl: payload.baseUrl,
    dryRun: payload.dryRun,
    startedAt: new Date().toISOString(),
    updatedAt: "",
    lines: [],
    summary: null,
    error: null,
  };
  let saved = 0;
  const save = async (force = false) => {
    if (!force && Date.now() - saved < 2000) return;
    saved = Date.now();
    state.updatedAt = new Date().toISOString();
    await writeCheckpoint(db, s, RUN, state);
  };
  state.state = "running";
  await save(true);
  try {
    const result = await importFromGeekbot({
      baseUrl: payload.baseUrl,
      key: payload.key,
      teamId: payload.teamId,
      dryRun: payload.dryRun,
      log: (line) => {
        state.lines = [...state.lines, line].slice(-15);
        void save();
      },
    });
    state.state = "done";
    state.summary = formatSummary(result, { dryRun: result.dryRun });
    log(`import_geekbot: team ${payload.teamId}: ${result.reports.imported} reports, ${result.polls.votes} votes`);
  } catch (e) {
    state.state = "failed";
    const resumable = e instanceof SourceUnavailableError ? " What was imported is kept; start the import again to resume." : "";
    const nothing = e instanceof SourceAuthError ? " Nothing was written." : "";
    state.error = `${(e as Error).message}${nothing}${resumable}`;
    log(`import_geekbot: team ${payload.teamId} failed: ${(e as Error).message}`);
  }
  await save(true);
  return state;
}
