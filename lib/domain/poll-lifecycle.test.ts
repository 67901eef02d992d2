/**
 * The poll lifecycle (lib/domain/poll-lifecycle.ts, issue 41 item 10) against the real test
 * database: close now, edit (name, question while no votes, closing time), pause/resume, delete,
 * who may do it, and the Polls page lists (managed / asked in, status, schedule).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ConflictError, ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { closePollNow, deletePoll, editPoll, listPollCards, setPollPaused } from "@/lib/domain/poll-lifecycle";
import { getPollOverview } from "@/lib/domain/poll-views";
import { getPoll } from "@/lib/domain/polls";
import { castVote } from "@/lib/domain/vote-writes";
import { createTestCheckin, createTestOccurrence, createTestTeam, type TestTeam } from "@/tests/fixtures";

let team: TestTeam;
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  team = await createTestTeam({ members: 3 });
});

/** A poll created by users[1], asked to users[1..3] today, closing in an hour. */
async function openPoll() {
  const creator = team.users[1];
  const poll = await createTestCheckin(team, {
    kind: "poll",
    owner: creator,
    members: team.users.slice(1),
    questions: [{ text: "Lunch?", choices: ["Pizza", "Sushi"] }],
  });
  const occurrence = await createTestOccurrence(poll, today(), team.users.slice(1));
  await db.occurrence.update({ where: { id: occurrence.id }, data: { closes_at: new Date(Date.now() + 3_600_000) } });
  return { poll, occurrence, creator, q: poll.questions[0] };
}

describe("poll lifecycle", () => {
  it("closes the open broadcast now, posting its results; a second close conflicts; recipients cannot", async () => {
    const { poll, occurrence, creator } = await openPoll();
    await expect(closePollNow(team.users[2].actor, poll.id)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await closePollNow(creator.actor, poll.id)).toEqual([occurrence.id]);
    const occ = await db.occurrence.findUniqueOrThrow({ where: { id: occurrence.id } });
    expect(occ.closed_at).toBeInstanceOf(Date);
    expect((await getPollOverview(creator.actor, poll.id)).instance?.closed).toBe(true);
    expect(await db.chatMessage.count({ where: { occurrence_id: occurrence.id, kind: "poll_results" } })).toBe(1);
    await expect(closePollNow(creator.actor, poll.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it("edits the name, the question while nobody voted, and the closing time", async () => {
    const { poll, occurrence, creator, q } = await openPoll();
    const closesAt = new Date(Date.now() + 7_200_000);
    await editPoll(creator.actor, poll.id, { name: " Friday lunch ", questionTexts: { [q.id]: "Lunch on Friday?" }, closesAt });
    const row = await db.checkin.findUniqueOrThrow({
      where: { id: poll.id },
      select: { name: true, questions: { select: { text: true } } },
    });
    expect(row).toMatchObject({ name: "Friday lunch", questions: [{ text: "Lunch on Friday?" }] });
    expect((await db.occurrence.findUniqueOrThrow({ where: { id: occurrence.id } })).closes_at?.getTime()).toBe(closesAt.getTime());
    await expect(editPoll(creator.actor, poll.id, { name: "  " })).rejects.toThrow(/^Name: enter a name/);
    await expect(editPoll(creator.actor, poll.id, { closesAt: new Date(Date.now() - 1000) })).rejects.toBeInstanceOf(InvalidParameterError);
    await castVote(team.users[2].actor, { pollId: poll.id, answers: [{ questionId: q.id, choices: ["Pizza"] }] });
    await expect(editPoll(creator.actor, poll.id, { questionTexts: { [q.id]: "Dinner?" } })).rejects.toBeInstanceOf(ConflictError);
    // Same wording again is not a change: allowed after votes (the edit form always sends it).
    await editPoll(creator.actor, poll.id, { name: "Lunch", questionTexts: { [q.id]: "Lunch on Friday?" } });
    await expect(editPoll(team.users[3].actor, poll.id, { name: "Mine" })).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("pauses and resumes (paused polls read closed), and deletes (then not found, also through the API read)", async () => {
    const { poll, creator } = await openPoll();
    await setPollPaused(creator.actor, poll.id, true);
    expect((await getPollOverview(creator.actor, poll.id)).instance?.closed).toBe(true);
    expect((await listPollCards(creator.actor)).managed.find((c) => c.id === poll.id)).toMatchObject({ state: "paused", status: "closed" });
    await setPollPaused(creator.actor, poll.id, false);
    expect((await getPollOverview(creator.actor, poll.id)).instance?.closed).toBe(false);
    await expect(deletePoll(team.users[2].actor, poll.id)).rejects.toBeInstanceOf(ForbiddenError);
    await deletePoll(team.admin.actor, poll.id);
    await expect(getPollOverview(creator.actor, poll.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getPoll(creator.actor, poll.id, { withQuestions: false })).rejects.toBeInstanceOf(NotFoundError);
    await expect(setPollPaused(creator.actor, poll.id, true)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("lists the polls a member was asked in apart from those they manage, with open/closed status and schedule", async () => {
    const { poll, creator } = await openPoll();
    await db.checkin.update({
      where: { id: poll.id },
      data: {
        recurrence: { type: "weekly", repeat: null, every: 1, day: null, month: null },
        days: ["Mon"],
        time: "09:30:00",
        timezone: "Europe/Paris",
      },
    });
    const mine = (await listPollCards(creator.actor)).managed.find((c) => c.id === poll.id);
    expect(mine).toMatchObject({ status: "open", schedule: { days: ["Mon"], time: "09:30", timezone: "Europe/Paris" } });
    const asked = await listPollCards(team.users[2].actor);
    expect(asked.asked.map((c) => c.id)).toContain(poll.id);
    expect(asked.managed.map((c) => c.id)).not.toContain(poll.id);
    await closePollNow(creator.actor, poll.id);
    expect((await listPollCards(team.users[2].actor)).asked.find((c) => c.id === poll.id)?.status).toBe("closed");
  });
});
