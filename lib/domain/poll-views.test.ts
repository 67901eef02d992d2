/**
 * Polls as the dashboard shows them (lib/domain/poll-views.ts) against the real test database:
 * who may see a poll and its results, "My check-ins" open polls with voted state, "Ask now"
 * asking only recipients who have not voted, and the vote form's error mapping.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ConflictError, ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { exportPollResults } from "@/lib/domain/exports";
import { askPollNonVoters, getPollOverview, getPollResultsFor, listMyOpenPolls } from "@/lib/domain/poll-views";
import { createPoll } from "@/lib/domain/polls";
import { castVote, describeVoteError } from "@/lib/domain/vote-writes";
import { createTestCheckin, createTestOccurrence, createTestTeam, createTestUser, type TestTeam } from "@/tests/fixtures";

let team: TestTeam;
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  team = await createTestTeam({ members: 3 });
});

/** A poll created by users[1] (not an admin), asked to users[1..3] today, closing in an hour unless `closesAt`. */
async function openPoll(opts: { shareResults?: boolean; closesAt?: Date } = {}) {
  const creator = team.users[1];
  const poll = await createTestCheckin(team, {
    kind: "poll",
    owner: creator,
    members: team.users.slice(1),
    questions: [
      { text: "Lunch?", choices: ["Pizza", "Sushi"] },
      { text: "Why?", answer_type: "open_ended" },
    ],
  });
  if (opts.shareResults) await db.checkin.update({ where: { id: poll.id }, data: { share_results: true } });
  const occurrence = await createTestOccurrence(poll, today(), team.users.slice(1));
  await db.occurrence.update({ where: { id: occurrence.id }, data: { closes_at: opts.closesAt ?? new Date(Date.now() + 3_600_000) } });
  return { poll, occurrence, creator, mc: poll.questions[0], open: poll.questions[1] };
}

