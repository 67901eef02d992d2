"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { type FormState, formValues } from "@/components/ui/form-state";
import { getActor } from "@/lib/auth/session";
import { ChannelNotFoundError, DomainError } from "@/lib/domain/errors";
import { LIMITS } from "@/lib/domain/limits";
import { type CreatePollQuestion, createPoll } from "@/lib/domain/polls";

export type PollFormState = FormState;

/** Indexes of the question blocks in the form (`q<i>-text` fields), ascending. */
function questionIndexes(form: FormData): number[] {
  const out = new Set<number>();
  for (const key of form.keys()) {
    const m = /^q(\d+)-text$/.exec(key);
    if (m) out.add(Number(m[1]));
  }
  return [...out].sort((a, b) => a - b);
}

const text = (form: FormData, k: string) => String(form.get(k) ?? "").trim();
const lines = (value: string) =>
  value
    .split("\n")
    .map((c) => c.trim())
    .filter(Boolean);

/** The messages of the fields over their size limit (lib/domain/limits.ts), by field name. */
function tooLongPollFields(form: FormData, indexes: number[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (text(form, "name").length > LIMITS.name) out.name = `The name is at most ${LIMITS.name} characters.`;
  if (indexes.length > LIMITS.questions) out["q0-text"] = `At most ${LIMITS.questions} questions.`;
  for (const i of indexes) {
    if (text(form, `q${i}-text`).length > LIMITS.questionText)
      out[`q${i}-text`] = `A question is at most ${LIMITS.questionText} characters.`;
    const choices = lines(text(form, `q${i}-choices`));
    if (choices.length > LIMITS.choices) out[`q${i}-choices`] = `At most ${LIMITS.choices} choices.`;
    else if (choices.some((c) => c.length > LIMITS.choiceText))
      out[`q${i}-choices`] = `Choices are at most ${LIMITS.choiceText} characters.`;
  }
  return out;
}

/** The form field a `createPoll` error is about (its message's `field:` prefix), or null for the whole form. */
function fieldOf(err: DomainError, indexes: number[]): string | null {
  if (err instanceof ChannelNotFoundError) return "channel";
  const q = /^questions\[(\d+)\]\.(text|choices|answerType):/.exec(err.message);
  if (q) return `q${indexes[Number(q[1])] ?? 0}-${q[2] === "answerType" ? "type" : q[2]}`;
  const m = /^(name|question|choices|duration|days|time|timezone):/.exec(err.message);
  if (m) return m[1] === "question" ? "q0-text" : m[1] === "choices" ? "q0-choices" : m[1];
  if (/^Invalid time/.test(err.message)) return "time";
  return null;
}

/** A domain message without its `field:` prefix, capitalised. */
function forPeople(message: string): string {
  const bare = message.replace(/^[\w[\].]+: /, "");
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}

/**
 * Creates a poll from the dashboard form through `createPoll`, the domain call of POST /v2/polls.
 * Fields: name, intro, channel, duration + duration_unit (minutes | hours), anonymous,
 * share_results, when (once | weekly) with days, time and timezone, and per question block i:
 * `q<i>-text`, `q<i>-type` (multiple_choice | open_ended), `q<i>-choices` (one per line),
 * `q<i>-several` (several options allowed), `q<i>-own` (voters may add options). Errors come back
 * next to their field, with what was typed.
 */
export async function createPollAction(_prev: PollFormState, form: FormData): Promise<PollFormState> {
  const actor = await getActor();
  const values = formValues(form);
  const indexes = questionIndexes(form);
  const tooLong = tooLongPollFields(form, indexes);
  if (Object.keys(tooLong).length) return { fieldErrors: tooLong, values };
  const durationRaw = text(form, "duration");
  const hours = form.get("duration_unit") === "hours";
  const duration = durationRaw ? Number(durationRaw) * (hours ? 60 : 1) : null;
  if (duration !== null && !Number.isFinite(duration)) return { fieldErrors: { duration: "Enter a number." }, values };
  const questions: CreatePollQuestion[] = indexes.map((i) =>
    form.get(`q${i}-type`) === "open_ended"
      ? { text: text(form, `q${i}-text`), answerType: "open_ended" }
      : {
          text: text(form, `q${i}-text`),
          answerType: "multiple_choice",
          choices: lines(text(form, `q${i}-choices`)),
          oneOptionLimit: form.get(`q${i}-several`) !== "on",
          addOwnOptions: form.get(`q${i}-own`) === "on",
        },
  );
  let id: number;
  try {
    const created = await createPoll(actor, {
      name: text(form, "name"),
      questions,
      broadcastChannel: String(form.get("channel") ?? ""),
      duration,
      isAnonymous: form.get("anonymous") === "on",
      shareResults: form.get("share_results") === "on",
      intro: text(form, "intro") || null,
      schedule:
        form.get("when") === "weekly"
          ? { days: form.getAll("days").map(String), time: text(form, "time"), timezone: text(form, "timezone") }
          : null,
    });
    id = created.id;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const field = fieldOf(err, indexes);
    return field ? { fieldErrors: { [field]: forPeople(err.message) }, values } : { error: err.message, values };
  }
  revalidatePath("/polls");
  redirect(`/polls/${id}`);
}
