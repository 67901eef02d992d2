/**
 * Writes a DemoPlan into the database in batches (createMany / createManyAndReturn, at most
 * CHUNK rows per statement), resolving the plan's string keys to the generated ids.
 */

import type { Tx } from "@/lib/db";
import { recordHistoricalMessages } from "@/lib/domain/outbox";
import { seedCategoryRows } from "@/lib/seed/categories";
import type { DateKey } from "@/lib/seed/dates";
import { dbDate } from "@/lib/seed/dates";
import type { DemoPlan } from "@/lib/seed/plan";

const CHUNK = 2_000;

/** Ids of what was written, by plan key. */
export type WrittenIds = {
  teams: Map<string, number>;
  users: Map<string, number>;
  checkins: Map<string, number>;
};

/** Row counts of what was written. */
export type SeedCounts = {
  teams: number;
  users: number;
  channels: number;
  standups: number;
  polls: number;
  occurrences: number;
  occurrence_members: number;
  reports: { submitted: number; pending: number; discarded: number };
  answers: number;
  votes: number;
  categorizations: number;
  absences: number;
  chat_messages: number;
};

async function inChunks<T, R>(rows: T[], write: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(...(await write(rows.slice(i, i + CHUNK))));
  return out;
}

async function inChunksCount<T>(rows: T[], write: (chunk: T[]) => Promise<{ count: number }>): Promise<number> {
  let n = 0;
  for (let i = 0; i < rows.length; i += CHUNK) n += (await write(rows.slice(i, i + CHUNK))).count;
  return n;
}

function must<K, V>(map: Map<K, V>, key: K, what: string): V {
  const v = map.get(key);
  if (v === undefined) throw new Error(`seed: unknown ${what} ${String(key)}`);
  return v;
}

const dateKeyOf = (d: Date): DateKey => d.toISOString().slice(0, 10);

/**
 * Inserts every row of `plan` using `tx` (call it inside a transaction so a failure leaves nothing).
 * @param passwordHash stored for every demo user (hash once; argon2 is slow).
 * @param log progress lines.
 */
