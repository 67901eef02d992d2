/**
 * "My data" (issue 45): everything the service holds about one person, as one JSON document —
 * profile (no password hash), memberships (channels, standups and polls), participation (each run
 * they were asked in), reports with their answers, votes, absences, API keys' metadata (never the
 * key or its hash), activity connections (never the token) and audit entries about them (acting or acted on). Nothing about anyone else:
 * other people appear only as ids where a row of theirs is about this person (an audit entry's actor).
 * `reportsCsv` gives their reports as CSV rows (one per answer).
 *
 * The person reads their own; a team admin may export anyone of the team, audited as `user.export`.
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { recordAudit } from "@/lib/domain/audit";
import { ForbiddenError, NotFoundError } from "@/lib/domain/errors";
import { userProfileSelect } from "@/lib/domain/me";
import { anonymousVoteIdsOf } from "@/lib/domain/voter-hash";
import type { Prisma } from "@/lib/generated/prisma/client";

/** The archive (JSON-ready: instants as ISO strings, local dates as "YYYY-MM-DD"). */
export type PersonData = Awaited<ReturnType<typeof loadPersonData>>;

const day = (d: Date) => d.toISOString().slice(0, 10);

const voteSelect = {
  id: true,
  choice: true,
  text: true,
  categories: true,
  created_at: true,
  occurrence: { select: { id: true, date: true, checkin: { select: { id: true, name: true } } } },
  question: { select: { id: true, text: true } },
} satisfies Prisma.VoteSelect;

/** Everything held about one person of team `teamId` (the archive; no audit entry: see `exportPersonData`). */
export async function loadPersonData(client: Tx, teamId: number, userId: number) {
  const user = await client.user.findFirst({
    where: { id: userId, team_id: teamId },
    select: {
      ...userProfileSelect,
      role: true,
      notification_channel: true,
      password_hash: true,
      deactivated_at: true,
      created_at: true,
      channel_members: { select: { joined_at: true, channel: { select: { id: true, name: true } } } },
      checkin_members: { select: { checkin: { select: { id: true, name: true, kind: true } } } },
      occurrence_members: {
        select: {
          asked_at: true,
          missed_at: true,
          excused: true,
          occurrence: { select: { id: true, date: true, checkin: { select: { id: true, name: true } } } },
        },
        orderBy: { occurrence_id: "asc" },
      },
      reports: {
        select: {
          id: true,
          status: true,
          is_anonymous: true,
          started_at: true,
          submitted_at: true,
          created_at: true,
          occurrence_id: true,
          checkin: { select: { id: true, name: true } },
          answers: { select: { id: true, text: true, question: { select: { id: true, text: true } } }, orderBy: { question_id: "asc" } },
        },
        orderBy: { id: "asc" },
      },
      votes: { select: voteSelect, orderBy: { id: "asc" } },
      absences: {
        select: { id: true, kind: true, start_date: true, end_date: true, note: true, created_at: true },
        orderBy: { id: "asc" },
      },
      api_keys: {
        select: { id: true, name: true, prefix: true, created_at: true, last_used_at: true, revoked_at: true },
        orderBy: { id: "asc" },
      },
      // Activity connections (issue 48): never the token.
      activity_connections: {
        select: { id: true, provider: true, base_url: true, login: true, last_fetched_at: true, last_error: true, created_at: true },
        orderBy: { id: "asc" },
      },
    },
  });
  if (!user) throw new NotFoundError("User");
  // Votes in anonymous polls name nobody: found by the person's keyed hash (lib/domain/voter-hash.ts).
  const anonymousIds = await anonymousVoteIdsOf(userId, client);
  const anonymousVotes = anonymousIds.length
    ? await client.vote.findMany({ where: { id: { in: anonymousIds } }, select: voteSelect, orderBy: { id: "asc" } })
    : [];
  const audit = await client.auditEntry.findMany({
    where: { team_id: teamId, OR: [{ actor_id: userId }, { target: `user:${userId}` }] },
    select: { id: true, action: true, actor_id: true, target: true, details: true, created_at: true },
    orderBy: { id: "asc" },
  });
  const {
    password_hash,
    channel_members,
    checkin_members,
    occurrence_members,
    reports,
    votes,
    absences,
    api_keys,
    activity_connections,
    ...profile
  } = user;
  return {
    profile: { ...profile, has_password: password_hash !== null },
    memberships: {
      channels: channel_members.map((m) => ({ ...m.channel, joined_at: m.joined_at })),
      checkins: checkin_members.map((m) => m.checkin),
    },
    participation: occurrence_members.map((m) => ({
      occurrence_id: m.occurrence.id,
      date: day(m.occurrence.date),
      checkin: m.occurrence.checkin,
      asked_at: m.asked_at,
      missed_at: m.missed_at,
      excused: m.excused,
    })),
    reports: reports.map((r) => ({
      id: r.id,
      status: r.status,
      is_anonymous: r.is_anonymous,
      standup: r.checkin,
      occurrence_id: r.occurrence_id,
      started_at: r.started_at,
      submitted_at: r.submitted_at,
      created_at: r.created_at,
      answers: r.answers.map((a) => ({ id: a.id, question_id: a.question.id, question: a.question.text, answer: a.text })),
    })),
    votes: [...votes, ...anonymousVotes].map((v) => ({
      id: v.id,
      poll: v.occurrence.checkin,
      occurrence_id: v.occurrence.id,
      date: day(v.occurrence.date),
      question: v.question,
      choice: v.choice,
      text: v.text,
      categories: v.categories,
      created_at: v.created_at,
    })),
    absences: absences.map((a) => ({ ...a, start_date: day(a.start_date), end_date: day(a.end_date) })),
    api_keys,
    activity_connections,
    audit_entries: audit,
  };
}

/**
 * Everything held about `userId` (default: the actor) — see the module comment.
 * @throws ForbiddenError when a non-admin asks for someone else; NotFoundError for an unknown
 *   person or one of another team.
 */
export async function exportPersonData(actor: Actor, input: { userId?: number } = {}, client: Tx = db): Promise<PersonData> {
  const userId = input.userId ?? actor.userId;
  if (userId !== actor.userId && !actor.isAdmin) throw new ForbiddenError("Only team admins can export another person's data");
  const data = await loadPersonData(client, actor.teamId, userId);
  if (userId !== actor.userId) {
    await recordAudit(client, { teamId: actor.teamId, actorId: actor.userId, action: "user.export", target: `user:${userId}` });
  }
  return data;
}

/** The reports of an archive as CSV rows (one per answer), header first. */
export function reportsCsvRows(data: PersonData): Array<Array<string | number | null>> {
  const rows: Array<Array<string | number | null>> = [["report_id", "standup", "status", "submitted_at", "question", "answer"]];
  for (const r of data.reports) {
    for (const a of r.answers) rows.push([r.id, r.standup.name, r.status, r.submitted_at?.toISOString() ?? null, a.question, a.answer]);
  }
  return rows;
}
