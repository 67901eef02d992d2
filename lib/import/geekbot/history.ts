/**
 * Report history and poll votes of a Geekbot import (issue 43), written as facts only: reports with
 * their original timestamps and anonymity, answers, and the occurrences of their original local dates
 * (trigger `import`, closed, the standup's members as the asked snapshot) so participation history
 * shows in the dashboard. No chat message, job or webhook is written for them (the database's own
 * triggers only refresh the stored participation counts / poll results of closed occurrences).
 *
 * Authors the source hides (anonymous reports and votes) become placeholder people "Anonymous N"
 * (deactivated), N counting per occurrence, so each anonymous report stays one responder.
 */
import type { Tx } from "@/lib/db";
import { instantAtLocal, localDateOf } from "@/lib/domain/schedule";
import type { ImportedCheckin } from "@/lib/import/geekbot/checkins";
import { emailKey, type ImportContext } from "@/lib/import/geekbot/context";
import { userForUnknown } from "@/lib/import/geekbot/people";
import type { SourcePoll, SourcePollVotes, SourceReport } from "@/lib/import/geekbot/source";
import { loadMap, recordMap } from "@/lib/import/map";

const DAY_MS = 86_400_000;

/**
 * Occurrence ids of a checkin by local date, created when missing (members asked) and left open:
 * the caller closes them with `closeCreated` in the same transaction, after writing their rows, so
 * that the database's per-row triggers (which refresh stored counts of CLOSED occurrences) fire
 * once per occurrence on closing instead of once per report and member. Nobody sees them open.
 */
async function occurrencesFor(
  tx: Tx,
  ctx: ImportContext,
  imp: ImportedCheckin,
  dates: string[],
): Promise<Map<string, number> & { created?: number[] }> {
  const wanted = [...new Set(dates)];
  const existing = await tx.occurrence.findMany({
    where: { team_id: ctx.scope.teamId, checkin_id: imp.id, date: { in: wanted.map((d) => new Date(`${d}T00:00:00Z`)) } },
    select: { id: true, date: true },
  });
  const out: Map<string, number> & { created?: number[] } = new Map(existing.map((o) => [o.date.toISOString().slice(0, 10), o.id]));
  const missing = wanted.filter((d) => !out.has(d));
  if (!missing.length) return out;
  const now = Date.now();
  const rows = await tx.occurrence.createManyAndReturn({
    data: missing.map((date) => {
      const scheduled = instantAtLocal(date, imp.time, imp.timezone);
      const closed = new Date(Math.min(now, scheduled.getTime() + DAY_MS));
      return {
        team_id: ctx.scope.teamId,
        checkin_id: imp.id,
        date: new Date(`${date}T00:00:00Z`),
        scheduled_at: scheduled,
        started_at: scheduled,
        closes_at: closed,
        closed_at: null,
        trigger: "import" as const,
        created_at: scheduled,
      };
    }),
    select: { id: true, date: true, scheduled_at: true },
  });
  await tx.occurrenceMember.createMany({
    data: rows.flatMap((o) =>
      imp.memberIds.map((user_id) => ({
        occurrence_id: o.id,
        user_id,
        team_id: ctx.scope.teamId,
        asked_at: o.scheduled_at,
        due_at: o.scheduled_at,
      })),
    ),
    skipDuplicates: true,
  });
  for (const o of rows) out.set(o.date.toISOString().slice(0, 10), o.id);
  out.created = rows.map((o) => o.id);
  ctx.summary.occurrences.created += rows.length;
  return out;
}

/** Closes the occurrences `occurrencesFor` created (at their `closes_at`). */
async function closeCreated(tx: Tx, occurrences: { created?: number[] }): Promise<void> {
  if (occurrences.created?.length)
    await tx.$executeRaw`UPDATE occurrences SET closed_at = closes_at WHERE id = ANY(${occurrences.created}::int[])`;
}

/** The user id of the `n`-th anonymous author of an occurrence (a placeholder person). */
function anonymousAuthor(tx: Tx, ctx: ImportContext, n: number): Promise<number> {
  return userForUnknown(
    tx,
    ctx,
    `anonymous-${n}`,
    { username: `anonymous-${n}`, realname: `Anonymous ${n}` },
    "placeholder for authors the source keeps anonymous",
  );
}

/** How many placeholder (anonymous) authors each occurrence already has, by occurrence id. */
async function anonymousCounts(
  tx: Tx,
  ctx: ImportContext,
  occurrenceIds: number[],
  table: "reports" | "votes",
): Promise<Map<number, number>> {
  const placeholders = [...ctx.users.entries()].filter(([k]) => k.startsWith("anonymous-")).map(([, v]) => v);
  if (!placeholders.length || !occurrenceIds.length) return new Map();
  const where = { occurrence_id: { in: occurrenceIds }, user_id: { in: placeholders } };
  const rows =
    table === "reports"
      ? await tx.report.groupBy({ by: ["occurrence_id"], where, _count: { _all: true } })
      : (await tx.vote.findMany({ where, select: { occurrence_id: true, user_id: true }, distinct: ["occurrence_id", "user_id"] })).map(
          (v) => ({
            occurrence_id: v.occurrence_id,
            _count: { _all: 1 },
          }),
        );
  const out = new Map<number, number>();
  for (const r of rows) if (r.occurrence_id !== null) out.set(r.occurrence_id, (out.get(r.occurrence_id) ?? 0) + r._count._all);
  return out;
}

