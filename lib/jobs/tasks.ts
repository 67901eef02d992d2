/**
 * graphile-worker task handlers (ARCHITECTURE §1 "jobs & schedules"). Each task is idempotent and
 * safe to run on several app instances at once. Quiet by design: a task logs only when it changed
 * something or failed.
 *
 * - `schedule_tick` (crontab: every minute): the asking loop — runs the due standups and polls,
 *   asks, reminds and closes (lib/domain/scheduler.ts `runSchedulerTick`); first releases the job
 *   locks of dead workers (lib/jobs/heartbeat.ts `recoverDeadWorkers`) and, on a delivering
 *   runner, of delivery jobs locked too long (lib/jobs/delivery.ts `recoverStaleLocks`).
 * - `cleanup_idempotency` (crontab: hourly at :17): deletes idempotency records past `expires_at`,
 *   rate-limit counters whose window ended more than an hour ago (lib/api/rate-limit.ts),
 *   "My data" archives past their 24 hours (lib/domain/data-exports.ts) and cached activity
 *   pre-fills older than 14 days (lib/domain/activity-suggestions.ts).
 * - `build_data_export` (enqueued by Profile → My data): builds one person's archive (issue 45).
 * - `categorize_answers`, `summarize_occurrence`, `categorize_sweep` (crontab: every minute):
 *   lib/jobs/categorize.ts.
 * - `slack_sync` (crontab: hourly at :41; also enqueued when the worker starts with Slack
 *   configured and on Slack's team_join / member_joined_channel events): imports the workspace's
 *   people, channels and memberships (lib/chat/slack-sync.ts). Does nothing without SLACK_BOT_TOKEN.
 * - `send_email` (enqueued by lib/mail/enqueue.ts `enqueueEmail`): sends one invitation or
 *   password-reset e-mail through SMTP_URL.
 * - `store_poll_results` (enqueued by the database's triggers, migration `*_poll_results`, when a
 *   poll broadcast closes and after any change to a closed broadcast's results): stores its
 *   results for GET /v2/polls/{id}/votes (lib/api/v2/votes.ts `storePollResults`);
 * - `store_participation_counts` (enqueued by the database's triggers, migration
 *   `*_participation_counts`, when an occurrence closes and after any change its counts depend on):
 *   stores its participation counts (lib/domain/participation.ts `storeParticipationCounts`).
 * - `backup_nightly` (crontab: daily at 03:07 UTC, before the retention): a base backup of the embedded database and
 *   retention (lib/runtime/backup.ts `backupNow`); does nothing when DATABASE_URL is an external
 *   PostgreSQL (back that up with its own tooling).
 * - `apply_retention` (crontab: nightly at 03:23 UTC): applies every team's retention of answers,
 *   poll responses, chat texts and audit entries (lib/domain/retention.ts `applyRetention`, issue 45).
 * - `anonymise_poll_voters` (one-time, enqueued by migration 20261128135700; also run after the
 *   nightly retention): votes of anonymous polls keep only a keyed hash of their voter
 *   (lib/domain/voter-hash.ts, issue 45).
 * - `refresh_calendars` (crontab: every 30 minutes at :11 and :41) and `refresh_calendar_feed` (enqueued
 *   when a feed is saved): refresh the ICS calendar feeds of people and teams into absences and
 *   holidays (lib/domain/calendar-refresh.ts, issue 48), with the webhook address policy.
 * - `fetch_activity` (enqueued by the asking pass, in its transaction, for the asked standup members
 *   with activity connections): reads their GitHub/GitLab/Gitea/Jira/Linear activity since their
 *   previous report and caches it for the run (lib/domain/activity-suggestions.ts, issue 48).
 * - `import_geekbot` (enqueued by the dashboard's Team → Import, one attempt): imports a team from
 *   a Geekbot-compatible API and records its progress (lib/import/geekbot/dashboard-run.ts).
 */
