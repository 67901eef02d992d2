/**
 * What the service does with Slack's inbound requests (issue 9 "Inbound"), called by the route
 * handlers under app/integrations/slack/ after the signature check:
 * - `block_actions` on `open_report_form` (the Answer button of a question or reminder DM): opens
 *   the answer modal (`views.open`; a trigger id lives 3 s, so this happens in the request);
 * - `view_submission` of `report_form`: submits the report through `submitReport`, the same
 *   domain function as `POST /v2/reports`; its broadcast is delivered by the delivery job;
 *   validation problems are shown in the modal (`response_action: "errors"`);
 * - `block_actions` on `poll_vote:*` (value JSON `{p, q, c}`, lib/chat/slack-blocks.ts): recorded
 *   through `castVote` (the domain function of `POST /v2/polls/{id}/votes`) as the vote of the
 *   clicking member for that question — a second click replaces it — then acknowledged to the
 *   clicker alone with `chat.postEphemeral` (best effort: a failed acknowledgement keeps the vote).
 * Slack users are matched to members of the team the workspace serves by chat id.
 */
import { deliveryConfigFromEnv } from "@/lib/chat/config";
import { createDeliveryDeps, type DeliveryDeps, slackTeamId } from "@/lib/chat/delivery";
import { reportModal } from "@/lib/chat/slack-blocks";
import { db } from "@/lib/db";
import { activityPrefillFor, activityQuestionId } from "@/lib/domain/activity-suggestions";
import type { Actor } from "@/lib/domain/actor";
import { DomainError } from "@/lib/domain/errors";
import { MULTI_SELECT_SEPARATOR, questionTypeSelect } from "@/lib/domain/question-types";
import { submitReport } from "@/lib/domain/report-writes";
import { currentQuestionsSelect } from "@/lib/domain/standups";
import { castVote } from "@/lib/domain/vote-writes";

/** An answer for Slack: a JSON body (or none) with status 200. */
export type SlackReply = { status: number; body: unknown };

let shared: DeliveryDeps | undefined;
function deps(): DeliveryDeps {
  shared ??= createDeliveryDeps(deliveryConfigFromEnv(), (line) => console.log(line));
  return shared;
}

type Payload = {
  type?: string;
  trigger_id?: string;
  user?: { id?: string };
  channel?: { id?: string };
  actions?: Array<{ action_id?: string; value?: string }>;
  view?: { callback_id?: string; private_metadata?: string; state?: { values?: Record<string, Record<string, Answer>> } };
};
type Answer = {
  type?: string;
  value?: string | null;
  selected_option?: { value?: string } | null;
  /** checkboxes and multi_static_select (multi-select questions). */
  selected_options?: Array<{ value?: string }> | null;
};

/** The member of the Slack-served team behind a Slack user id, as an actor; null when unknown. */
async function actorOf(slackUserId: string | undefined): Promise<Actor | null> {
  const teamId = await slackTeamId(deps());
  if (!slackUserId || teamId === null) return null;
  const u = await db.user.findFirst({
    where: { chat_id: slackUserId, team_id: teamId, deactivated_at: null },
    select: { id: true, team_id: true, chat_id: true, is_admin: true },
  });
  return u ? { teamId: u.team_id, userId: u.id, userChatId: u.chat_id, isAdmin: u.is_admin } : null;
}

/** Handles one interactivity payload (already verified). Never throws for bad input. */
export async function handleSlackInteraction(payload: Payload): Promise<SlackReply> {
  const actor = await actorOf(payload.user?.id);
  if (payload.type === "block_actions") {
    const action = payload.actions?.[0];
    if (!actor || !action?.action_id) return { status: 200, body: null };
    if (action.action_id === "open_report_form") return openReportForm(actor, Number(action.value), payload.trigger_id);
    if (action.action_id.startsWith("poll_vote:")) return recordPollVote(actor, action.value, payload.channel?.id);
    return { status: 200, body: null };
  }
  if (payload.type === "view_submission" && payload.view?.callback_id === "report_form") {
    if (!actor) return modalError("Your Slack account is not linked to a member of this team.");
    return submitFromModal(actor, payload.view);
  }
  return { status: 200, body: null };
}

