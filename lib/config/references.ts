/**
 * What a "check-ins as code" document (issue 43) refers to and the values only the service can
 * judge: channels by name and people by e-mail in the team, IANA timezones, answer types the
 * service knows, asking-setting ranges, webhook event names. Every problem is collected with its
 * path in the document, so one run lists them all.
 */

import { ConfigDocumentError } from "@/lib/config/errors";
import { defaultAnswerType } from "@/lib/config/plan";
import type { ConfigProblem, QuestionDoc, TeamConfig } from "@/lib/config/schema";
import type { Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ASKING_LIMITS, MAX_NAME_LENGTH, MAX_QUESTIONS } from "@/lib/domain/constants";
import { InvalidParameterError } from "@/lib/domain/errors";
import { channelByName, usersByEmail } from "@/lib/domain/exact-lookup";
import { MAX_POLL_DURATION_MINUTES } from "@/lib/domain/polls";
import { parseQuestionType, type QuestionType } from "@/lib/domain/question-types";
import { isValidTimezone } from "@/lib/domain/schedule";
import { WEBHOOK_EVENT_TYPES } from "@/lib/domain/webhook-events";
import { AnswerType } from "@/lib/generated/prisma/client";

/** Resolved references: channel row ids by lower-cased name, user ids by lower-cased e-mail. */
export type ConfigRefs = { channels: Map<string, number>; users: Map<string, number> };

const ANSWER_TYPES: readonly string[] = Object.values(AnswerType);

function checkQuestions(kind: "standup" | "poll", questions: readonly QuestionDoc[], base: string, problems: ConfigProblem[]): void {
  if (questions.length > MAX_QUESTIONS) problems.push({ path: `${base}.questions`, message: `at most ${MAX_QUESTIONS} questions` });
  questions.forEach((q, j) => {
    const type = defaultAnswerType(kind, q);
    const at = `${base}.questions[${j}]`;
    if (!ANSWER_TYPES.includes(type))
      problems.push({ path: `${at}.answer_type`, message: `unknown answer type "${type}" (known: ${ANSWER_TYPES.join(", ")})` });
    const min = kind === "poll" ? 2 : 1;
    if (type === "multiple_choice" && (q.choices?.length ?? 0) < min)
      problems.push({ path: `${at}.choices`, message: `a multiple_choice question needs at least ${min} choice${min > 1 ? "s" : ""}` });
    if (q.choices && new Set(q.choices).size !== q.choices.length)
      problems.push({ path: `${at}.choices`, message: "choices must be distinct" });
    if (kind === "poll" && (q.optional !== undefined || q.scale !== undefined))
      problems.push({ path: at, message: "optional and scale are for standup questions" });
    if (kind === "standup" && q.scale !== undefined && type !== "rating")
      problems.push({ path: `${at}.scale`, message: "only a rating question has a scale" });
    if (kind === "standup" && ANSWER_TYPES.includes(type)) {
      try {
        parseQuestionType(j, { answerType: type as QuestionType, optional: q.optional, scale: q.scale }, [...(q.choices ?? [])]);
      } catch (e) {
        // "questions.<j>.scale.labels: …" → the document's path of that field
        const m = e instanceof InvalidParameterError ? /^questions\.\d+\.?([\w.]*): (.*)$/s.exec(e.message) : null;
        const path = m?.[1] ? `${at}.${m[1]}` : at;
        if (m && !problems.some((p) => p.path === path)) problems.push({ path, message: m[2] });
        else if (!(e instanceof InvalidParameterError)) throw e;
      }
    }
  });
}

function range(value: number | null, min: number, max: number, path: string, problems: ConfigProblem[]): void {
  if (value !== null && (value < min || value > max)) problems.push({ path, message: `must be from ${min} to ${max}` });
}

