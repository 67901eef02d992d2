/**
 * `importFromGeekbot`: imports a team from a Geekbot-compatible API (issue 43) into one local team.
 * Steps: `/v1/me` (a wrong key stops here, before any write), people, channels, standups with their
 * questions, each standup's report history paged backwards (`before`, limit 100) with a checkpoint
 * per page, then polls with their instances and votes. Idempotent by source ids (`import_map`);
 * `dryRun` runs everything in one transaction and rolls it back. Nothing is sent to anyone.
 */
import { db, type Tx } from "@/lib/db";
import { importPoll, importStandup } from "@/lib/import/geekbot/checkins";
import { type SourceClientOptions, type SourceClientStats, sourceClient } from "@/lib/import/geekbot/client";
import { emptySummary, type ImportContext, type ImportSummary } from "@/lib/import/geekbot/context";
import { markMissed, writePollVotes, writeReportPage } from "@/lib/import/geekbot/history";
import { importChannels, importPeople } from "@/lib/import/geekbot/people";
import { geekbotSource, type SourceStandup, type SourceUser } from "@/lib/import/geekbot/source";
import { readCheckpoint, writeCheckpoint } from "@/lib/import/map";

/** Geekbot's public API. */
export const GEEKBOT_API_URL = "https://api.geekbot.com";

/** Reports per page of `/v1/reports/` (the source's maximum). */
export const REPORT_PAGE = 100;

export type GeekbotImportOptions = Omit<SourceClientOptions, "baseUrl"> & {
  baseUrl?: string;
  /** The local team written into. */
  teamId: number;
  dryRun?: boolean;
  /** Only reports and poll instances from this instant on. */
  since?: Date | null;
  log?: (line: string) => void;
};

export type GeekbotImportResult = ImportSummary & { source: string; dryRun: boolean; http: SourceClientStats };

/** Thrown to roll back the dry run's transaction. */
class DryRunRollback extends Error {
  constructor(readonly result: GeekbotImportResult) {
    super("dry run");
  }
}

/** Per standup: reports up to `floor` (Unix s) are all imported; a pass in progress has reached `before`, started at `upper`. */
type ReportCheckpoint = { floor?: number; before?: number | null; upper?: number };

/**
 * Runs the import. @returns the summary (counts, notes, skipped records, rate).
 * @throws SourceAuthError (nothing written), SourceUnavailableError (stopped; run again to resume),
 *   SourceResponseError, or an Error when the local team has no admin.
 */