import type { Task, TaskList } from "graphile-worker";
import { storePollResults } from "@/lib/api/v2/votes";
import type { DeliveryDeps } from "@/lib/chat/delivery";
import { slackTeamId, syncSlackWorkspace } from "@/lib/chat/slack-sync";
import { db } from "@/lib/db";
import { fillActivitySuggestions } from "@/lib/domain/activity-fill";
import { ACTIVITY_SUGGESTION_KEEP_DAYS, cleanupActivitySuggestions } from "@/lib/domain/activity-suggestions";
import { refreshAllCalendarFeeds, refreshCalendarFeed } from "@/lib/domain/calendar-refresh";
import { cleanupDataExports } from "@/lib/domain/data-exports";
import { storeParticipationCounts } from "@/lib/domain/participation";
import { applyRetention } from "@/lib/domain/retention";
import { runSchedulerTick } from "@/lib/domain/scheduler";
import { anonymisePollVoters } from "@/lib/domain/voter-hash";
import { backupDir, backupKeep, dataDir, deliverySettings, slackSettings } from "@/lib/env";
import { type ImportJobPayload, runDashboardImport } from "@/lib/import/geekbot/dashboard-run";
import { categorizeAnswers, categorizeSweep, summarizeOccurrence } from "@/lib/jobs/categorize";
import { buildDataExport } from "@/lib/jobs/data-export";
import { deliverChatDestinationTask, deliverChatMessageTask, deliverWebhookTask, recoverStaleLocks } from "@/lib/jobs/delivery";
import { recoverDeadWorkers } from "@/lib/jobs/heartbeat";
import { deliverEmail, type EmailMessage } from "@/lib/mail/mailer";
import { backupNow } from "@/lib/runtime/backup";
import { embeddedDatabaseIn } from "@/lib/runtime/embedded-postgres";

/** Line logger used by the tasks (lib/jobs/worker.ts passes the process logger). */
export type JobLog = (line: string) => void;

/**
 * One tick of the asking loop (lib/domain/scheduler.ts `runSchedulerTick`): open due occurrences,
 * ask due members, send due reminders, close ended windows. Throws only when the database is
 * unreachable (the job is retried).
 */
export function scheduleTick(log: JobLog): Task {
  return async () => {
    const r = await runSchedulerTick(new Date());
    const parts = [
      r.opened && `started ${r.opened} occurrence(s)`,
      r.asked && `asked ${r.asked} member(s)`,
      r.reminded && `sent ${r.reminded} reminder(s)`,
      r.closed && `closed ${r.closed} occurrence(s)`,
    ].filter(Boolean);
    if (parts.length) log(`scheduler: ${parts.join(", ")} in ${Math.round(r.ms.total)} ms`);
    for (const e of r.errors) log(`scheduler: checkin ${e.checkinId} failed: ${e.message}`);
  };
}

/** Deletes idempotency records whose `expires_at` is in the past and stale rate-limit counters (database clock). */
export function cleanupIdempotency(log: JobLog): Task {
  return async () => {
    const deleted = await db.$executeRaw`DELETE FROM idempotency_records WHERE expires_at < now()`;
    if (deleted > 0) log(`cleanup: removed ${deleted} expired idempotency record(s)`);
    const counters = await db.$executeRaw`DELETE FROM rate_limits WHERE expire < (extract(epoch FROM now()) * 1000 - 3600000)`;
    if (counters > 0) log(`cleanup: removed ${counters} expired rate-limit counter(s)`);
    const archives = await cleanupDataExports();
    if (archives > 0) log(`cleanup: removed ${archives} expired "My data" archive(s)`);
    const activity = await cleanupActivitySuggestions();
    if (activity > 0) log(`cleanup: removed ${activity} cached activity pre-fill(s) older than ${ACTIVITY_SUGGESTION_KEEP_DAYS} days`);
  };
}

/** Syncs the env-configured Slack workspace into its team; a no-op without SLACK_BOT_TOKEN. */
export function slackSync(log: JobLog): Task {
  return async () => {
    const slack = slackSettings();
    if (!slack) return;
    const teamId = await slackTeamId(slack.team);
    if (teamId === null) return;
    const r = await syncSlackWorkspace({ teamId, token: slack.token, apiUrl: slack.apiUrl });
    const changed = r.usersCreated + r.usersDeactivated + r.channelsCreated + r.membershipsAdded + r.membershipsRemoved;
    if (changed > 0)
      log(
        `slack sync: ${r.usersCreated} people created, ${r.usersDeactivated} deactivated, ${r.channelsCreated} channels created, memberships +${r.membershipsAdded}/-${r.membershipsRemoved}`,
      );
  };
}

/**
 * The nightly base backup of the embedded database (only when DATABASE_URL is the embedded
 * database of this data folder; a no-op otherwise). Logs the backup and the folder's sizes.
 */
