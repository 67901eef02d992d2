/**
 * Standups and polls of a Geekbot import (issue 43): each source standup/poll becomes one local
 * checkin with its questions (source question ids mapped in `import_map`), members, channel,
 * schedule, timezone, `wait_time`, `personalised`, anonymity and confidentiality. A second run
 * leaves an imported checkin as it is and only adds questions the source added since.
 * Nothing is sent: rows are written directly, no occurrence is opened, no job is queued.
 */
import type { Tx } from "@/lib/db";
import { isValidTimezone, nextRunAt, parseTimeOfDay } from "@/lib/domain/schedule";
import type { AnswerType, CheckinState } from "@/lib/generated/prisma/client";
import type { ImportContext } from "@/lib/import/geekbot/context";
import { emailKey } from "@/lib/import/geekbot/context";
import type { SourcePoll, SourceQuestion, SourceStandup, SourceUser } from "@/lib/import/geekbot/source";
import { loadMap, recordMap } from "@/lib/import/map";

const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The local checkin id and question ids (by source question id) of one imported standup or poll. */
export type ImportedCheckin = { id: number; timezone: string; time: string; questions: Map<string, number>; memberIds: number[] };

function answerTypeOf(type: string | null | undefined): AnswerType {
  if (type === "multiple_choice" || type === "open_ended" || type === "numeric") return type;
  return "text";
}

function timeOf(ctx: ImportContext, what: string, time: string | null | undefined): string {
  try {
    return parseTimeOfDay(time ?? "09:00:00");
  } catch {
    ctx.summary.notes.push({ what, id: String(time), reason: "unreadable time: 09:00:00 used" });
    return "09:00:00";
  }
}

function timezoneOf(ctx: ImportContext, what: string, tz: string | null | undefined): string {
  if (tz && isValidTimezone(tz)) return tz;
  if (tz) ctx.summary.notes.push({ what, id: tz, reason: "unknown timezone: UTC used" });
  return "UTC";
}

function memberIdsOf(ctx: ImportContext, users: SourceUser[]): number[] {
  const ids = users.map((u) => ctx.users.get(u.id) ?? (u.email ? ctx.users.get(emailKey(u.email)) : undefined));
  return [...new Set(ids.filter((id): id is number => id !== undefined))];
}

/** Adds the source questions not mapped yet (after the existing ones); returns every mapping of the checkin. */
async function importQuestions(
  tx: Tx,
  ctx: ImportContext,
  checkinId: number,
  questions: SourceQuestion[],
  created: Date,
): Promise<Map<string, number>> {
  const mapped = await loadMap(
    tx,
    ctx.scope,
    "question",
    questions.map((q) => q.id),
  );
  const fresh = questions.filter((q) => !mapped.has(q.id));
  if (fresh.length) {
    const last = await tx.question.aggregate({ where: { checkin_id: checkinId }, _max: { position: true } });
    const start = (last._max.position ?? -1) + 1;
    const rows = await tx.question.createManyAndReturn({
      data: fresh.map((q, i) => ({
        team_id: ctx.scope.teamId,
        checkin_id: checkinId,
        position: start + i,
        text: q.text,
        answer_type: answerTypeOf(q.answer_type),
        choices: q.answer_choices ?? [],
        color: q.color && /^[0-9A-Fa-f]{6}$/.test(q.color) ? q.color.toUpperCase() : "EEEEEE",
        add_own_options: q.add_own_options ?? false,
        one_option_limit: q.one_option_limit ?? true,
        created_at: created,
      })),
      select: { id: true, position: true },
    });
    const pairs = rows.map((r): [string, number] => [fresh[r.position - start].id, r.id]);
    await recordMap(tx, ctx.scope, "question", pairs);
    for (const [k, v] of pairs) mapped.set(k, v);
    ctx.summary.questions.created += rows.length;
  }
  return mapped;
}

type CheckinFields = {
  kind: "standup" | "poll";
  sourceId: string;
  name: string;
  state: CheckinState;
  time: string | null | undefined;
  timezone: string | null | undefined;
  days: string[] | null | undefined;
  channel: string | null | undefined;
  ownerSourceId: string | null | undefined;
  ownerEmail?: string | null;
  users: SourceUser[];
  questions: SourceQuestion[];
  extra: Record<string, unknown>;
};

