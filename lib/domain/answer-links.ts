/**
 * Answering by e-mail link (issue 9): a member without a chat identity gets a signed,
 * single-purpose link (lib/domain/answer-token.ts) that opens the answer form of one occurrence
 * without signing in. `openAnswerLink` checks the token, that the member is still active and
 * asked in that occurrence, and that the occurrence is still open; `submitWithAnswerLink` submits
 * through `submitReport`, the same domain function as `POST /v2/reports`.
 */

import { db } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { verifyAnswerToken } from "@/lib/domain/answer-token";
import { NotFoundError } from "@/lib/domain/errors";
import { type FormQuestion, questionTypeSelect, toFormQuestion } from "@/lib/domain/question-types";
import { type AnswerInput, submitReport } from "@/lib/domain/report-writes";
import { currentQuestionsSelect } from "@/lib/domain/standups";
import { authSecret } from "@/lib/env";

export type AnswerLinkView = {
  actor: Actor;
  memberName: string;
  standupId: number;
  occurrenceId: number;
  standupName: string;
  date: string;
  questions: FormQuestion[];
  submitted: boolean;
};

/** The form behind a token, or null when the link is invalid, expired, used up by closing, or not for an active member. */
export async function openAnswerLink(token: string, now: Date = new Date()): Promise<AnswerLinkView | null> {
  const claims = verifyAnswerToken(authSecret(), token, now);
  if (!claims) return null;
  const member = await db.occurrenceMember.findFirst({
    where: { occurrence_id: claims.occurrenceId, user_id: claims.userId, user: { deactivated_at: null } },
    select: {
      user: { select: { id: true, team_id: true, chat_id: true, is_admin: true, realname: true } },
      occurrence: {
        select: {
          date: true,
          closed_at: true,
          closes_at: true,
          checkin: {
            select: {
              id: true,
              name: true,
              kind: true,
              state: true,
              questions: currentQuestionsSelect({ id: true, text: true, ...questionTypeSelect }),
            },
          },
        },
      },
    },
  });
  if (!member) return null;
  const o = member.occurrence;
  if (o.closed_at || (o.closes_at && o.closes_at <= now) || o.checkin.kind !== "standup" || o.checkin.state !== "active") return null;
  const submitted = await db.report.count({ where: { occurrence_id: claims.occurrenceId, user_id: claims.userId, status: "submitted" } });
  const u = member.user;
  return {
    actor: { teamId: u.team_id, userId: u.id, userChatId: u.chat_id, isAdmin: u.is_admin },
    memberName: u.realname,
    standupId: o.checkin.id,
    occurrenceId: claims.occurrenceId,
    standupName: o.checkin.name,
    date: o.date.toISOString().slice(0, 10),
    questions: o.checkin.questions.map(toFormQuestion),
    submitted: submitted > 0,
  };
}

/** Submits the member's report through the link. @throws NotFoundError for a dead link; submitReport's errors otherwise. */
export async function submitWithAnswerLink(token: string, answers: AnswerInput[]): Promise<{ reportId: number }> {
  const view = await openAnswerLink(token);
  if (!view) throw new NotFoundError("Answer link");
  const { reportId } = await submitReport(view.actor, { standupId: view.standupId, answers });
  return { reportId };
}
