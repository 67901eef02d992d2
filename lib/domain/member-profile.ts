/**
 * One member's page (dashboard, issue 16): participation per standup and per week, current and
 * longest streak (excused days skipped), response times, recent reports and vacations, over the
 * last `days` days. Only standups the viewer may see (`dashboardStandupWhere`); anonymous standups
 * are left out unless the viewer is the member (they would name who answered).
 * Recent reports come from `listReports` with the dashboard's rule (`DASHBOARD_READS`), anonymity included.
 */
import { db, type Tx } from "@/lib/db";
import { DASHBOARD_READS } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { addDaysIso } from "@/lib/domain/dashboard";
import { NotFoundError } from "@/lib/domain/errors";
import {
  bucketByWeek,
  bucketOf,
  currentStreak,
  listDashboardStandups,
  listMemberOccurrences,
  longestStreak,
  type ParticipationBucket,
  responseMinutes,
  responseTimeDistribution,
} from "@/lib/domain/member-participation";
import { listReports, type ReportView } from "@/lib/domain/reports";
import { localDateOf } from "@/lib/domain/schedule";

export type MemberProfile = {
  user: { id: number; chatId: string; realname: string; title: string | null; timezone: string; deactivated: boolean };
  since: string;
  today: string;
  overall: ParticipationBucket;
  standups: Array<ParticipationBucket & { standupId: number; name: string; streak: number; longestStreak: number }>;
  weeks: Array<ParticipationBucket & { weekStart: string }>;
  responseTime: ReturnType<typeof responseTimeDistribution>;
  /** Absences overlapping [since, ∞): past ones of the period and upcoming ones. */
  absences: Array<{ id: number; kind: string; startDate: string; endDate: string; note: string | null }>;
  recentReports: ReportView[];
};

/**
 * The profile of a member of the actor's team (chat id, e.g. U0123ABCD) over the last `days` days
 * (default 90) ending today in the viewer's `timezone`.
 * @throws NotFoundError when no user with that chat id is in the actor's team.
 */
export async function getMemberProfile(
  actor: Actor,
  input: { chatId: string; days?: number; timezone: string },
  client: Tx = db,
): Promise<MemberProfile> {
  const user = await client.user.findFirst({
    where: { team_id: actor.teamId, chat_id: input.chatId },
    select: { id: true, chat_id: true, realname: true, title: true, timezone: true, deactivated_at: true },
  });
  if (!user) throw new NotFoundError("Member");
  const today = localDateOf(new Date(), input.timezone);
  const since = addDaysIso(today, -((input.days ?? 90) - 1));
  const self = user.id === actor.userId;
  const standups = (await listDashboardStandups(actor, client)).filter((s) => self || !s.isAnonymous);
  const [rows, absences, reports] = await Promise.all([
    listMemberOccurrences(actor.teamId, { checkinIds: standups.map((s) => s.id), since, until: today, userId: user.id }, client),
    client.absence.findMany({
      where: { team_id: actor.teamId, user_id: user.id, end_date: { gte: new Date(`${since}T00:00:00Z`) } },
      orderBy: [{ start_date: "desc" }, { id: "desc" }],
      select: { id: true, kind: true, start_date: true, end_date: true, note: true },
    }),
    listReports(
      actor,
      {
        since: new Date(`${since}T00:00:00Z`),
        until: new Date(Date.now() + 60_000),
        userChatId: user.chat_id,
        limit: 10,
        withAnswers: true,
        ...DASHBOARD_READS,
      },
      client,
    ),
  ]);
  const perStandup = standups
    .map((s) => {
      const mine = rows.filter((r) => r.checkinId === s.id);
      return { standupId: s.id, name: s.name, rows: mine };
    })
    .filter((s) => s.rows.length > 0)
    .map((s) => ({
      standupId: s.standupId,
      name: s.name,
      ...bucketOf(s.rows),
      streak: currentStreak(s.rows, today),
      longestStreak: longestStreak(s.rows),
    }));
  return {
    user: {
      id: user.id,
      chatId: user.chat_id,
      realname: user.realname,
      title: user.title,
      timezone: user.timezone,
      deactivated: user.deactivated_at !== null,
    },
    since,
    today,
    overall: bucketOf(rows),
    standups: perStandup,
    weeks: bucketByWeek(rows, since, today),
    responseTime: responseTimeDistribution(responseMinutes(rows)),
    absences: absences.map((a) => ({
      id: a.id,
      kind: a.kind,
      startDate: a.start_date.toISOString().slice(0, 10),
      endDate: a.end_date.toISOString().slice(0, 10),
      note: a.note,
    })),
    recentReports: reports.slice(0, 10),
  };
}
