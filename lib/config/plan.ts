/**
 * Planning a "check-ins as code" document against the team (issue 43): what `apply` would create,
 * change (field by field, questions by key) and, with `prune`, delete. Pure: it compares the
 * current document (lib/config/state.ts) with the desired one after both are put in canonical form
 * (times HH:MM:SS, days in week order, channel names without '#', e-mails lower-cased and sorted).
 */

import { ConfigDocumentError } from "@/lib/config/errors";
import type { PollDoc, QuestionDoc, StandupDoc, TeamConfig } from "@/lib/config/schema";
import { RATING_SCALE } from "@/lib/domain/question-types";
import { parseTimeOfDay } from "@/lib/domain/schedule";
import { parseDays } from "@/lib/domain/standup-config";

/** One field that differs: `field` is a path inside the item (`questions[key=done].text`). */
export type FieldChange = { field: string; from: unknown; to: unknown };

export type ConfigKind = "standup" | "poll" | "holiday" | "webhook";

/** One planned step. `name`: the item's identity (standup/poll name, holiday date, webhook url). */
export type PlannedChange = { action: "create" | "change" | "delete"; kind: ConfigKind; name: string; fields: FieldChange[] };

/** The plan: the steps, and the items the document does not name (deleted only with `prune`). */
export type ConfigPlan = { changes: PlannedChange[]; unmanaged: Array<{ kind: ConfigKind; name: string }> };

