/**
 * Poll broadcasts in the chat outbox (lib/domain/outbox.ts): the plain-text body of a poll
 * message, the post of one occurrence of a poll, and the results of a closed poll broadcast.
 */
import type { Tx } from "@/lib/db";
import { timeInZone } from "@/lib/domain/message-times";
import { type BroadcastRef, postToChannel } from "@/lib/domain/outbox";
import { currentQuestionsSelect } from "@/lib/domain/standups";

/**
 * Plain-text body of a poll message: name, question and numbered choices, plus the closing time
 * in the poll's `timezone`, named ("Voting closes Mon 30 Nov, 10:15 Europe/Berlin").
 */
export function renderPollText(input: {
  pollName: string;
  question: string;
  choices: string[];
  closesAt: Date | null;
  timezone: string;
}): string {
  const lines = [`Poll: ${input.pollName}`, input.question, ...input.choices.map((c, i) => `${i + 1}. ${c}`)];
  if (input.closesAt) lines.push(`Voting closes ${timeInZone(input.closesAt, input.timezone)}`);
  return lines.join("\n");
}

/**
 * Posts one broadcast of a poll (kind `poll`) to a channel for an occurrence.
 * @returns the outbox row.
 */
export async function broadcastPoll(
  tx: Tx,
  input: {
    teamId: number;
    pollId: number;
    occurrenceId: number;
    channelId: number;
    pollName: string;
    question: string;
    choices: string[];
    closesAt: Date | null;
    /** The poll's IANA timezone (the closing time is said in it). */
    timezone: string;
  },
  now: Date = new Date(),
): Promise<BroadcastRef> {
  const { pollName, question, choices, closesAt, timezone } = input;
  const text = renderPollText({ pollName, question, choices, closesAt, timezone });
  return postToChannel(tx, { ...input, kind: "poll", checkinId: input.pollId, text }, now);
}

/**
 * Posts the poll of one occurrence (a one-shot poll's creation or a recurring poll's scheduled
 * run) to the poll's broadcast channel: one question with its numbered choices (one button per
 * choice on Slack), or the numbered list of several questions; the closing time is the
 * occurrence's `closes_at`. Nothing when the poll has no broadcast channel.
 * @returns the outbox row, or null.
 */
export async function broadcastPollRun(
  tx: Tx,
  input: { pollId: number; occurrenceId: number },
  now: Date = new Date(),
): Promise<BroadcastRef | null> {
  const poll = await tx.checkin.findUniqueOrThrow({
    where: { id: input.pollId },
    select: {
      team_id: true,
      name: true,
      timezone: true,
      broadcast_channel_id: true,
      questions: currentQuestionsSelect({ text: true, choices: true }),
    },
  });
  if (poll.broadcast_channel_id === null || poll.questions.length === 0) return null;
  const occurrence = await tx.occurrence.findUniqueOrThrow({ where: { id: input.occurrenceId }, select: { closes_at: true } });
  const several = poll.questions.length > 1;
  return broadcastPoll(
    tx,
    {
      teamId: poll.team_id,
      pollId: input.pollId,
      occurrenceId: input.occurrenceId,
      channelId: poll.broadcast_channel_id,
      pollName: poll.name,
      question: several ? poll.questions.map((q, i) => `${i + 1}) ${q.text}`).join("\n") : poll.questions[0].text,
      choices: several ? [] : poll.questions[0].choices,
      closesAt: occurrence.closes_at,
      timezone: poll.timezone,
    },
    now,
  );
}

/**
 * Posts the results of a closed poll broadcast to its channel (kind `poll_results`).
 * @returns the outbox row.
 */
export async function postPollResults(
  tx: Tx,
  input: { teamId: number; pollId: number; occurrenceId: number; channelId: number; text: string },
  now: Date = new Date(),
): Promise<BroadcastRef> {
  return postToChannel(tx, { ...input, kind: "poll_results", checkinId: input.pollId, createdAt: now }, now);
}