async function importCheckin(ctx: ImportContext, f: CheckinFields): Promise<ImportedCheckin & { created: boolean }> {
  const what = `${f.kind} ${f.sourceId}`;
  return ctx.write(async (tx) => {
    const existing = (await loadMap(tx, ctx.scope, f.kind, [f.sourceId])).get(f.sourceId);
    const memberIds = memberIdsOf(ctx, f.users);
    let row: { id: number; timezone: string; time: string; created_at: Date };
    if (existing !== undefined) {
      row = await tx.checkin.findUniqueOrThrow({
        where: { id: existing },
        select: { id: true, timezone: true, time: true, created_at: true },
      });
    } else {
      const time = timeOf(ctx, what, f.time);
      const timezone = timezoneOf(ctx, what, f.timezone);
      const days = (f.days ?? []).map((d) => d.slice(0, 1).toUpperCase() + d.slice(1, 3).toLowerCase()).filter((d) => DAYS.includes(d));
      const owner =
        (f.ownerSourceId ? ctx.users.get(f.ownerSourceId) : undefined) ??
        (f.ownerEmail ? ctx.users.get(emailKey(f.ownerEmail)) : undefined) ??
        ctx.fallbackOwnerId;
      const channelName = f.channel?.replace(/^#/, "").trim();
      row = await tx.checkin.create({
        data: {
          team_id: ctx.scope.teamId,
          kind: f.kind,
          name: f.name.slice(0, 200),
          state: f.state,
          time,
          timezone,
          days,
          broadcast_channel_id: channelName ? (ctx.channels.get(channelName) ?? null) : null,
          owner_id: owner,
          next_run_at: f.state === "active" ? nextRunAt({ time, timezone, days, after: new Date() }) : null,
          ...f.extra,
          members: { create: memberIds.map((user_id) => ({ user_id })) },
        },
        select: { id: true, timezone: true, time: true, created_at: true },
      });
      await recordMap(tx, ctx.scope, f.kind, [[f.sourceId, row.id]]);
    }
    const questions = await importQuestions(tx, ctx, row.id, f.questions, row.created_at);
    return { id: row.id, timezone: row.timezone, time: row.time, questions, memberIds, created: existing === undefined };
  });
}

/** Imports one source standup (created once; later runs add only new questions). */
export async function importStandup(ctx: ImportContext, s: SourceStandup): Promise<ImportedCheckin> {
  const state: CheckinState = s.draft ? "draft" : s.paused ? "paused" : "active";
  const r = await importCheckin(ctx, {
    kind: "standup",
    sourceId: s.id,
    name: s.name,
    state,
    time: s.time,
    timezone: s.timezone,
    days: s.days,
    channel: s.channel,
    ownerSourceId: s.master ?? null,
    users: s.users,
    questions: s.questions,
    extra: {
      wait_time: s.wait_time === null || s.wait_time === undefined || s.wait_time < 0 ? null : Math.round(s.wait_time),
      personalised: s.personalised ?? false,
      is_anonymous: s.anonymous ?? false,
      is_confidential: s.confidential ?? false,
    },
  });
  if (r.created) ctx.summary.standups.created++;
  else ctx.summary.standups.existing++;
  return r;
}

/** Imports one source poll (created once; later runs add only new questions). */
export async function importPoll(ctx: ImportContext, p: SourcePoll): Promise<ImportedCheckin> {
  const duration = (p as { duration?: unknown }).duration;
  const r = await importCheckin(ctx, {
    kind: "poll",
    sourceId: p.id,
    name: p.name,
    state: p.paused ? "paused" : "active",
    time: p.time,
    timezone: p.timezone,
    days: p.days,
    channel: p.channel,
    ownerSourceId: p.creator?.id ?? null,
    ownerEmail: p.creator?.email ?? null,
    users: p.users,
    questions: p.questions,
    extra: {
      is_anonymous: p.anonymous ?? false,
      intro: p.intro ?? null,
      recurrence: p.recurrence ?? { type: "once", repeat: null, every: null, day: null, month: null },
      duration: typeof duration === "number" && Number.isInteger(duration) && duration > 0 ? duration : null,
      dm_mode: false,
      // A one-time poll is not scheduled again here: its broadcasts are history.
      ...(p.recurrence?.type === "weekly" ? {} : { next_run_at: null }),
    },
  });
  if (r.created) ctx.summary.polls.created++;
  else ctx.summary.polls.existing++;
  return r;
}