const channel = (name: string | null): string | null => (name === null ? null : name.replace(/^#/, "").trim());

/** The answer type a question gets when the document leaves it out. */
export function defaultAnswerType(kind: "standup" | "poll", q: Pick<QuestionDoc, "answer_type" | "choices">): string {
  if (q.answer_type) return q.answer_type;
  if (q.choices?.length) return "multiple_choice";
  return kind === "standup" ? "text" : "open_ended";
}

/**
 * `optional` (only when true) and the full rating `scale` (defaults filled in) of a standup
 * question, as the export writes them, so a document and the stored state compare equal.
 */
export function typeFields(kind: "standup" | "poll", q: Pick<QuestionDoc, "answer_type" | "choices" | "optional" | "scale">) {
  if (kind !== "standup") return {};
  const scale =
    defaultAnswerType(kind, q) === "rating"
      ? {
          scale: {
            min: q.scale?.min ?? RATING_SCALE.defaultMin,
            max: q.scale?.max ?? RATING_SCALE.defaultMax,
            labels: [...(q.scale?.labels ?? [])],
          },
        }
      : {};
  return { ...(q.optional ? { optional: true } : {}), ...scale };
}

function canonicalQuestions(kind: "standup" | "poll", questions: readonly QuestionDoc[]): QuestionDoc[] {
  return questions.map((q, i) => ({
    key: q.key ?? `q${i + 1}`,
    text: q.text.trim(),
    answer_type: defaultAnswerType(kind, q),
    choices: [...(q.choices ?? [])],
    ...(q.is_blocker !== undefined ? { is_blocker: q.is_blocker } : {}),
    ...typeFields(kind, q),
  }));
}

function schedule<T extends { days: string[]; time: string }>(value: T, path: string): T {
  try {
    return { ...value, days: parseDays(value.days), time: parseTimeOfDay(value.time) };
  } catch (e) {
    throw new ConfigDocumentError([{ path, message: (e as Error).message }]);
  }
}

/** The document in canonical form. @throws ConfigDocumentError for a time that is not a time of day. */
export function canonicalConfig(config: TeamConfig): TeamConfig {
  return {
    ...config,
    standups: config.standups.map((s: StandupDoc, i) => {
      const sync = channel(s.sync_channel);
      return {
        ...schedule(s, `standups[${i}].time`),
        broadcast_channel: channel(s.broadcast_channel),
        sync_channel: sync,
        members: sync ? [] : [...new Set(s.members.map((m) => m.trim().toLowerCase()))].sort(),
        questions: canonicalQuestions("standup", s.questions),
      };
    }),
    polls: config.polls.map((p: PollDoc, i) => ({
      ...p,
      broadcast_channel: channel(p.broadcast_channel) ?? "",
      schedule: p.schedule ? schedule(p.schedule, `polls[${i}].schedule.time`) : null,
      questions: canonicalQuestions("poll", p.questions),
    })),
    webhooks: config.webhooks.map((w) => ({ ...w, events: [...new Set(w.events)].sort() })),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Field-level differences of two questions lists, matched by key. */
function questionChanges(current: QuestionDoc[], desired: QuestionDoc[]): FieldChange[] {
  const out: FieldChange[] = [];
  const byKey = new Map(current.map((q) => [q.key, q]));
  for (const q of desired) {
    const c = byKey.get(q.key as string);
    if (!c) {
      out.push({ field: `questions[key=${q.key}]`, from: null, to: q });
      continue;
    }
    for (const f of ["text", "answer_type", "choices", "is_blocker"] as const) {
      if (q[f] === undefined) continue;
      if (!same(c[f], q[f])) out.push({ field: `questions[key=${q.key}].${f}`, from: c[f] ?? null, to: q[f] });
    }
    // Absent means "not optional" / "no scale": leaving them out of the file is a change too.
    for (const f of ["optional", "scale"] as const) {
      const from = c[f] ?? (f === "optional" ? false : null);
      const to = q[f] ?? (f === "optional" ? false : null);
      if (!same(from, to)) out.push({ field: `questions[key=${q.key}].${f}`, from, to });
    }
  }
  const wanted = new Set(desired.map((q) => q.key));
  for (const c of current) if (!wanted.has(c.key)) out.push({ field: `questions[key=${c.key}]`, from: c, to: null });
  const order = (qs: QuestionDoc[]) => qs.map((q) => q.key).filter((k) => byKey.has(k as string) && wanted.has(k));
  if (!same(order(current), order(desired)))
    out.push({ field: "questions.order", from: current.map((q) => q.key), to: desired.map((q) => q.key) });
  return out;
}

function itemChanges<T extends object>(current: T, desired: T): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [field, to] of Object.entries(desired)) {
    if (field === "questions") {
      out.push(...questionChanges((current as { questions: QuestionDoc[] }).questions, to as QuestionDoc[]));
      continue;
    }
    const from = (current as Record<string, unknown>)[field];
    if (field === "members" && (desired as { sync_channel?: string | null }).sync_channel) continue;
    if (!same(from, to)) out.push({ field, from: from ?? null, to });
  }
  return out;
}

/**
 * Compares `current` with `desired` (both canonical).
 * @returns the plan: creates and changes in document order, then deletes (only when `prune`).
 */
export function planConfig(current: TeamConfig, desired: TeamConfig, opts: { prune: boolean }): ConfigPlan {
  const plan: ConfigPlan = { changes: [], unmanaged: [] };
  const lists: Array<[ConfigKind, Array<{ id: string; item: object }>, Array<{ id: string; item: object }>]> = [
    ["standup", current.standups.map((s) => ({ id: s.name, item: s })), desired.standups.map((s) => ({ id: s.name, item: s }))],
    ["poll", current.polls.map((p) => ({ id: p.name, item: p })), desired.polls.map((p) => ({ id: p.name, item: p }))],
    ["holiday", current.holidays.map((h) => ({ id: h.date, item: h })), desired.holidays.map((h) => ({ id: h.date, item: h }))],
    ["webhook", current.webhooks.map((w) => ({ id: w.url, item: w })), desired.webhooks.map((w) => ({ id: w.url, item: w }))],
  ];
  const deletes: PlannedChange[] = [];
  for (const [kind, have, want] of lists) {
    const byId = new Map(have.map((h) => [h.id.toLowerCase(), h.item]));
    for (const w of want) {
      const c = byId.get(w.id.toLowerCase());
      if (!c) plan.changes.push({ action: "create", kind, name: w.id, fields: [] });
      else {
        const fields = itemChanges(c, w.item);
        if (fields.length) plan.changes.push({ action: "change", kind, name: w.id, fields });
      }
    }
    const named = new Set(want.map((w) => w.id.toLowerCase()));
    for (const h of have) {
      if (named.has(h.id.toLowerCase())) continue;
      if (opts.prune) deletes.push({ action: "delete", kind, name: h.id, fields: [] });
      else plan.unmanaged.push({ kind, name: h.id });
    }
  }
  plan.changes.push(...deletes);
  return plan;
}