/** The problems of values the schema cannot judge (no database). */
function valueProblems(config: TeamConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  config.standups.forEach((s, i) => {
    const at = `standups[${i}]`;
    if (s.name.length > MAX_NAME_LENGTH) problems.push({ path: `${at}.name`, message: `at most ${MAX_NAME_LENGTH} characters` });
    if (!isValidTimezone(s.timezone)) problems.push({ path: `${at}.timezone`, message: `"${s.timezone}" is not an IANA timezone` });
    range(s.reminders.count, 0, ASKING_LIMITS.maxReminders, `${at}.reminders.count`, problems);
    range(s.reminders.after_minutes, 1, ASKING_LIMITS.maxReminderAfterMinutes, `${at}.reminders.after_minutes`, problems);
    range(s.response_window_minutes, 1, ASKING_LIMITS.maxResponseWindowMinutes, `${at}.response_window_minutes`, problems);
    range(s.late_answer_days, 0, ASKING_LIMITS.maxLateAnswerDays, `${at}.late_answer_days`, problems);
    checkQuestions("standup", s.questions, at, problems);
  });
  config.polls.forEach((p, i) => {
    const at = `polls[${i}]`;
    if (p.name.length > MAX_NAME_LENGTH) problems.push({ path: `${at}.name`, message: `at most ${MAX_NAME_LENGTH} characters` });
    if (p.schedule && !isValidTimezone(p.schedule.timezone))
      problems.push({ path: `${at}.schedule.timezone`, message: `"${p.schedule.timezone}" is not an IANA timezone` });
    range(p.duration, 1, MAX_POLL_DURATION_MINUTES, `${at}.duration`, problems);
    checkQuestions("poll", p.questions, at, problems);
  });
  config.webhooks.forEach((w, i) => {
    w.events.forEach((e, j) => {
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e))
        problems.push({ path: `webhooks[${i}].events[${j}]`, message: `unknown event "${e}" (known: ${WEBHOOK_EVENT_TYPES.join(", ")})` });
    });
  });
  return problems;
}

/**
 * Checks the document's values and resolves its channels and people in the actor's team.
 * @param config canonical document (lib/config/plan.ts `canonicalConfig`).
 * @throws ConfigDocumentError listing every problem with its path.
 */
export async function resolveConfigRefs(actor: Actor, config: TeamConfig, tx: Tx): Promise<ConfigRefs> {
  const problems = valueProblems(config);
  const refs: ConfigRefs = { channels: new Map(), users: new Map() };
  const channelPaths: Array<[string, string]> = [];
  const emailPaths: Array<[string, string]> = [];
  config.standups.forEach((s, i) => {
    if (s.broadcast_channel) channelPaths.push([s.broadcast_channel, `standups[${i}].broadcast_channel`]);
    if (s.sync_channel) channelPaths.push([s.sync_channel, `standups[${i}].sync_channel`]);
    if (!s.sync_channel) {
      s.members.forEach((m, j) => {
        emailPaths.push([m, `standups[${i}].members[${j}]`]);
      });
    }
  });
  config.polls.forEach((p, i) => {
    channelPaths.push([p.broadcast_channel, `polls[${i}].broadcast_channel`]);
  });

  for (const [name, path] of channelPaths) {
    const key = name.toLowerCase();
    if (refs.channels.has(key)) continue;
    const row = await channelByName(actor.teamId, name, tx);
    if (row) refs.channels.set(key, row.id);
    else problems.push({ path, message: `no channel named "${name}" in the team` });
  }
  const found = await usersByEmail(
    emailPaths.map(([e]) => e),
    { teamId: actor.teamId, activeOnly: true },
    tx,
  );
  for (const u of found) refs.users.set(u.email.toLowerCase(), u.id);
  for (const [email, path] of emailPaths) {
    if (!refs.users.has(email.toLowerCase())) problems.push({ path, message: `no active person with e-mail "${email}" in the team` });
  }
  if (problems.length) throw new ConfigDocumentError(problems);
  return refs;
}
