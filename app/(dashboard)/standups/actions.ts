"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { ActionState } from "@/components/ui/action-form";
import { type FormState, formValues, zodFieldErrors } from "@/components/ui/form-state";
import { getActor } from "@/lib/auth/session";
import { retryFailedMessage } from "@/lib/chat/retry";
import { ASKING_LIMITS, MAX_QUESTIONS } from "@/lib/domain/constants";
import { DomainError, ForbiddenError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";
import { startStandup } from "@/lib/domain/occurrences";
import { QUESTION_TYPES } from "@/lib/domain/question-types";
import {
  archiveStandup,
  createStandup,
  duplicateStandup,
  setStandupPrivacy,
  setStandupState,
  updateStandup,
} from "@/lib/domain/standup-writes";
import { getStandupSettings } from "@/lib/domain/standups";
import { formAction } from "../form-action";

export type StandupFormState = FormState;

/** "Ask now" skips members asked or reminded this recently (issue 41 item 11). */
const ASK_NOW_COALESCE_MS = 60_000;

const questionSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, "Every question needs text")
    .max(LIMITS.questionText, `Questions are at most ${LIMITS.questionText} characters`),
  choices: z
    .array(z.string().trim().min(1).max(LIMITS.choiceText, `Choices are at most ${LIMITS.choiceText} characters`))
    .max(LIMITS.choices, `At most ${LIMITS.choices} choices per question`)
    .optional(),
  isBlocker: z.boolean().optional(),
  answerType: z.enum(QUESTION_TYPES).optional(),
  optional: z.boolean().optional(),
  scale: z
    .object({
      min: z.number({ message: "Enter the lowest rating" }).int("Ratings are whole numbers"),
      max: z.number({ message: "Enter the highest rating" }).int("Ratings are whole numbers"),
      labels: z.array(z.string().trim().min(1).max(LIMITS.choiceText, `Labels are at most ${LIMITS.choiceText} characters`)),
    })
    .optional(),
});

