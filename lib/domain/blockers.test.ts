/**
 * Blockers (lib/domain/blockers.ts) against a real PostgreSQL: the "no blocker" answers, runs of
 * consecutive days, open vs resolved, anonymity, permissions; and the blocker flag written by
 * createStandup / updateStandup.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { isBlockingAnswer, listBlockerQuestionIds, listBlockers, setBlockerResolved } from "@/lib/domain/blockers";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { createStandup, updateStandup } from "@/lib/domain/standup-writes";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam } from "@/tests/fixtures";

const day = (offset: number) => new Date(Date.UTC(2026, 10, 10 + offset));
const iso = (d: Date) => d.toISOString().slice(0, 10);

async function blockerStandup(opts: { is_anonymous?: boolean } = {}) {
  const team = await createTestTeam({ members: 2 });
  const standup = await createTestCheckin(team, { is_anonymous: opts.is_anonymous });
  await db.question.update({ where: { id: standup.questions[2].id }, data: { is_blocker: true } });
  return { team, standup };
}

describe("isBlockingAnswer", () => {
  it("treats empty, dashes and 'no'/'none' phrasings as no blocker", () => {
    for (const t of ["", "-", "No", "None 👍", "No blockers.", "Nothing right now.", "All good!", "Nope, smooth sailing.", "n/a", "NONE"]) {
      expect(isBlockingAnswer(t), t).toBe(false);
    }
    for (const t of ["Waiting on Ana for a review.", "No access to the staging cluster", "Blocked on the vendor API"]) {
      expect(isBlockingAnswer(t), t).toBe(true);
    }
  });
});

describe("listBlockers", () => {
  it("lists blocking answers newest first with the run of consecutive days, and closes a run on a later 'no'", async () => {
    const { team, standup } = await blockerStandup();
    const [, a, b] = team.users;
    const answers = ["Waiting on review", "Still waiting on review", "Still waiting, day 3"];
    for (const [i, text] of answers.entries()) {
      const occ = await createTestOccurrence(standup, iso(day(i)), [a, b]);
      await createTestReport(standup, a, { occurrence_id: occ.id, submitted_at: day(i), answers: ["x", "y", text] });
      await createTestReport(standup, b, {
        occurrence_id: occ.id,
        submitted_at: new Date(day(i).getTime() - 3_600_000),
        answers: ["x", "y", i === 0 ? "Staging down" : "None"],
      });
    }
    const since = day(-1);
    const all = await listBlockers(team.admin.actor, { status: "all", since });
    expect(all.map((x) => x.text)).toEqual(["Still waiting, day 3", "Still waiting on review", "Waiting on review", "Staging down"]);
    expect(all[0]).toMatchObject({ author: { chatId: a.chat_id }, blockedDays: 3, latest: true, canResolve: true });
    expect(all[0].blockedSince?.toISOString().slice(0, 10)).toBe(iso(day(0)));
    // b said "None" afterwards: b's blocker is not open any more.
    const open = await listBlockers(team.admin.actor, { status: "open", since });
    expect(open.map((x) => x.text)).toEqual(["Still waiting, day 3"]);

    // The member may not resolve someone else's blocker; the author and the admin may.
    await expect(setBlockerResolved(b.actor, { answerId: open[0].answerId, resolved: true })).rejects.toBeInstanceOf(ForbiddenError);
    await setBlockerResolved(a.actor, { answerId: open[0].answerId, resolved: true });
    expect(await listBlockers(team.admin.actor, { status: "open", since })).toEqual([]);
    const resolved = await listBlockers(team.admin.actor, { status: "resolved", since });
    expect(resolved[0]).toMatchObject({ text: "Still waiting, day 3", resolvedBy: a.realname });
    await setBlockerResolved(team.admin.actor, { answerId: open[0].answerId, resolved: false });
    expect(await listBlockers(team.admin.actor, { status: "open", since })).toHaveLength(1);
  });

  it("never names the author of an anonymous blocker and hides other teams' blockers", async () => {
    const { team, standup } = await blockerStandup({ is_anonymous: true });
    const [admin, a, b] = team.users;
    // Three people answer the run: the anonymity threshold (k = 3, issue 45) is reached, so the blocker is listed.
    const occurrence_id = (await createTestOccurrence(standup, iso(day(0)), team.users)).id;
    const report = await createTestReport(standup, a, { submitted_at: day(0), answers: ["x", "y", "Need access"], occurrence_id });
    for (const other of [admin, b])
      await createTestReport(standup, other, { submitted_at: day(0), answers: ["x", "y", "None"], occurrence_id });
    const [item] = await listBlockers(team.admin.actor, { status: "all", since: day(-1) });
    expect(item).toMatchObject({ text: "Need access", author: null, blockedDays: null });
    expect(await listBlockers(team.admin.actor, { status: "all", since: day(-1), userChatId: a.chat_id })).toEqual([]);

    const other = await createTestTeam({ members: 1 });
    expect(await listBlockers(other.admin.actor, { status: "all", since: day(-1) })).toEqual([]);
    const answerId = report.answers.find((x) => x.text === "Need access")?.id as number;
    await expect(setBlockerResolved(other.admin.actor, { answerId, resolved: true })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("blocker flag on questions", () => {
  it("is set by the form's flag or, when unset, by the question text; kept by an edit that does not set it", async () => {
    const team = await createTestTeam({ members: 1 });
    const created = await createStandup(team.admin.actor, {
      questions: [{ text: "Done?" }, { text: "Anything blocking your progress?" }, { text: "Risks?", isBlocker: true }],
      days: ["Mon"],
      time: "09:00",
      broadcastChannel: team.channels[0].chat_id,
    });
    const flags = async () =>
      (await db.question.findMany({ where: { checkin_id: created.id, archived_at: null }, orderBy: { position: "asc" } })).map((q) => [
        q.text,
        q.is_blocker,
      ]);
    expect(await flags()).toEqual([
      ["Done?", false],
      ["Anything blocking your progress?", true],
      ["Risks?", true],
    ]);
    // v1-style edit without flags keeps them; an explicit flag changes it.
    await updateStandup(team.admin.actor, created.id, { questions: [{ text: "Risks?" }, { text: "Done?", isBlocker: true }] });
    expect(await flags()).toEqual([
      ["Risks?", true],
      ["Done?", true],
    ]);
    expect((await listBlockerQuestionIds(team.admin.actor, created.id)).length).toBe(2);
  });
});

describe("restoreReport (undo of a delete)", () => {
  it("restores the author's report within the undo window and queues a new broadcast; not others', not later", async () => {
    const { discardReport } = await import("@/lib/domain/report-writes");
    const { restoreReport, UNDO_WINDOW_MINUTES } = await import("@/lib/domain/report-restore");
    const team = await createTestTeam({ members: 2 });
    const [, a, b] = team.users;
    const standup = await createTestCheckin(team);
    const report = await createTestReport(standup, a);
    await discardReport(a.actor, { reportId: report.id });
    await expect(restoreReport(b.actor, { reportId: report.id })).rejects.toBeInstanceOf(NotFoundError);
    const late = new Date(Date.now() + (UNDO_WINDOW_MINUTES + 1) * 60_000);
    await expect(restoreReport(a.actor, { reportId: report.id, now: late })).rejects.toBeInstanceOf(NotFoundError);
    await restoreReport(a.actor, { reportId: report.id });
    const row = await db.report.findUniqueOrThrow({ where: { id: report.id } });
    expect(row).toMatchObject({ status: "submitted", discarded_at: null });
    expect(await db.chatMessage.count({ where: { report_id: report.id, kind: "report", deleted_at: null } })).toBe(1);
    await expect(restoreReport(a.actor, { reportId: report.id })).rejects.toBeInstanceOf(NotFoundError);
  });
});