export function backupNightly(log: JobLog): Task {
  return async () => {
    const dir = dataDir();
    const url = embeddedDatabaseIn(dir);
    if (!url) return;
    await backupNow({ url, dataDir: dir, backupDir: backupDir(dir), keep: backupKeep(), log: (l) => log(`backup: ${l}`) });
  };
}

/** The task list registered with the runner, keyed by task identifier. Without `delivery` the
 * delivery tasks (lib/jobs/delivery.ts) are not registered, so this runner leaves their jobs alone. */
export function createTaskList(log: JobLog, delivery: DeliveryDeps | null = null): TaskList {
  const tick = scheduleTick(log);
  return {
    schedule_tick: async (payload, helpers) => {
      await recoverDeadWorkers(db, log);
      if (delivery) await recoverStaleLocks(delivery.db, log);
      await tick(payload, helpers);
    },
    cleanup_idempotency: cleanupIdempotency(log),
    ...(delivery
      ? {
          deliver_chat_destination: deliverChatDestinationTask(delivery),
          deliver_chat_message: deliverChatMessageTask(delivery),
          deliver_webhook: deliverWebhookTask(delivery),
        }
      : {}),
    categorize_answers: categorizeAnswers(log),
    summarize_occurrence: summarizeOccurrence(),
    categorize_sweep: categorizeSweep(log),
    slack_sync: slackSync(log),
    send_email: async (payload) => deliverEmail(payload as EmailMessage),
    store_poll_results: async (payload) => {
      const { occurrenceId } = payload as { occurrenceId: number };
      await storePollResults(occurrenceId);
    },
    store_participation_counts: async (payload) => {
      const { occurrenceId } = payload as { occurrenceId: number };
      await storeParticipationCounts(occurrenceId);
    },
    apply_retention: async () => {
      const changed = await applyRetention();
      for (const [teamId, counts] of changed) log(`apply_retention: team ${teamId} ${JSON.stringify(counts)}`);
      // Polls made anonymous since: their votes stop naming their voters too.
      const rewritten = await anonymisePollVoters();
      if (rewritten) log(`apply_retention: ${rewritten} votes of anonymous polls no longer name their voter`);
    },
    build_data_export: async (payload) => {
      const { exportId } = payload as { exportId: number };
      await buildDataExport(exportId);
    },
    anonymise_poll_voters: async () => {
      const rewritten = await anonymisePollVoters();
      if (rewritten) log(`anonymise_poll_voters: ${rewritten} votes of anonymous polls no longer name their voter`);
    },
    backup_nightly: backupNightly(log),
    refresh_calendars: async () => {
      const results = await refreshAllCalendarFeeds({ allowPrivate: deliverySettings().webhooksAllowPrivate });
      const changed = results.filter((r) => r.status === "updated").length;
      const failed = results.filter((r) => r.status === "error");
      if (changed || failed.length) log(`refresh_calendars: ${changed} feed(s) updated, ${failed.length} failed`);
    },
    refresh_calendar_feed: async (payload) => {
      const { feedId } = payload as { feedId: number };
      const r = await refreshCalendarFeed(feedId, { allowPrivate: deliverySettings().webhooksAllowPrivate });
      if (r.status === "error") log(`refresh_calendar_feed: feed ${feedId}: ${r.error}`);
    },
    fetch_activity: async (payload) => {
      const { occurrenceId } = payload as { occurrenceId: number };
      const results = await fillActivitySuggestions(occurrenceId, { allowPrivate: deliverySettings().webhooksAllowPrivate });
      const failed = results.filter((r) => r.errors.length).length;
      if (failed) log(`fetch_activity: occurrence ${occurrenceId}: ${failed} of ${results.length} person(s) with a failing source`);
    },
    import_geekbot: async (payload) => {
      await runDashboardImport(payload as ImportJobPayload, log);
    },
  };
}

/** The crontab (graphile-worker format: minute hour day month weekday task). Times are UTC. */
export const CRONTAB = [
  "* * * * * schedule_tick",
  "17 * * * * cleanup_idempotency",
  "* * * * * categorize_sweep",
  "41 * * * * slack_sync",
  "7 3 * * * backup_nightly",
  "23 3 * * * apply_retention",
  "11,41 * * * * refresh_calendars",
].join("\n");
