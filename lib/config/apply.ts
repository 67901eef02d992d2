/**
 * Planning and applying a "check-ins as code" document to the actor's team (issue 43; served by
 * POST /v2/config/plan and POST /v2/config/apply, a v2 extension). `applyTeamConfig` runs in the
 * caller's one transaction: it either makes the whole document so or changes nothing, and a second
 * run plans no change (idempotent). Only the items the plan names are written.
 * - standups: created owned by the actor (no question is asked now; the scheduler asks at the next
 *   scheduled time), changed field by field, archived by `prune` (reports and history are kept);
 * - questions: matched by key (stored key, else `q<position+1>`), then by text; a matched question
 *   keeps its id and answers whatever its wording; unmatched ones are archived;
 * - polls: created as `createPoll` does (a one-shot poll is broadcast at once), changed, deleted;
 * - holidays by date; webhooks by url (a new endpoint's secret is returned once, never stored in
 *   the document).
 */

import { ConfigDocumentError } from "@/lib/config/errors";
import { type ConfigPlan, canonicalConfig, planConfig } from "@/lib/config/plan";
import { type ConfigRefs, resolveConfigRefs } from "@/lib/config/references";
import type { PollDoc, QuestionDoc, StandupDoc, TeamConfig } from "@/lib/config/schema";
import { type QuestionRow, readTeamState, requireConfigAdmin, type TeamState } from "@/lib/config/state";
import { db, queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { refreshNextRunAt } from "@/lib/domain/asking-times";
import { channelMemberIds } from "@/lib/domain/channels";
import { InvalidParameterError } from "@/lib/domain/errors";
import { addHoliday, removeHoliday } from "@/lib/domain/holidays";
import { setMembers } from "@/lib/domain/members";
import { deletePoll } from "@/lib/domain/poll-lifecycle";
import { createPoll } from "@/lib/domain/polls";
import { parseQuestionType, type QuestionType } from "@/lib/domain/question-types";
import { looksLikeBlockerQuestion } from "@/lib/domain/standup-config";
import { createStandup } from "@/lib/domain/standup-writes";
import type { WebhookEventType } from "@/lib/domain/webhook-events";
import { createWebhook, deleteWebhook, updateWebhook } from "@/lib/domain/webhooks";
import { type AnswerType, Prisma } from "@/lib/generated/prisma/client";

/** What `applyTeamConfig` did: the plan it carried out and the secrets of webhooks it created. */
export type ApplyResult = { plan: ConfigPlan; secrets: Array<{ url: string; secret: string }> };

/** First key of the per-team advisory lock of `applyTeamConfig` ("config" in ASCII). */
const CONFIG_LOCK_CLASS = 0x636f6e66;

type Prepared = { state: TeamState; desired: TeamConfig; refs: ConfigRefs; plan: ConfigPlan };

async function prepare(actor: Actor, config: TeamConfig, prune: boolean, tx: Tx): Promise<Prepared> {
  const state = await readTeamState(actor, tx);
  const desired = canonicalConfig(config);
  const refs = await resolveConfigRefs(actor, desired, tx);
  return { state, desired, refs, plan: planConfig(canonicalConfig(state.config), desired, { prune }) };
}

/**
 * The plan of `config` against the team: creates, field-level changes, deletes (with `prune`).
 * @throws NotFoundError (not an admin), ConfigDocumentError (unknown channel, person, timezone, answer type...).
 */
export async function planTeamConfig(actor: Actor, config: TeamConfig, opts: { prune: boolean }, tx: Tx = db): Promise<ConfigPlan> {
  return (await prepare(actor, config, opts.prune, tx)).plan;
}

/**
 * Makes the team match `config` in `tx` (one transaction: all or nothing).
 * @throws as `planTeamConfig`; InvalidParameterError from the domain writes (e.g. a webhook url refused).
 */
export async function applyTeamConfig(actor: Actor, config: TeamConfig, opts: { prune: boolean }, tx: Tx): Promise<ApplyResult> {
  requireConfigAdmin(actor);
  // Two applies to one team run one after the other (the second plans against the first's result).
  await queryRows(Prisma.sql`SELECT pg_advisory_xact_lock(${CONFIG_LOCK_CLASS}::int, ${actor.teamId}::int)::text AS locked`, tx);
  const { state, desired, refs, plan } = await prepare(actor, config, opts.prune, tx);
  const secrets: ApplyResult["secrets"] = [];
  const find = <T extends { name: string }>(items: T[], name: string) =>
    items.find((i) => i.name.toLowerCase() === name.toLowerCase()) as T;
  for (const change of plan.changes) {
    const key = change.name.toLowerCase();
    if (change.kind === "standup") {
      if (change.action === "delete") {
        await tx.checkin.update({ where: { id: state.standupIds.get(key) }, data: { state: "archived", next_run_at: null } });
        continue;
      }
      const doc = find(desired.standups, change.name);
      const id = state.standupIds.get(key) ?? (await createStandupShell(actor, doc, tx));
      await writeStandup(tx, id, doc, refs, state.questions.get(id) ?? []);
    } else if (change.kind === "poll") {
      const id = state.pollIds.get(key);
      if (change.action === "delete") await deletePoll(actor, id as number, tx);
      else {
        const doc = find(desired.polls, change.name);
        const pollId = id ?? (await createPollShell(actor, doc, tx));
        const existing = id ? (state.questions.get(id) ?? []) : await questionRows(tx, pollId);
        await writePoll(tx, pollId, doc, refs, existing);
      }
    } else if (change.kind === "holiday") {
      const id = state.holidayIds.get(change.name);
      const doc = desired.holidays.find((h) => h.date === change.name);
      if (change.action === "delete") await removeHoliday(actor, { holidayId: id as number }, tx);
      else if (change.action === "create" && doc) await addHoliday(actor, doc, tx);
      else if (doc) await tx.teamHoliday.update({ where: { id }, data: { name: doc.name } });
    } else {
      const id = state.webhookIds.get(key);
      const index = desired.webhooks.findIndex((w) => w.url.toLowerCase() === key);
      const doc = desired.webhooks[index];
      if (change.action === "delete") await deleteWebhook(actor, id as number, tx);
      else if (doc) await writeWebhook(actor, id, doc, `webhooks[${index}]`, secrets, tx);
    }
  }
  return { plan, secrets };
}

/** Creates or changes one webhook; a refused url or event names the webhook's path in the document. */
async function writeWebhook(
  actor: Actor,
  id: number | undefined,
  doc: TeamConfig["webhooks"][number],
  path: string,
  secrets: ApplyResult["secrets"],
  tx: Tx,
): Promise<void> {
  try {
    const events = doc.events as WebhookEventType[];
    if (id === undefined) {
      const { webhook, secret } = await createWebhook(actor, { url: doc.url, events, description: doc.description }, tx);
      secrets.push({ url: doc.url, secret });
      if (!doc.enabled) await updateWebhook(actor, webhook.id, { enabled: false }, tx);
    } else {
      await updateWebhook(actor, id, { events, description: doc.description, enabled: doc.enabled }, tx);
    }
  } catch (e) {
    if (e instanceof InvalidParameterError && !(e instanceof ConfigDocumentError))
      throw new ConfigDocumentError([{ path, message: e.message }]);
    throw e;
  }
}

/** A new standup with the document's schedule; `writeStandup` then sets everything else. */
async function createStandupShell(actor: Actor, doc: StandupDoc, tx: Tx): Promise<number> {
  const { id } = await createStandup(
    actor,
    {
      name: doc.name,
      questions: doc.questions.map((q) => ({ text: q.text })),
      days: doc.days,
      time: doc.time,
      timezone: doc.timezone,
      broadcastChannel: null,
      syncChannelMembers: false,
      users: [],
      state: doc.state,
    },
    tx,
  );
  return id;
}

/** A new poll as `createPoll` makes it (a one-shot poll is broadcast now); `writePoll` then sets the rest. */
async function createPollShell(actor: Actor, doc: PollDoc, tx: Tx): Promise<number> {
  const { id } = await createPoll(
    actor,
    {
      name: doc.name,
      questions: doc.questions.map((q) =>
        (q.choices?.length ?? 0) >= 2
          ? { text: q.text, answerType: "multiple_choice" as const, choices: q.choices }
          : { text: q.text, answerType: "open_ended" as const },
      ),
      broadcastChannel: doc.broadcast_channel,
      duration: doc.duration,
      isAnonymous: doc.is_anonymous,
      shareResults: doc.share_results,
      intro: doc.intro,
      schedule: doc.schedule,
    },
    tx,
  );
  return id;
}

/** The stored type columns of standup question `q` (lib/domain/question-types.ts); a refused one names its path. */
function typeColumns(position: number, q: QuestionDoc) {
  const { optional, scale_min, scale_max, scale_labels } = parseQuestionType(
    position,
    { answerType: q.answer_type as QuestionType, optional: q.optional, scale: q.scale },
    [...(q.choices ?? [])],
  );
  return { optional, scale_min, scale_max, scale_labels };
}

async function questionRows(tx: Tx, checkinId: number): Promise<QuestionRow[]> {
  const rows = await tx.question.findMany({
    where: { checkin_id: checkinId, archived_at: null },
    orderBy: [{ position: "asc" }, { id: "asc" }],
    select: { id: true, key: true, text: true },
  });
  return rows.map((q, i) => ({ id: q.id, key: q.key ?? `q${i + 1}`, storedKey: q.key, position: i, text: q.text }));
}

/** Writes every field of a standup from the document (members, channels, questions) and reschedules it. */
async function writeStandup(tx: Tx, id: number, doc: StandupDoc, refs: ConfigRefs, existing: QuestionRow[]): Promise<void> {
  const broadcastId = doc.broadcast_channel ? (refs.channels.get(doc.broadcast_channel.toLowerCase()) ?? null) : null;
  const syncId = doc.sync_channel ? (refs.channels.get(doc.sync_channel.toLowerCase()) ?? null) : null;
  const row = await tx.checkin.update({
    where: { id },
    data: {
      name: doc.name,
      state: doc.state,
      time: doc.time,
      timezone: doc.timezone,
      days: doc.days,
      wait_time: doc.wait_time,
      personalised: doc.personalised,
      reminder_count: doc.reminders.count,
      reminder_after_minutes: doc.reminders.after_minutes,
      response_window_minutes: doc.response_window_minutes,
      late_answer_days: doc.late_answer_days,
      broadcast_channel_id: broadcastId,
      sync_channel_id: syncId,
      sync_channel_members: syncId !== null,
      is_anonymous: doc.is_anonymous,
      allow_anonymous_reports: doc.allow_anonymous_reports,
      is_confidential: doc.is_confidential,
    },
    select: { id: true, team_id: true },
  });
  const members = syncId !== null ? await channelMemberIds(syncId, tx) : doc.members.map((e) => refs.users.get(e) as number);
  await setMembers(tx, row, members);
  if (existing.length === 0) existing = await questionRows(tx, id);
  await reconcileQuestions(tx, row, doc.questions, existing, true);
  await refreshNextRunAt(id, tx);
}

/** Writes every field of a poll from the document and reschedules it. */
async function writePoll(tx: Tx, id: number, doc: PollDoc, refs: ConfigRefs, existing: QuestionRow[]): Promise<void> {
  const channelId = refs.channels.get(doc.broadcast_channel.toLowerCase()) as number;
  const before = await tx.checkin.findUniqueOrThrow({ where: { id }, select: { broadcast_channel_id: true, days: true, time: true } });
  const row = await tx.checkin.update({
    where: { id },
    data: {
      name: doc.name,
      state: doc.state,
      broadcast_channel_id: channelId,
      sync_channel_id: channelId,
      sync_channel_members: true,
      duration: doc.duration,
      is_anonymous: doc.is_anonymous,
      share_results: doc.share_results,
      intro: doc.intro,
      ...(doc.schedule
        ? {
            days: doc.schedule.days,
            time: doc.schedule.time,
            timezone: doc.schedule.timezone,
            recurrence: { type: "weekly", repeat: null, every: 1, day: null, month: null },
          }
        : { recurrence: { type: "once", repeat: null, every: null, day: null, month: null } }),
    },
    select: { id: true, team_id: true },
  });
  if (before.broadcast_channel_id !== channelId) await setMembers(tx, row, await channelMemberIds(channelId, tx));
  await reconcileQuestions(tx, row, doc.questions, existing, false);
  await refreshNextRunAt(id, tx);
}

/**
 * Makes the active questions exactly `desired` in order: by key, then by text; matched rows keep
 * their id (and answers or votes) and get the document's wording, type, choices and key; new ones
 * are created; the rest are archived (never deleted).
 */
async function reconcileQuestions(
  tx: Tx,
  checkin: { id: number; team_id: number },
  desired: QuestionDoc[],
  existing: QuestionRow[],
  standup: boolean,
): Promise<void> {
  const unused = [...existing];
  const take = (i: number) => (i >= 0 ? unused.splice(i, 1)[0] : undefined);
  const matched = desired.map((q) => take(unused.findIndex((e) => e.key === q.key)));
  desired.forEach((q, i) => {
    matched[i] ??= take(unused.findIndex((e) => e.text === q.text));
  });
  for (const [position, q] of desired.entries()) {
    const data = {
      position,
      text: q.text,
      key: q.key as string,
      answer_type: q.answer_type as AnswerType,
      choices: q.choices ?? [],
      ...(standup && q.is_blocker !== undefined ? { is_blocker: q.is_blocker } : {}),
      // Standups: optional and the rating scale, checked as POST /v2/standups checks them.
      ...(standup ? typeColumns(position, q) : {}),
    };
    const m = matched[position];
    if (m) await tx.question.update({ where: { id: m.id }, data });
    else
      await tx.question.create({
        data: { team_id: checkin.team_id, checkin_id: checkin.id, is_blocker: standup && looksLikeBlockerQuestion(q.text), ...data },
      });
  }
  if (unused.length) await tx.question.updateMany({ where: { id: { in: unused.map((q) => q.id) } }, data: { archived_at: new Date() } });
}