export async function writePlan(
  tx: Tx,
  plan: DemoPlan,
  passwordHash: string,
  log: (line: string) => void,
): Promise<{ ids: WrittenIds; counts: SeedCounts }> {
  const started = Date.now();
  const step = (what: string) => log(`  ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const teamIds = new Map<string, number>();
  const userIds = new Map<string, number>();
  const channelIds = new Map<string, number>();
  const checkinIds = new Map<string, number>();
  const teamOfUser = new Map<string, number>();
  const teamOfCheckin = new Map<string, number>();

  const teams = await tx.team.createManyAndReturn({
    data: plan.teams.map((t) => ({ chat_id: t.chat_id, name: t.name, timezone: t.timezone, created_at: t.created_at })),
    select: { id: true, chat_id: true },
  });
  for (const t of plan.teams) teamIds.set(t.slug, must(new Map(teams.map((r) => [r.chat_id, r.id])), t.chat_id, "team"));

  const userRows = plan.teams.flatMap((t) =>
    t.users.map((u) => ({
      chat_id: u.chat_id,
      team_id: must(teamIds, t.slug, "team"),
      username: u.username,
      realname: u.realname,
      firstname: u.firstname,
      email: u.email,
      avatar_url: u.avatar_url,
      timezone: u.timezone,
      title: u.title,
      is_admin: u.is_admin,
      role: u.is_admin ? ("admin" as const) : ("member" as const),
      is_billing_admin: u.is_billing_admin,
      password_hash: passwordHash,
      created_at: t.created_at,
    })),
  );
  const users = await tx.user.createManyAndReturn({ data: userRows, select: { id: true, chat_id: true } });
  const userByChat = new Map(users.map((r) => [r.chat_id, r.id]));
  for (const t of plan.teams)
    for (const u of t.users) {
      userIds.set(u.key, must(userByChat, u.chat_id, "user"));
      teamOfUser.set(u.key, must(teamIds, t.slug, "team"));
    }
  step(`${users.length} users`);

  const channels = await tx.channel.createManyAndReturn({
    data: plan.teams.flatMap((t) =>
      t.channels.map((c) => ({
        chat_id: c.chat_id,
        team_id: must(teamIds, t.slug, "team"),
        name: c.name,
        topic: c.topic,
        created_at: t.created_at,
      })),
    ),
    select: { id: true, chat_id: true },
  });
  const channelByChat = new Map(channels.map((r) => [r.chat_id, r.id]));
  for (const t of plan.teams) for (const c of t.channels) channelIds.set(c.key, must(channelByChat, c.chat_id, "channel"));
  await tx.channelMember.createMany({
    data: plan.teams.flatMap((t) =>
      t.channels.flatMap((c) =>
        c.memberKeys.map((k) => ({
          channel_id: must(channelIds, c.key, "channel"),
          user_id: must(userIds, k, "user"),
          team_id: must(teamIds, t.slug, "team"),
          joined_at: t.created_at,
        })),
      ),
    ),
  });

  const checkinPlans = plan.teams.flatMap((t) => t.checkins.map((c) => ({ t, c })));
  const checkins = await tx.checkin.createManyAndReturn({
    data: checkinPlans.map(({ t, c }) => ({
      team_id: must(teamIds, t.slug, "team"),
      kind: c.kind,
      name: c.name,
      state: c.state,
      time: c.time,
      wait_time: c.wait_time,
      timezone: c.timezone,
      days: c.days,
      broadcast_channel_id: c.broadcastChannelKey ? must(channelIds, c.broadcastChannelKey, "channel") : null,
      is_anonymous: c.is_anonymous,
      is_confidential: c.is_confidential,
      owner_id: must(userIds, c.ownerKey, "user"),
      intro: c.intro,
      recurrence: c.recurrence ?? undefined,
      duration: c.duration,
      next_run_at: c.next_run_at,
      created_at: c.created_at,
      updated_at: c.updated_at,
    })),
    select: { id: true, team_id: true, name: true },
  });
  const checkinByName = new Map(checkins.map((r) => [`${r.team_id}/${r.name}`, r.id]));
  for (const { t, c } of checkinPlans) {
    const teamId = must(teamIds, t.slug, "team");
    checkinIds.set(c.key, must(checkinByName, `${teamId}/${c.name}`, "checkin"));
    teamOfCheckin.set(c.key, teamId);
  }
  const questions = await tx.question.createManyAndReturn({
    data: checkinPlans.flatMap(({ c }) =>
      c.questions.map((q, position) => ({
        team_id: must(teamOfCheckin, c.key, "checkin"),
        checkin_id: must(checkinIds, c.key, "checkin"),
        position,
        text: q.text,
        answer_type: q.answer_type,
        choices: q.choices,
        color: q.color,
        is_blocker: q.is_blocker ?? false,
        created_at: c.created_at,
      })),
    ),
    select: { id: true, checkin_id: true, position: true },
  });
  const questionId = new Map(questions.map((q) => [`${q.checkin_id}/${q.position}`, q.id]));
  const qid = (checkinKey: string, position: number) =>
    must(questionId, `${must(checkinIds, checkinKey, "checkin")}/${position}`, "question");
  await tx.checkinMember.createMany({
    data: checkinPlans.flatMap(({ c }) =>
      c.memberKeys.map((k) => ({
        checkin_id: must(checkinIds, c.key, "checkin"),
        user_id: must(userIds, k, "user"),
        team_id: must(teamOfCheckin, c.key, "checkin"),
        added_at: c.created_at,
      })),
    ),
  });
  const absences = await tx.absence.createMany({
    data: plan.teams.flatMap((t) =>
      t.absences.map((a) => ({
        team_id: must(teamIds, t.slug, "team"),
        user_id: must(userIds, a.userKey, "user"),
        kind: a.kind,
        start_date: dbDate(a.start),
        end_date: dbDate(a.end),
        note: a.note,
        created_at: new Date(Math.min(plan.now.getTime(), dbDate(a.start).getTime() - 14 * 86_400_000)),
      })),
    ),
  });
  step(`${channels.length} channels, ${checkins.length} standups/polls, ${questions.length} questions, ${absences.count} absences`);

  const h = plan.history;
  const occurrences = await inChunks(h.occurrences, (chunk) =>
    tx.occurrence.createManyAndReturn({
      data: chunk.map((o) => ({
        team_id: must(teamOfCheckin, o.checkinKey, "checkin"),
        checkin_id: must(checkinIds, o.checkinKey, "checkin"),
        date: dbDate(o.date),
        scheduled_at: o.scheduled_at,
        started_at: o.scheduled_at,
        closes_at: o.closes_at,
        closed_at: o.closed_at,
        trigger: "seed" as const,
        created_at: o.scheduled_at,
      })),
      select: { id: true, checkin_id: true, date: true },
    }),
  );
  const occurrenceByKey = new Map(occurrences.map((o) => [`${o.checkin_id}/${dateKeyOf(o.date)}`, o.id]));
  const oid = (checkinKey: string, date: DateKey) =>
    must(occurrenceByKey, `${must(checkinIds, checkinKey, "checkin")}/${date}`, "occurrence");
  const occurrenceMembers = await inChunksCount(
    h.occurrences.flatMap((o) =>
      o.members.map((m) => ({
        occurrence_id: oid(o.checkinKey, o.date),
        user_id: must(userIds, m.userKey, "user"),
        team_id: must(teamOfCheckin, o.checkinKey, "checkin"),
        asked_at: m.asked_at,
      })),
    ),
    (chunk) => tx.occurrenceMember.createMany({ data: chunk }),
  );
  const seededTeams = [...teamIds.values()];
  // Members without an asking time were on leave that day: excused with their absence's kind.
  await tx.$executeRaw`
    UPDATE occurrence_members om SET
      due_at = COALESCE(om.asked_at, o.scheduled_at),
      excused = CASE WHEN om.asked_at IS NULL THEN (
        SELECT a.kind::text::"ExcuseReason" FROM absences a
        WHERE a.user_id = om.user_id AND a.start_date <= o.date AND a.end_date >= o.date ORDER BY a.id LIMIT 1) END
    FROM occurrences o WHERE o.id = om.occurrence_id AND om.team_id = ANY(${seededTeams}::int[])`;
  step(`${occurrences.length} occurrences, ${occurrenceMembers} asked members`);

  const reports = await inChunks(h.reports, (chunk) =>
    tx.report.createManyAndReturn({
      data: chunk.map((r) => ({
        team_id: must(teamOfCheckin, r.checkinKey, "checkin"),
        checkin_id: must(checkinIds, r.checkinKey, "checkin"),
        occurrence_id: oid(r.checkinKey, r.date),
        user_id: must(userIds, r.userKey, "user"),
        status: r.status,
        anonymous_requested: r.anonymous_requested,
        is_anonymous: r.is_anonymous,
        started_at: r.started_at,
        submitted_at: r.submitted_at,
        discarded_at: r.discarded_at,
        created_at: r.created_at,
        updated_at: r.submitted_at ?? r.discarded_at ?? r.started_at ?? r.created_at,
      })),
      select: { id: true, occurrence_id: true, user_id: true },
    }),
  );
  const reportByKey = new Map(reports.map((r) => [`${r.occurrence_id}/${r.user_id}`, r.id]));
  const rid = (checkinKey: string, date: DateKey, userKey: string) =>
    must(reportByKey, `${oid(checkinKey, date)}/${must(userIds, userKey, "user")}`, "report");
  const submitted = h.reports.filter((r) => r.status === "submitted");
  const answers = await inChunksCount(
    submitted.flatMap((r) =>
      r.answers.map((text, position) => ({
        team_id: must(teamOfCheckin, r.checkinKey, "checkin"),
        report_id: rid(r.checkinKey, r.date, r.userKey),
        question_id: qid(r.checkinKey, position),
        text,
        created_at: r.submitted_at as Date,
        updated_at: r.submitted_at as Date,
      })),
    ),
    (chunk) => tx.answer.createMany({ data: chunk }),
  );
  // Closed standup runs record who missed them (expected, not excused, no submitted report).
  await tx.$executeRaw`
    UPDATE occurrence_members om SET missed_at = o.closed_at
    FROM occurrences o JOIN checkins c ON c.id = o.checkin_id
    WHERE o.id = om.occurrence_id AND om.team_id = ANY(${seededTeams}::int[]) AND c.kind = 'standup'
      AND o.closed_at IS NOT NULL AND om.excused IS NULL
      AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.occurrence_id = o.id AND r.user_id = om.user_id AND r.status = 'submitted')`;
  step(`${reports.length} reports, ${answers} answers`);

  const messageRows = [
    ...submitted.flatMap((r) =>
      r.message
        ? [
            {
              team_id: must(teamOfCheckin, r.checkinKey, "checkin"),
              ts: r.message.ts,
              kind: "report" as const,
              channel_id: r.message.channelKey ? must(channelIds, r.message.channelKey, "channel") : null,
              recipient_id: r.message.recipientKey ? must(userIds, r.message.recipientKey, "user") : null,
              checkin_id: must(checkinIds, r.checkinKey, "checkin"),
              occurrence_id: oid(r.checkinKey, r.date),
              report_id: rid(r.checkinKey, r.date, r.userKey),
              text: r.message.text,
              delivery_state: "delivered" as const,
              delivery_attempts: 1,
              delivered_at: r.message.created_at,
              created_at: r.message.created_at,
              updated_at: r.message.created_at,
            },
          ]
        : [],
    ),
    ...h.pollMessages.map((p) => ({
      team_id: must(teamOfCheckin, p.checkinKey, "checkin"),
      ts: p.message.ts,
      kind: "poll" as const,
      channel_id: p.message.channelKey ? must(channelIds, p.message.channelKey, "channel") : null,
      recipient_id: null,
      checkin_id: must(checkinIds, p.checkinKey, "checkin"),
      occurrence_id: oid(p.checkinKey, p.date),
      report_id: null,
      text: p.message.text,
      delivery_state: "delivered" as const,
      delivery_attempts: 1,
      delivered_at: p.message.created_at,
      created_at: p.message.created_at,
      updated_at: p.message.created_at,
    })),
  ];
  const chatMessages = await inChunksCount(messageRows, async (chunk) => ({ count: await recordHistoricalMessages(tx, chunk) }));

  const votes = await inChunksCount(
    h.votes.map((v) => ({
      team_id: must(teamOfCheckin, v.checkinKey, "checkin"),
      occurrence_id: oid(v.checkinKey, v.date),
      question_id: qid(v.checkinKey, v.questionIndex),
      user_id: must(userIds, v.userKey, "user"),
      choice: v.choice,
      text: v.text,
      categories: v.categories,
      created_at: v.created_at,
    })),
    (chunk) => tx.vote.createMany({ data: chunk }),
  );
  const categorizations = await tx.categorization.createMany({
    data: h.categorizations.map((c) => ({
      occurrence_id: oid(c.checkinKey, c.date),
      question_id: qid(c.checkinKey, c.questionIndex),
      team_id: must(teamOfCheckin, c.checkinKey, "checkin"),
      status: c.status,
      categories: c.categories ?? undefined,
      attempts: c.status === "completed" ? 1 : 0,
      engine: c.status === "completed" ? "seed" : null,
    })),
  });
  // The categories the seeded results use, kept per question so the categorizer matches new answers to them.
  await tx.category.createMany({
    data: seedCategoryRows(h.categorizations).map((c) => ({
      team_id: must(teamOfCheckin, c.checkinKey, "checkin"),
      question_id: qid(c.checkinKey, c.questionIndex),
      name: c.name,
      keywords: c.keywords,
      created_by: "seed",
    })),
    skipDuplicates: true,
  });
  step(`${chatMessages} chat messages, ${votes} votes, ${categorizations.count} categorizations`);

  const byStatus = (s: string) => h.reports.filter((r) => r.status === s).length;
  const allCheckins = plan.teams.flatMap((t) => t.checkins);
  return {
    ids: { teams: teamIds, users: userIds, checkins: checkinIds },
    counts: {
      teams: teams.length,
      users: users.length,
      channels: channels.length,
      standups: allCheckins.filter((c) => c.kind === "standup").length,
      polls: allCheckins.filter((c) => c.kind === "poll").length,
      occurrences: occurrences.length,
      occurrence_members: occurrenceMembers,
      reports: { submitted: byStatus("submitted"), pending: byStatus("pending"), discarded: byStatus("discarded") },
      answers,
      votes,
      categorizations: categorizations.count,
      absences: absences.count,
      chat_messages: chatMessages,
    },
  };
}