/** A local question for a source question id the standup no longer lists (archived, keeps the answer's text). */
async function deletedQuestion(tx: Tx, ctx: ImportContext, imp: ImportedCheckin, sourceQuestionId: string, text: string): Promise<number> {
  const last = await tx.question.aggregate({ where: { checkin_id: imp.id }, _max: { position: true } });
  const q = await tx.question.create({
    data: {
      team_id: ctx.scope.teamId,
      checkin_id: imp.id,
      position: (last._max.position ?? -1) + 1,
      text: text || "(deleted question)",
      archived_at: new Date(),
    },
    select: { id: true },
  });
  await recordMap(tx, ctx.scope, "question", [[sourceQuestionId, q.id]]);
  imp.questions.set(sourceQuestionId, q.id);
  ctx.summary.questions.created++;
  ctx.summary.notes.push({
    what: "question",
    id: sourceQuestionId,
    reason: "answered in a report but no longer in its standup: imported as an archived question",
  });
  return q.id;
}

/**
 * Writes one page of source reports of one standup (those not imported yet, at or after `ctx.since`).
 * @returns how many reports were written.
 */
export async function writeReportPage(tx: Tx, ctx: ImportContext, imp: ImportedCheckin, page: SourceReport[]): Promise<number> {
  const known = await loadMap(
    tx,
    ctx.scope,
    "report",
    page.map((r) => r.id),
  );
  const fresh = page.filter((r) => !known.has(r.id) && (!ctx.since || r.timestamp * 1000 >= ctx.since.getTime()));
  ctx.summary.reports.existing += page.length - fresh.length;
  if (!fresh.length) return 0;
  const dateOf = (r: SourceReport) => localDateOf(new Date(r.timestamp * 1000), imp.timezone);
  const occurrences = await occurrencesFor(tx, ctx, imp, fresh.map(dateOf));
  const anonymous = await anonymousCounts(tx, ctx, [...occurrences.values()], "reports");
  const rows: { r: SourceReport; occurrenceId: number; userId: number; at: Date }[] = [];
  for (const r of fresh) {
    const occurrenceId = occurrences.get(dateOf(r)) as number;
    let userId: number;
    if (r.member) {
      userId =
        ctx.users.get(r.member.id) ??
        (await userForUnknown(tx, ctx, r.member.id, r.member, `author of report ${r.id} is not among the source team's users`));
    } else {
      const n = (anonymous.get(occurrenceId) ?? 0) + 1;
      anonymous.set(occurrenceId, n);
      userId = await anonymousAuthor(tx, ctx, n);
    }
    rows.push({ r, occurrenceId, userId, at: new Date(Math.round(r.timestamp * 1000)) });
  }
  // The authors are expected in their occurrence (a member who left the standup since still counts).
  await tx.occurrenceMember.createMany({
    data: rows
      .filter((x) => x.r.member)
      .map((x) => ({ occurrence_id: x.occurrenceId, user_id: x.userId, team_id: ctx.scope.teamId, asked_at: x.at, due_at: x.at })),
    skipDuplicates: true,
  });
  const created = await tx.report.createManyAndReturn({
    data: rows.map((x) => ({
      team_id: ctx.scope.teamId,
      checkin_id: imp.id,
      occurrence_id: x.occurrenceId,
      user_id: x.userId,
      status: "submitted" as const,
      anonymous_requested: x.r.is_anonymous ?? false,
      is_anonymous: x.r.is_anonymous ?? false,
      started_at: x.at,
      submitted_at: x.at,
      created_at: x.at,
      updated_at: x.at,
    })),
    select: { id: true, occurrence_id: true, user_id: true, submitted_at: true, is_anonymous: true },
  });
  // Match the returned rows to their source reports by (occurrence, author, time), in order for ties.
  // An anonymous report's stored time is coarse (issue 45, migration 20261128132700): matched without it.
  const timeKey = (anonymous: boolean, at: Date | null) => (anonymous ? "anonymous" : at?.getTime());
  const byKey = new Map<string, number[]>();
  for (const c of created) {
    const k = `${c.occurrence_id}/${c.user_id}/${timeKey(c.is_anonymous, c.submitted_at)}`;
    byKey.set(k, [...(byKey.get(k) ?? []), c.id]);
  }
  const answers: { team_id: number; report_id: number; question_id: number; text: string; created_at: Date; updated_at: Date }[] = [];
  const pairs: [string, number][] = [];
  for (const x of rows) {
    const reportId = byKey.get(`${x.occurrenceId}/${x.userId}/${timeKey(x.r.is_anonymous ?? false, x.at)}`)?.shift() as number;
    pairs.push([x.r.id, reportId]);
    const seen = new Set<number>();
    for (const a of x.r.questions) {
      const questionId = imp.questions.get(a.question_id) ?? (await deletedQuestion(tx, ctx, imp, a.question_id, a.question));
      if (seen.has(questionId)) continue;
      seen.add(questionId);
      answers.push({
        team_id: ctx.scope.teamId,
        report_id: reportId,
        question_id: questionId,
        text: a.answer,
        created_at: x.at,
        updated_at: x.at,
      });
    }
  }
  if (answers.length) await tx.answer.createMany({ data: answers });
  await recordMap(tx, ctx.scope, "report", pairs);
  await closeCreated(tx, occurrences);
  ctx.summary.reports.imported += rows.length;
  ctx.summary.reports.answers += answers.length;
  return rows.length;
}