describe("poll views", () => {
  it("gives the creator and team admins management, recipients the vote, and everybody else NotFound", async () => {
    const { poll, creator } = await openPoll();
    const byCreator = await getPollOverview(creator.actor, poll.id);
    expect(byCreator).toMatchObject({ canManage: true, isRecipient: true, resultsVisible: true, hasVoted: false });
    expect(byCreator.instance).toMatchObject({ closed: false, recipients: 3, voters: 0 });
    expect(await getPollOverview(team.admin.actor, poll.id)).toMatchObject({ canManage: true, isRecipient: false });
    expect(await getPollOverview(team.users[2].actor, poll.id)).toMatchObject({
      canManage: false,
      isRecipient: true,
      resultsVisible: false,
    });
    const stranger = await createTestUser(team.id, { name: "Stranger" });
    await expect(getPollOverview(stranger.actor, poll.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getPollResultsFor(team.users[2].actor, poll.id)).rejects.toBeInstanceOf(NotFoundError);
    // Live results for the admin (not the creator) include the open broadcast; so does the CSV export.
    const results = await getPollResultsFor(team.admin.actor, poll.id);
    expect(results.instances).toHaveLength(1);
    await expect(exportPollResults(team.admin.actor, poll.id, {})).resolves.toMatchObject({ header: expect.any(Array) });
    await expect(exportPollResults(team.users[2].actor, poll.id, {})).rejects.toBeInstanceOf(NotFoundError);
  });

  it("lists the open polls a member is asked in, with whether they voted", async () => {
    const { poll, mc, open } = await openPoll();
    const member = team.users[2];
    let mine = (await listMyOpenPolls(member.actor)).find((p) => p.pollId === poll.id);
    expect(mine).toMatchObject({ voted: false, name: poll.name });
    expect(mine?.closesAt).toBeInstanceOf(Date);
    await castVote(member.actor, {
      pollId: poll.id,
      answers: [
        { questionId: mc.id, choices: ["Sushi"] },
        { questionId: open.id, text: "Fresh" },
      ],
    });
    mine = (await listMyOpenPolls(member.actor)).find((p) => p.pollId === poll.id);
    expect(mine?.voted).toBe(true);
    expect((await listMyOpenPolls(team.admin.actor)).some((p) => p.pollId === poll.id)).toBe(false);
    // Closed broadcasts are not listed.
    await db.occurrence.updateMany({ where: { checkin_id: poll.id }, data: { closes_at: new Date(Date.now() - 1000) } });
    expect((await listMyOpenPolls(member.actor)).some((p) => p.pollId === poll.id)).toBe(false);
  });

  it("shares the results of a closed broadcast with recipients only when the poll shares results", async () => {
    const shared = await openPoll({ shareResults: true });
    const member = team.users[3].actor;
    await castVote(member, { pollId: shared.poll.id, answers: [{ questionId: shared.mc.id, choices: ["Pizza"] }] });
    expect((await getPollOverview(member, shared.poll.id)).resultsVisible).toBe(false);
    await db.occurrence.update({ where: { id: shared.occurrence.id }, data: { closes_at: new Date(Date.now() - 1000) } });
    expect((await getPollOverview(member, shared.poll.id)).resultsVisible).toBe(true);
    const results = await getPollResultsFor(member, shared.poll.id);
    expect(results.instances[0].questions[0].choices?.find((c) => c.text === "Pizza")?.votes).toBe(1);

    const unshared = await openPoll({ closesAt: new Date(Date.now() - 1000) });
    expect((await getPollOverview(member, unshared.poll.id)).resultsVisible).toBe(false);
    await expect(getPollResultsFor(member, unshared.poll.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("Ask now asks again only the recipients who have not voted; creator or admin only; not when closed", async () => {
    const { poll, occurrence, creator, mc } = await openPoll();
    await castVote(team.users[2].actor, { pollId: poll.id, answers: [{ questionId: mc.id, choices: ["Pizza"] }] });
    const asked = await askPollNonVoters(team.admin.actor, poll.id);
    expect(asked).toEqual([team.users[1].id, team.users[3].id].sort((a, b) => a - b));
    const questions = await db.chatMessage.findMany({ where: { occurrence_id: occurrence.id, kind: "question" } });
    expect(questions.map((q) => q.recipient_id).sort()).toEqual(asked.map(String).sort().map(Number));
    expect(questions[0].text).toContain(`/polls/${poll.id}/vote`);
    await expect(askPollNonVoters(team.users[2].actor, poll.id)).rejects.toBeInstanceOf(ForbiddenError);
    await db.occurrence.update({ where: { id: occurrence.id }, data: { closed_at: new Date() } });
    await expect(askPollNonVoters(creator.actor, poll.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it("maps castVote errors to the question they are about, in words for people", async () => {
    const { poll, mc, open } = await openPoll();
    const member = team.users[2].actor;
    const errorOf = (answers: Parameters<typeof castVote>[1]["answers"]) =>
      castVote(member, { pollId: poll.id, answers }).then(
        () => null,
        (e: Error) => describeVoteError(e),
      );
    expect(await errorOf([{ questionId: mc.id, choices: [] }])).toEqual({ questionId: mc.id, message: "Choose an option." });
    expect(await errorOf([{ questionId: mc.id, choices: ["Pizza", "Sushi"] }])).toEqual({
      questionId: mc.id,
      message: "Choose one option only.",
    });
    expect(await errorOf([{ questionId: mc.id, choices: ["Tacos"] }])).toEqual({
      questionId: mc.id,
      message: "That option is not offered here.",
    });
    expect(await errorOf([{ questionId: open.id, text: "  " }])).toEqual({ questionId: open.id, message: "Write an answer." });
  });
});

describe("createPoll with the dashboard form's options", () => {
  it("creates multiple-choice and open-ended questions with voting options, shared results, broadcast now", async () => {
    const created = await createPoll(team.admin.actor, {
      name: "Form poll",
      questions: [
        { text: "Lunch?", answerType: "multiple_choice", choices: ["Pizza", "Sushi"], oneOptionLimit: false, addOwnOptions: true },
        { text: "Why?", answerType: "open_ended" },
      ],
      broadcastChannel: team.channels[0].chat_id,
      duration: 120,
      shareResults: true,
    });
    expect(created.occurrenceId).not.toBeNull();
    expect(created.closesAt?.getTime()).toBeGreaterThan(Date.now() + 119 * 60_000);
    const poll = await db.checkin.findUniqueOrThrow({
      where: { id: created.id },
      include: { questions: { orderBy: { position: "asc" } } },
    });
    expect(poll.share_results).toBe(true);
    expect(poll.questions.map((q) => [q.text, q.answer_type, q.choices, q.one_option_limit, q.add_own_options])).toEqual([
      ["Lunch?", "multiple_choice", ["Pizza", "Sushi"], false, true],
      ["Why?", "open_ended", [], true, false],
    ]);
    // A member of the channel votes for two options, one of them their own, and explains.
    const member = team.users[1].actor;
    await castVote(member, {
      pollId: created.id,
      answers: [
        { questionId: poll.questions[0].id, choices: ["Pizza", "Dumplings"] },
        { questionId: poll.questions[1].id, text: "Hungry" },
      ],
    });
    expect((await listMyOpenPolls(member)).find((p) => p.pollId === created.id)?.voted).toBe(true);
  });

  it("creates a recurring poll that the scheduler broadcasts at its next slot; bad input names its field", async () => {
    const created = await createPoll(team.admin.actor, {
      name: "Weekly poll",
      questions: [{ text: "Mood?", answerType: "open_ended" }],
      broadcastChannel: team.channels[0].chat_id,
      duration: 60,
      schedule: { days: ["Mon", "wed"], time: "10:30", timezone: "Europe/Berlin" },
    });
    expect(created.occurrenceId).toBeNull();
    expect(created.nextRunAt).toBeInstanceOf(Date);
    const poll = await db.checkin.findUniqueOrThrow({ where: { id: created.id } });
    expect(poll).toMatchObject({ days: ["Mon", "Wed"], time: "10:30:00", timezone: "Europe/Berlin", duration: 60 });
    expect(poll.next_run_at?.getTime()).toBe(created.nextRunAt?.getTime());
    expect(await db.occurrence.count({ where: { checkin_id: created.id } })).toBe(0);

    const base = { name: "Bad", broadcastChannel: team.channels[0].chat_id };
    await expect(
      createPoll(team.admin.actor, { ...base, questions: [{ text: "Q", answerType: "multiple_choice", choices: ["One"] }] }),
    ).rejects.toThrow(/^questions\[0\]\.choices:/);
    await expect(
      createPoll(team.admin.actor, {
        ...base,
        questions: [{ text: "Q", answerType: "open_ended" }],
        schedule: { days: ["Mon"], time: "10:00", timezone: "Mars/Base" },
      }),
    ).rejects.toBeInstanceOf(InvalidParameterError);
  });
});