async function openReportForm(actor: Actor, occurrenceId: number, triggerId: string | undefined): Promise<SlackReply> {
  const slack = deps().slack;
  if (!slack || !triggerId || !Number.isInteger(occurrenceId)) return { status: 200, body: null };
  const occurrence = await db.occurrence.findFirst({
    where: { id: occurrenceId, team_id: actor.teamId, checkin: { kind: "standup", members: { some: { user_id: actor.userId } } } },
    select: {
      id: true,
      checkin: {
        select: {
          name: true,
          questions: currentQuestionsSelect({ id: true, text: true, ...questionTypeSelect }),
        },
      },
    },
  });
  if (!occurrence) return { status: 200, body: null };
  // Activity pre-fill (issue 48): the cached activity of this run on the first free-text question.
  const activity = await activityPrefillFor({ teamId: actor.teamId, userId: actor.userId, occurrenceId: occurrence.id });
  const questionId = activityQuestionId(occurrence.checkin.questions);
  const prefill = activity?.text && questionId !== null ? { questionId, text: activity.text } : null;
  await slack.openView(
    triggerId,
    reportModal({ occurrenceId: occurrence.id, standupName: occurrence.checkin.name, questions: occurrence.checkin.questions, prefill }),
  );
  return { status: 200, body: null };
}

function modalError(message: string, blockId = "general"): SlackReply {
  return { status: 200, body: { response_action: "errors", errors: { [blockId]: message } } };
}

async function submitFromModal(actor: Actor, view: NonNullable<Payload["view"]>): Promise<SlackReply> {
  let occurrenceId: number;
  try {
    occurrenceId = Number((JSON.parse(view.private_metadata ?? "{}") as { o?: unknown }).o);
  } catch {
    return { status: 200, body: null };
  }
  const occurrence = await db.occurrence.findFirst({ where: { id: occurrenceId, team_id: actor.teamId }, select: { checkin_id: true } });
  if (!occurrence) return { status: 200, body: null };
  const values = view.state?.values ?? {};
  const answers = Object.entries(values).flatMap(([blockId, actions]) => {
    const m = /^q(\d+)$/.exec(blockId);
    const a = actions.answer;
    if (!m || !a) return [];
    const text = a.selected_options
      ? a.selected_options.flatMap((o) => (o.value ? [o.value] : [])).join(MULTI_SELECT_SEPARATOR)
      : (a.selected_option?.value ?? a.value ?? "");
    // A blank answer is left out: an optional question may be skipped, a required one is refused
    // by the submission ("is required"), shown on its block.
    return text.trim() ? [{ questionId: Number(m[1]), text }] : [];
  });
  const firstBlock = Object.keys(values)[0] ?? "general";
  if (answers.length === 0) return modalError("Please answer at least one question.", firstBlock);
  try {
    await submitReport(actor, { standupId: occurrence.checkin_id, answers });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    // The error names the question it is about ("question_id 12"): shown on that question's block.
    const named = /question_id (\d+)/.exec(err.message)?.[1];
    const block = named && `q${named}` in values ? `q${named}` : firstBlock;
    return modalError(named ? err.message.replace(/^answers: /, "") : err.message, block);
  }
  return { status: 200, body: null };
}

/** Records a poll button click as the clicker's vote on that question, then tells them (ephemeral). */
async function recordPollVote(actor: Actor, value: string | undefined, channel: string | undefined): Promise<SlackReply> {
  let parsed: { p?: unknown; q?: unknown; c?: unknown };
  try {
    parsed = JSON.parse(value ?? "") as typeof parsed;
  } catch {
    return { status: 200, body: null };
  }
  const pollId = Number(parsed.p);
  const questionId = Number(parsed.q);
  if (!Number.isInteger(pollId) || !Number.isInteger(questionId) || typeof parsed.c !== "string") return { status: 200, body: null };
  let text: string;
  try {
    await castVote(actor, { pollId, answers: [{ questionId, choices: [parsed.c] }] });
    text = `Your vote "${parsed.c}" is recorded. Click another choice to change it.`;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    text = err.code === "NOT_FOUND" ? "You are not a recipient of this poll." : `Your vote was not recorded: ${err.message}`;
  }
  const slack = deps().slack;
  if (slack && channel) {
    try {
      await slack.client.chat.postEphemeral({ channel, user: actor.userChatId, text });
    } catch (err) {
      console.log(`slack: poll vote acknowledgement failed: ${(err as Error).message}`);
    }
  }
  return { status: 200, body: null };
}