/** Marks who missed each imported, closed occurrence of a standup (asked, no submitted report). */
export async function markMissed(tx: Tx, ctx: ImportContext, checkinId: number): Promise<void> {
  await tx.$executeRaw`
    UPDATE occurrence_members om SET missed_at = CASE WHEN EXISTS (
        SELECT 1 FROM reports r WHERE r.occurrence_id = o.id AND r.user_id = om.user_id AND r.status = 'submitted') THEN NULL ELSE o.closed_at END
    FROM occurrences o
    WHERE o.id = om.occurrence_id AND o.team_id = ${ctx.scope.teamId} AND o.checkin_id = ${checkinId} AND o.trigger = 'import'`;
}

/**
 * Writes the votes of the poll instances not imported yet (one occurrence per instance date).
 * Voters the source hides (anonymous polls) become placeholder people, one per vote.
 */
export async function writePollVotes(
  tx: Tx,
  ctx: ImportContext,
  poll: SourcePoll,
  imp: ImportedCheckin,
  votes: SourcePollVotes,
): Promise<void> {
  const done = await loadMap(tx, ctx.scope, "poll_instance");
  const types = new Map(poll.questions.map((q) => [q.id, q.answer_type ?? "multiple_choice"]));
  const instances = votes.instances.filter((i) => !done.has(i.id) && (!ctx.since || i.date >= ctx.since.toISOString().slice(0, 10)));
  if (!instances.length) return;
  const occurrences = await occurrencesFor(
    tx,
    ctx,
    imp,
    instances.map((i) => i.date),
  );
  const anonymous = await anonymousCounts(tx, ctx, [...occurrences.values()], "votes");
  const rows: {
    team_id: number;
    occurrence_id: number;
    question_id: number;
    user_id: number;
    choice: string | null;
    text: string | null;
    created_at: Date;
  }[] = [];
  const pairs: [string, number][] = [];
  for (const inst of instances) {
    const occurrenceId = occurrences.get(inst.date) as number;
    if (pairs.some(([, id]) => id === occurrenceId)) {
      ctx.summary.skipped.push({
        what: "poll instance",
        id: inst.id,
        reason: `a second instance on ${inst.date}: its votes are in the first one's results`,
      });
      continue;
    }
    pairs.push([inst.id, occurrenceId]);
    const at = instantAtLocal(inst.date, imp.time, imp.timezone);
    // The k-th hidden voter of each question is the same placeholder across the instance's questions.
    const base = anonymous.get(occurrenceId) ?? 0;
    let most = 0;
    for (const q of votes.questions) {
      let hidden = 0;
      const questionId = imp.questions.get(q.id);
      if (questionId === undefined) {
        ctx.summary.skipped.push({ what: "poll question", id: q.id, reason: "votes for a question the poll no longer lists" });
        continue;
      }
      const open = types.get(q.id) === "open_ended";
      for (const result of q.results.filter((r) => r.date === inst.date)) {
        for (const answer of result.answers) {
          const voters = (answer.users ?? []).map((u) => ctx.users.get(u.id) ?? (u.email ? ctx.users.get(emailKey(u.email)) : undefined));
          const known = voters.filter((v): v is number => v !== undefined);
          for (let k = known.length; k < Math.max(answer.votes, voters.length); k++) {
            hidden++;
            known.push(await anonymousAuthor(tx, ctx, base + hidden));
          }
          for (const user_id of known)
            rows.push({
              team_id: ctx.scope.teamId,
              occurrence_id: occurrenceId,
              question_id: questionId,
              user_id,
              choice: open ? null : answer.text,
              text: open ? answer.text : null,
              created_at: at,
            });
        }
      }
      most = Math.max(most, hidden);
    }
    anonymous.set(occurrenceId, base + most);
  }
  if (rows.length) await tx.vote.createMany({ data: rows });
  await closeCreated(tx, occurrences);
  await recordMap(tx, ctx.scope, "poll_instance", pairs);
  ctx.summary.polls.instances += pairs.length;
  ctx.summary.polls.votes += rows.length;
}