export async function importFromGeekbot(opts: GeekbotImportOptions): Promise<GeekbotImportResult> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const baseUrl = (opts.baseUrl ?? GEEKBOT_API_URL).replace(/\/+$/, "");
  const client = sourceClient({ ...opts, baseUrl });
  const source = geekbotSource(client);
  const me = await source.me();
  const sourceName = `geekbot:${baseUrl}#${me.team.id}`;
  const admin = await db.user.findFirst({
    where: { team_id: opts.teamId, role: "admin", deactivated_at: null },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  if (!admin) throw new Error(`Team ${opts.teamId} does not exist or has no active admin.`);

  const run = async (outer: Tx | null): Promise<GeekbotImportResult> => {
    const ctx: ImportContext = {
      scope: { teamId: opts.teamId, source: sourceName },
      dryRun: Boolean(opts.dryRun),
      write: (fn) => (outer ? fn(outer) : db.$transaction(fn, { timeout: 120_000, maxWait: 20_000 })),
      log,
      users: new Map(),
      channels: new Map(),
      fallbackOwnerId: admin.id,
      since: opts.since ?? null,
      summary: emptySummary(),
    };
    log(`Source ${baseUrl}: team "${me.team.name}" (${me.team.id}) → local team ${opts.teamId}${ctx.dryRun ? " (dry run)" : ""}`);
    const team = await source.team();
    const standups = await source.standups();
    const v2 = new Map((await source.standupsV2()).map((s) => [s.id, s]));
    const polls = await source.polls();
    const people: SourceUser[] = [
      ...team.users,
      ...standups.flatMap((s) => s.users),
      ...polls.flatMap((p) => [...p.users, ...(p.creator ? [p.creator] : [])]),
    ];
    for (const s of v2.values())
      for (const m of s.members ?? [])
        if (m.email) people.push({ id: m.id, email: m.email, username: "", realname: "", role: null, profile_img: null });
    await importPeople(ctx, people);
    const chatIds = new Map<string, string>();
    for (const s of v2.values()) if (s.broadcast_channel) chatIds.set(s.broadcast_channel.name, s.broadcast_channel.id);
    await importChannels(ctx, [...standups, ...polls].map((c) => c.channel ?? "").filter(Boolean), chatIds);
    log(
      `People: ${ctx.summary.people.matched} matched, ${ctx.summary.people.created} created; channels: ${ctx.summary.channels.created} created`,
    );

    const reportsStarted = Date.now();
    for (const s of standups) {
      const before = ctx.summary.reports.imported + ctx.summary.reports.existing;
      await importStandupHistory(ctx, source, s, reportsStarted);
      const belongs = s.master === me.user.id || s.users.some((u) => u.id === me.user.id);
      if (!belongs && !s.paused && !s.draft && ctx.summary.reports.imported + ctx.summary.reports.existing === before)
        ctx.summary.notes.push({
          what: "standup",
          id: s.id,
          reason:
            "no reports came: the source may list reports only of standups the key's user belongs to (add them there, then import again)",
        });
    }
    const reportMs = Date.now() - reportsStarted;
    for (const p of polls) {
      const imp = await importPoll(ctx, p);
      const votes = await source.pollVotes(p.id);
      await ctx.write((tx) => writePollVotes(tx, ctx, p, imp, votes));
      log(`Poll "${p.name}": ${ctx.summary.polls.instances} instances, ${ctx.summary.polls.votes} votes so far`);
    }
    const s = ctx.summary;
    s.ms = Date.now() - started;
    s.reportsPerSecond = reportMs > 0 ? Math.round((s.reports.imported / reportMs) * 1000) : 0;
    return { ...s, source: sourceName, dryRun: ctx.dryRun, http: client.stats };
  };

  if (!opts.dryRun) return run(null);
  try {
    await db.$transaction(
      async (tx) => {
        throw new DryRunRollback(await run(tx));
      },
      { timeout: 600_000, maxWait: 20_000 },
    );
  } catch (e) {
    if (e instanceof DryRunRollback) return e.result;
    throw e;
  }
  throw new Error("unreachable");
}

/** One standup: its settings and questions, then its reports newest first, a checkpoint per page. */
async function importStandupHistory(
  ctx: ImportContext,
  source: ReturnType<typeof geekbotSource>,
  s: SourceStandup,
  since: number,
): Promise<void> {
  const imp = await importStandup(ctx, s);
  if (s.paused || s.draft) {
    const state = s.paused ? "paused" : "a draft";
    ctx.summary.skipped.push({
      what: "reports of standup",
      id: s.id,
      reason: `${state} at the source: its API lists no reports of it (import again after resuming it there)`,
    });
  }
  const name = `reports:${s.id}`;
  const cp = (await ctx.write((tx) => readCheckpoint<ReportCheckpoint>(tx, ctx.scope, name))) ?? {};
  const sinceS = ctx.since ? Math.floor(ctx.since.getTime() / 1000) - 1 : undefined;
  const floor = cp.floor !== undefined && sinceS !== undefined ? Math.max(cp.floor, sinceS) : (cp.floor ?? sinceS);
  let before = cp.before ?? undefined;
  let upper = cp.upper ?? (cp.before ? cp.before : undefined);
  let pages = 0;
  let pending = source.reports(s.id, { before, after: floor, limit: REPORT_PAGE });
  for (;;) {
    const page = await pending;
    const maxTs = page.reduce((m, r) => Math.max(m, Math.floor(r.timestamp)), 0);
    if (upper === undefined) upper = maxTs || cp.floor || 0;
    const full = page.length >= REPORT_PAGE;
    let next: number | undefined;
    if (full) {
      const oldest = Math.floor(Math.min(...page.map((r) => r.timestamp)));
      next = before !== undefined && oldest + 1 >= before ? oldest : oldest + 1;
    }
    const passUpper = upper;
    // The next page is read while this one is written (its cursor is known already).
    if (full) {
      pending = source.reports(s.id, { before: next, after: floor, limit: REPORT_PAGE });
      pending.catch(() => {}); // awaited below; a write failing first must not leave it unhandled
    }
    const writeStarted = Date.now();
    await ctx.write(async (tx) => {
      await writeReportPage(tx, ctx, imp, page);
      // A pass limited by --since proves nothing about older reports: the floor then stays where it was.
      const done = ctx.since ? { floor: cp.floor } : { floor: Math.max(passUpper, cp.floor ?? 0) };
      const state: ReportCheckpoint = full ? { floor: cp.floor, before: next, upper: passUpper } : done;
      await writeCheckpoint(tx, ctx.scope, name, state);
      if (!full) await markMissed(tx, ctx, imp.id);
    });
    ctx.summary.reportWriteMs += Date.now() - writeStarted;
    pages++;
    const secs = (Date.now() - since) / 1000;
    ctx.log(
      `  ${s.name}: page ${pages}, ${ctx.summary.reports.imported} reports imported (${Math.round(ctx.summary.reports.imported / Math.max(secs, 0.001))}/s), ${ctx.summary.reports.existing} already there`,
    );
    if (!full) break;
    before = next;
  }
}