/** A whole number typed into the form, `min`..`max`, with messages naming what it counts. */
function wholeNumber(min: number, max: number, what: string) {
  return z
    .string()
    .trim()
    .regex(/^-?\d+$/, `Enter a whole number of ${what}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `Enter ${min} to ${max} ${what}`);
}

const formSchema = z.object({
  name: z.string().trim().min(1, "Give the standup a name").max(LIMITS.name, `Names are at most ${LIMITS.name} characters`),
  questions: z.array(questionSchema).min(1, "Add at least one question").max(MAX_QUESTIONS, `At most ${MAX_QUESTIONS} questions`),
  days: z.array(z.string()).min(1, "Pick at least one day"),
  time: z.string().regex(/^\d{2}:\d{2}(:\d{2})?$/, "Pick a time"),
  timezone: z.string().min(1, "Pick a timezone"),
  broadcastChannel: z.string().min(1, "Pick a broadcast channel"),
  memberSource: z.enum(["users", "sync"]),
  users: z.array(z.string()).max(LIMITS.users, `At most ${LIMITS.users} members`),
  syncChannel: z.string(),
  isAnonymous: z.boolean(),
  isConfidential: z.boolean(),
  personalised: z.boolean(),
  allowAnonymousReports: z.boolean(),
  askingMode: z.enum(["auto", "manual"], { message: "Choose how members are asked" }),
  waitTime: z.union([z.literal(""), wholeNumber(0, ASKING_LIMITS.maxWaitTime, "minutes")]),
  reminderCount: wholeNumber(0, ASKING_LIMITS.maxReminders, "reminders"),
  reminderAfterMinutes: wholeNumber(1, ASKING_LIMITS.maxReminderAfterMinutes, "minutes"),
  responseWindowMinutes: z.union([z.literal(""), wholeNumber(1, ASKING_LIMITS.maxResponseWindowMinutes, "minutes")]),
  lateAnswerDays: wholeNumber(0, ASKING_LIMITS.maxLateAnswerDays, "days"),
});

type ParsedForm = z.infer<typeof formSchema>;

/**
 * Multiple-choice questions (a `choices` array was sent) with fewer than two distinct choices, by
 * the form's field id (`q-<i>-choices`): they were silently saved as text questions before.
 */
function choicesErrors(questions: ParsedForm["questions"]): Record<string, string> {
  const out: Record<string, string> = {};
  questions.forEach((q, i) => {
    if (q.choices === undefined) return;
    const kind = q.answerType === "multi_select" ? "multi-select" : "multiple choice";
    if (new Set(q.choices).size < 2)
      out[`q-${i}-choices`] =
        `Question ${i + 1} is ${kind}: add at least two different choices, one per line, or choose another answer type.`;
  });
  return out;
}

function parseForm(form: FormData): ParsedForm | StandupFormState {
  const values = formValues(form);
  let questions: unknown = [];
  try {
    questions = JSON.parse(String(form.get("questions") ?? "[]"));
  } catch {
    return { values, error: "The questions could not be read" };
  }
  const parsed = formSchema.safeParse({
    name: String(form.get("name") ?? ""),
    questions,
    days: form.getAll("days").map(String),
    time: String(form.get("time") ?? ""),
    timezone: String(form.get("timezone") ?? ""),
    broadcastChannel: String(form.get("broadcastChannel") ?? ""),
    memberSource: String(form.get("memberSource") ?? "users"),
    users: form.getAll("users").map(String),
    syncChannel: String(form.get("syncChannel") ?? ""),
    isAnonymous: form.get("isAnonymous") === "on",
    isConfidential: form.get("isConfidential") === "on",
    personalised: form.get("personalised") === "on",
    allowAnonymousReports: form.get("allowAnonymousReports") === "on",
    askingMode: String(form.get("askingMode") ?? "auto"),
    waitTime: String(form.get("waitTime") ?? "").trim(),
    reminderCount: String(form.get("reminderCount") ?? ""),
    reminderAfterMinutes: String(form.get("reminderAfterMinutes") ?? ""),
    responseWindowMinutes: String(form.get("responseWindowMinutes") ?? "").trim(),
    lateAnswerDays: String(form.get("lateAnswerDays") ?? ""),
  });
  if (!parsed.success) return { values, error: "Please correct the fields marked below.", fieldErrors: zodFieldErrors(parsed.error) };
  const fewChoices = choicesErrors(parsed.data.questions);
  if (Object.keys(fewChoices).length) return { values, error: "Please correct the fields marked below.", fieldErrors: fewChoices };
  if (parsed.data.memberSource === "users" && parsed.data.users.length === 0)
    return { values, fieldErrors: { users: "Pick at least one member, or sync members from a channel" } };
  if (parsed.data.askingMode === "auto" && parsed.data.waitTime === "")
    return { values, fieldErrors: { waitTime: "Enter the minutes to wait (0 asks at the scheduled time)" } };
  return parsed.data;
}

/** The asking settings of the form as the standup writes take them (manual only = `waitTime` null). */
function askingOf(p: ParsedForm) {
  return {
    waitTime: p.askingMode === "manual" || p.waitTime === "" ? null : p.waitTime,
    reminderCount: p.reminderCount,
    reminderAfterMinutes: p.reminderAfterMinutes,
    responseWindowMinutes: p.responseWindowMinutes === "" ? null : p.responseWindowMinutes,
    lateAnswerDays: p.lateAnswerDays,
  };
}

/** Domain field names (snake case, as error messages start) → form field names. */
const ASKING_FIELDS: Record<string, string> = {
  wait_time: "waitTime",
  reminder_count: "reminderCount",
  reminder_after_minutes: "reminderAfterMinutes",
  response_window_minutes: "responseWindowMinutes",
  late_answer_days: "lateAnswerDays",
};

/** The editor field a question error is about (`questions.2.scale…` → `q-2-scale`, choices → `q-2-choices`), or null. */
function questionField(message: string): string | null {
  const m = /^questions\.(\d+)\.(scale|choices)/.exec(message);
  return m ? `q-${m[1]}-${m[2]}` : null;
}

/** A domain error of a standup write as a form state: the message next to the field it is about. */
function domainErrorState(err: DomainError, form: FormData): StandupFormState {
  const values = formValues(form);
  const field =
    err.code === "CHANNEL_NOT_FOUND"
      ? "broadcastChannel"
      : err.code === "USER_NOT_FOUND"
        ? "users"
        : (Object.entries(ASKING_FIELDS).find(([f]) => err.message.startsWith(`${f}:`))?.[1] ??
          questionField(err.message) ??
          ["days", "time", "timezone", "questions", "name"].find((f) => err.message.startsWith(`${f}`)) ??
          null);
  const message = err.message.replace(/^[a-z_.0-9]+: /, "");
  const human = message.charAt(0).toUpperCase() + message.slice(1);
  return field ? { values, fieldErrors: { [field]: human } } : { values, error: human };
}

function questionsOf(p: ParsedForm) {
  return p.questions.map((q) => ({
    text: q.text,
    isBlocker: q.isBlocker ?? false,
    ...(q.choices && q.choices.length > 0 ? { choices: q.choices } : {}),
    ...(q.answerType ? { answerType: q.answerType } : {}),
    optional: q.optional ?? false,
    ...(q.answerType === "rating" && q.scale ? { scale: q.scale } : {}),
  }));
}

/** Creates a standup from the dashboard form (same domain call as POST /v2/standups). */
export async function createStandupAction(_prev: StandupFormState, form: FormData): Promise<StandupFormState> {
  const actor = await getActor();
  const p = parseForm(form);
  if (!("name" in p)) return p;
  let id: number;
  try {
    const sync = p.memberSource === "sync";
    const created = await createStandup(actor, {
      name: p.name,
      questions: questionsOf(p),
      days: p.days,
      time: p.time,
      timezone: p.timezone,
      broadcastChannel: p.broadcastChannel,
      syncChannel: sync ? p.syncChannel || null : null,
      users: sync ? null : p.users,
      syncChannelMembers: sync,
      isAnonymous: p.isAnonymous,
      isConfidential: p.isConfidential,
      personalised: p.personalised,
      ...askingOf(p),
    });
    id = created.id;
    if (p.allowAnonymousReports) await setStandupPrivacy(actor, { standupId: id, allowAnonymousReports: true });
  } catch (err) {
    if (err instanceof DomainError) return domainErrorState(err, form);
    throw err;
  }
  revalidatePath("/standups");
  redirect(`/standups/${id}?created=1`);
}

/** Saves the edit form (same domain call as PATCH /v1/standups/{id}) and the privacy flags. */
export async function updateStandupAction(id: number, _prev: StandupFormState, form: FormData): Promise<StandupFormState> {
  const actor = await getActor();
  const p = parseForm(form);
  if (!("name" in p)) return p;
  try {
    const sync = p.memberSource === "sync";
    await updateStandup(actor, id, {
      name: p.name,
      channel: p.broadcastChannel,
      time: p.time,
      timezone: p.timezone,
      days: p.days,
      questions: questionsOf(p),
      personalised: p.personalised,
      ...askingOf(p),
      ...(sync
        ? { syncChannelMembers: true, syncChannel: p.syncChannel || null }
        : { syncChannelMembers: false, users: p.users, syncChannel: null }),
    });
    await setStandupPrivacy(actor, {
      standupId: id,
      isAnonymous: p.isAnonymous,
      isConfidential: p.isConfidential,
      allowAnonymousReports: p.allowAnonymousReports,
    });
  } catch (err) {
    if (err instanceof DomainError) return domainErrorState(err, form);
    throw err;
  }
  revalidatePath(`/standups/${id}`);
  redirect(`/standups/${id}?saved=1`);
}

/** Pauses, resumes or activates (a draft) a standup. */
export async function setStandupStateAction(form: FormData): Promise<void> {
  const actor = await getActor();
  const id = Number(form.get("id"));
  await setStandupState(actor, { standupId: id, state: form.get("state") === "paused" ? "paused" : "active" });
  revalidatePath(`/standups/${id}`);
  revalidatePath("/standups");
}

/** Duplicates a standup and opens the copy, which starts paused (a draft's copy: a draft) and says so. */
export async function duplicateStandupAction(form: FormData): Promise<void> {
  const actor = await getActor();
  const id = Number(form.get("id"));
  const copy = await duplicateStandup(actor, id, {});
  revalidatePath("/standups");
  redirect(`/standups/${copy.id}?copied=1`);
}

/** Deletes (archives) a standup and returns to the list. */
export async function deleteStandupAction(form: FormData): Promise<void> {
  const actor = await getActor();
  await archiveStandup(actor, Number(form.get("id")));
  revalidatePath("/standups");
  redirect("/standups?deleted=1");
}

/**
 * "Ask now" on the standup page (creator or team admin, as editing): starts the standup now
 * (`startStandup`: opens today's occurrence, asks who has not answered). Checked `users` (chat
 * ids) ask only those members; none checked asks every member. A paused standup is not asked from
 * the dashboard (resume it first).
 * @returns "Asked N members" or the reason nothing happened (not allowed, paused, draft).
 */
export async function askNowAction(id: number, _prev: ActionState, form: FormData): Promise<ActionState> {
  return formAction(async () => {
    const actor = await getActor();
    const standup = await getStandupSettings(actor, id, undefined, "readers");
    if (standup.state === "paused") return { error: "This standup is paused. Resume it before asking its members." };
    const users = form.getAll("users").map(String).filter(Boolean);
    let asked: number[];
    try {
      // Everyone: a member asked or reminded in the last minute is not asked again (no two messages
      // within seconds); chosen members are asked as chosen.
      ({ asked } = await startStandup(actor, id, users.length ? { users } : { skipAskedWithinMs: ASK_NOW_COALESCE_MS }));
    } catch (err) {
      if (err instanceof ForbiddenError) return { error: "Only the creator of this standup or a team admin can ask its members." };
      throw err;
    }
    revalidatePath(`/standups/${id}`);
    revalidatePath("/my-checkins");
    if (asked.length === 0)
      return { ok: "Nobody was asked: everyone you chose has answered, is away, or was asked or reminded less than a minute ago." };
    return { ok: `Asked ${asked.length} member${asked.length === 1 ? "" : "s"}.` };
  });
}

/**
 * "Retry" on the standup page's delivery section: puts a failed message of standup `id` back in
 * the delivery queue through `retryFailedMessage` (the Channels page's retry; team admins and the
 * standup's creator).
 */
export async function retryStandupDeliveryAction(id: number, form: FormData): Promise<void> {
  await retryFailedMessage(await getActor(), Number(form.get("messageId")));
  revalidatePath(`/standups/${id}`);
  revalidatePath("/channels");
}
