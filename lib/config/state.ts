/**
 * The team's current configuration as a "check-ins as code" document (issue 43), with the row ids
 * behind each named thing so that a plan can be applied. Standups and polls in state active or
 * paused (drafts and archived ones are not configuration), the team's holidays and webhooks
 * (never their secrets). Admins only (others: NotFoundError, as the other admin-only v2 extensions).
 */

import { typeFields } from "@/lib/config/plan";
import { CONFIG_VERSION, type PollDoc, type QuestionDoc, type StandupDoc, type TeamConfig } from "@/lib/config/schema";
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { NotFoundError } from "@/lib/domain/errors";

/** An existing question: its row id and its effective key (stored, else q<position+1>). */
export type QuestionRow = { id: number; key: string; storedKey: string | null; position: number; text: string };

/** The current document and the ids behind it. */
export type TeamState = {
  config: TeamConfig;
  standupIds: Map<string, number>;
  pollIds: Map<string, number>;
  holidayIds: Map<string, number>;
  webhookIds: Map<string, number>;
  /** Active questions per standup/poll id, in position order. */
  questions: Map<number, QuestionRow[]>;
};

/** @throws NotFoundError unless the actor is a team admin. */
export function requireConfigAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new NotFoundError("Configuration");
}

/** The key of a question in documents: the stored key, else `q<position + 1>`. */
export function effectiveKey(q: { key: string | null; position: number }): string {
  return q.key ?? `q${q.position + 1}`;
}

/**
 * Reads the team's configuration. Names that occur twice (two standups named "Daily") keep the
 * oldest row under that name; the others are left out of the document (and so are deleted by
 * `--prune`).
 * @throws NotFoundError (not an admin).
 */
export async function readTeamState(actor: Actor, tx: Tx = db): Promise<TeamState> {
  requireConfigAdmin(actor);
  const [team, checkins, holidays, webhooks] = await Promise.all([
    tx.team.findUniqueOrThrow({ where: { id: actor.teamId }, select: { name: true } }),
    tx.checkin.findMany({
      where: { team_id: actor.teamId, state: { in: ["active", "paused"] } },
      orderBy: [{ created_at: "asc" }, { id: "asc" }],
      include: {
        broadcast_channel: { select: { name: true } },
        sync_channel: { select: { name: true } },
        questions: { where: { archived_at: null }, orderBy: [{ position: "asc" }, { id: "asc" }] },
        members: { where: { user: { deactivated_at: null } }, select: { user: { select: { email: true } } } },
      },
    }),
    tx.teamHoliday.findMany({ where: { team_id: actor.teamId }, orderBy: { date: "asc" } }),
    tx.webhookEndpoint.findMany({ where: { team_id: actor.teamId }, orderBy: [{ created_at: "asc" }, { id: "asc" }] }),
  ]);

  const state: TeamState = {
    config: { version: CONFIG_VERSION, team: team.name, standups: [], polls: [], holidays: [], webhooks: [] },
    standupIds: new Map(),
    pollIds: new Map(),
    holidayIds: new Map(),
    webhookIds: new Map(),
    questions: new Map(),
  };
  for (const c of checkins) {
    const ids = c.kind === "standup" ? state.standupIds : state.pollIds;
    const nameKey = c.name.toLowerCase();
    if (ids.has(nameKey)) continue;
    ids.set(nameKey, c.id);
    const rows = c.questions.map((q, i) => ({
      id: q.id,
      key: effectiveKey({ key: q.key, position: i }),
      storedKey: q.key,
      position: i,
      text: q.text,
    }));
    state.questions.set(c.id, rows);
    const questions: QuestionDoc[] = c.questions.map((q, i) => ({
      key: rows[i].key,
      text: q.text,
      answer_type: q.answer_type,
      choices: [...q.choices],
      ...(c.kind === "standup" ? { is_blocker: q.is_blocker } : {}),
      ...typeFields(c.kind, {
        answer_type: q.answer_type,
        choices: q.choices,
        optional: q.optional,
        scale: { min: q.scale_min ?? undefined, max: q.scale_max ?? undefined, labels: q.scale_labels },
      }),
    }));
    const state_ = c.state === "paused" ? "paused" : "active";
    if (c.kind === "standup") {
      const syncName = c.sync_channel_members ? (c.sync_channel?.name ?? c.broadcast_channel?.name ?? null) : null;
      const standup: StandupDoc = {
        name: c.name,
        state: state_,
        time: c.time,
        timezone: c.timezone,
        days: [...c.days],
        wait_time: c.wait_time,
        personalised: c.personalised,
        reminders: { count: c.reminder_count, after_minutes: c.reminder_after_minutes },
        response_window_minutes: c.response_window_minutes,
        late_answer_days: c.late_answer_days,
        broadcast_channel: c.broadcast_channel?.name ?? null,
        sync_channel: syncName,
        members: syncName ? [] : c.members.map((m) => m.user.email.toLowerCase()).sort(),
        is_anonymous: c.is_anonymous,
        allow_anonymous_reports: c.allow_anonymous_reports,
        is_confidential: c.is_confidential,
        questions,
      };
      state.config.standups.push(standup);
    } else {
      const recurring = (c.recurrence as { type?: string } | null)?.type === "weekly";
      const poll: PollDoc = {
        name: c.name,
        state: state_,
        broadcast_channel: c.broadcast_channel?.name ?? "",
        schedule: recurring ? { days: [...c.days], time: c.time, timezone: c.timezone } : null,
        duration: c.duration,
        is_anonymous: c.is_anonymous,
        share_results: c.share_results,
        intro: c.intro,
        questions,
      };
      state.config.polls.push(poll);
    }
  }
  for (const h of holidays) {
    const date = h.date.toISOString().slice(0, 10);
    state.holidayIds.set(date, h.id);
    state.config.holidays.push({ date, name: h.name });
  }
  for (const w of webhooks) {
    if (state.webhookIds.has(w.url.toLowerCase())) continue;
    state.webhookIds.set(w.url.toLowerCase(), w.id);
    state.config.webhooks.push({ url: w.url, events: [...w.events], description: w.description, enabled: w.disabled_at === null });
  }
  return state;
}
