/**
 * CSV exports (dashboard, issue 16) as async generators of rows, one page at a time, so a year of
 * a 500-person team is written without holding it in memory. Each export reads through the same
 * domain function as the screen or API it mirrors:
 * - reports: `listReports` with the dashboard's rule (`DASHBOARD_READS`: admins and managers read
 *   every non-confidential standup; anonymity as the API), keyset-paged;
 *   "answers" = one row per answer, "reports" = one row per report with one column per question;
 * - participation: `listMemberOccurrences` (the participation rule of the API), per occurrence or
 *   per member and occurrence (anonymous standups are left out of the per-member export);
 * - poll results: `getPollVotes` with the dashboard's "manager" access (the poll's creator or a
 *   team admin, as the poll page's live results), one row per choice or open-ended response.
 * Cells are strings or numbers; instants are ISO 8601 UTC, dates "YYYY-MM-DD".
 */
import { db, type Tx } from "@/lib/db";
import { DASHBOARD_READS } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { readableStandupIds } from "@/lib/domain/blockers";
import { listDashboardStandups, listMemberOccurrences, type MemberOccurrence } from "@/lib/domain/member-participation";
import { listReports, type ReportListFilters, type ReportView, teamPeopleNames } from "@/lib/domain/reports";
import { getPollVotes } from "@/lib/domain/votes";

/** A CSV row. */
export type CsvRow = Array<string | number | null>;
/** An export: its header and the rows, produced page by page. */
export type CsvExport = { header: string[]; rows: AsyncIterable<CsvRow[]> };

/** Rows per page read from the database. */
export const EXPORT_PAGE_SIZE = 500;

/** Filters of the reports export (the GET /v2/reports filters without its 90-day cap). */
export type ReportExportFilters = Pick<ReportListFilters, "since" | "until" | "standupId" | "userChatId"> & {
  /** Only reports whose answers match this full-text query (websearch syntax). */
  search?: string;
};

async function* reportPages(actor: Actor, f: ReportExportFilters, client: Tx): AsyncGenerator<ReportView[]> {
  let after: ReportListFilters["after"];
  for (;;) {
    const rows = await listReports(actor, { ...f, after, limit: EXPORT_PAGE_SIZE, withAnswers: true, ...DASHBOARD_READS }, client);
    const page = rows.slice(0, EXPORT_PAGE_SIZE);
    if (page.length) yield page;
    if (rows.length <= EXPORT_PAGE_SIZE) return;
    const last = page[page.length - 1];
    after = { postedAt: last.submitted_at, id: last.id };
  }
}

function author(r: ReportView, names: Map<string, string>): [string, string] {
  if (r.is_anonymous) return ["", "Anonymous"];
  return [r.user.chat_id, names.get(r.user.chat_id) ?? ""];
}

/** Reports as CSV: `format` "answers" (one row per answer) or "reports" (one column per question). */
export async function exportReports(
  actor: Actor,
  f: ReportExportFilters,
  format: "answers" | "reports",
  client: Tx = db,
): Promise<CsvExport> {
  const names = await teamPeopleNames(actor, client);
  if (format === "answers") {
    return {
      header: ["report_id", "posted_at", "standup_id", "standup", "user_id", "user_name", "question_id", "question", "answer"],
      rows: mapPages(reportPages(actor, f, client), (page) =>
        page.flatMap((r) =>
          (r.answers ?? []).map(
            (a): CsvRow => [
              r.id,
              r.submitted_at.toISOString(),
              r.checkin_id,
              r.checkin.name,
              ...author(r, names),
              a.question_id,
              a.question.text,
              a.text,
            ],
          ),
        ),
      ),
    };
  }
  const ids = (await readableStandupIds(actor, client)).filter((id) => f.standupId === undefined || id === f.standupId);
  const questions = await client.question.findMany({
    where: { team_id: actor.teamId, checkin_id: { in: ids }, checkin: { kind: "standup" } },
    orderBy: [{ checkin_id: "asc" }, { archived_at: { sort: "asc", nulls: "first" } }, { position: "asc" }, { id: "asc" }],
    select: { id: true, text: true },
  });
  const column = new Map(questions.map((q, i) => [q.id, i]));
  return {
    header: ["report_id", "posted_at", "standup_id", "standup", "user_id", "user_name", ...questions.map((q) => q.text)],
    rows: mapPages(reportPages(actor, f, client), (page) =>
      page.map((r): CsvRow => {
        const cells: Array<string | null> = questions.map(() => null);
        for (const a of r.answers ?? []) {
          const i = column.get(a.question_id);
          if (i !== undefined) cells[i] = a.text;
        }
        return [r.id, r.submitted_at.toISOString(), r.checkin_id, r.checkin.name, ...author(r, names), ...cells];
      }),
    ),
  };
}

/** Filters of the participation export: local dates "YYYY-MM-DD", inclusive. */
export type ParticipationExportFilters = { since: string; until: string; standupId?: number };

async function* occurrencePages(
  actor: Actor,
  f: ParticipationExportFilters,
  client: Tx,
): AsyncGenerator<{ rows: MemberOccurrence[]; names: Map<number, string> }> {
  const standups = (await listDashboardStandups(actor, client)).filter((s) => f.standupId === undefined || s.id === f.standupId);
  const names = new Map(standups.map((s) => [s.id, s.name]));
  const perPage = 200;
  let after: { date: string; occurrenceId: number } | undefined;
  for (;;) {
    const rows = await listMemberOccurrences(
      actor.teamId,
      { checkinIds: [...names.keys()], since: f.since, until: f.until, after, occurrenceLimit: perPage },
      client,
    );
    if (rows.length) yield { rows, names };
    const occurrences = new Set(rows.map((r) => r.occurrenceId));
    if (occurrences.size < perPage) return;
    const last = rows[rows.length - 1];
    after = { date: last.date, occurrenceId: last.occurrenceId };
  }
}

/** Participation as CSV: `per` "occurrence" (one row per run) or "member" (one row per member and run). */
export async function exportParticipation(
  actor: Actor,
  f: ParticipationExportFilters,
  per: "occurrence" | "member",
  client: Tx = db,
): Promise<CsvExport> {
  if (per === "member") {
    return {
      header: ["date", "standup_id", "standup", "user_id", "user_name", "status", "asked_at", "answered_at", "response_minutes"],
      rows: mapPages(occurrencePages(actor, f, client), ({ rows, names }) =>
        rows
          .filter((r) => !r.anonymous)
          .map(
            (r): CsvRow => [
              r.date,
              r.checkinId,
              names.get(r.checkinId) ?? "",
              r.chatId,
              r.realname,
              r.status,
              r.askedAt.toISOString(),
              r.submittedAt?.toISOString() ?? "",
              r.submittedAt ? Math.max(0, Math.round((r.submittedAt.getTime() - r.askedAt.getTime()) / 60_000)) : "",
            ],
          ),
      ),
    };
  }
  return {
    header: ["date", "standup_id", "standup", "occurrence_id", "asked", "answered", "excused", "missed", "expected", "participation_rate"],
    rows: mapPages(occurrencePages(actor, f, client), ({ rows, names }) => {
      const byOcc = new Map<number, MemberOccurrence[]>();
      for (const r of rows) byOcc.set(r.occurrenceId, [...(byOcc.get(r.occurrenceId) ?? []), r]);
      return [...byOcc.values()].map((list): CsvRow => {
        const answered = list.filter((r) => r.status === "answered").length;
        const excused = list.filter((r) => r.status === "excused").length;
        const expected = list.length - excused;
        const first = list[0];
        return [
          first.date,
          first.checkinId,
          names.get(first.checkinId) ?? "",
          first.occurrenceId,
          list.length,
          answered,
          excused,
          expected - answered,
          expected,
          expected > 0 ? Math.round((answered / expected) * 10_000) / 10_000 : "",
        ];
      });
    }),
  };
}

/**
 * Poll results as CSV (every broadcast in [since, until), or the latest when neither is given):
 * one row per choice of a multiple-choice question, one per response of an open-ended one.
 * Visibility as `canManagePoll` (lib/domain/access.ts): with an API key only the poll's creator
 * (spec §2.3, the rule of GET /v2/polls/{id}/votes); in the dashboard also a team admin.
 * @throws NotFoundError when the poll is not visible so.
 */
export async function exportPollResults(
  actor: Actor,
  pollId: number,
  f: { since?: Date; until?: Date },
  client: Tx = db,
): Promise<CsvExport> {
  const results = await getPollVotes(actor, pollId, f, { access: "manager" }, client);
  const names = await teamPeopleNames(actor, client);
  const rows: CsvRow[] = [];
  for (const i of results.instances) {
    for (const q of i.questions) {
      const base = [results.pollId, results.pollName, i.date, q.questionId, q.text, q.answerType];
      for (const c of q.choices ?? []) {
        rows.push([...base, c.text, c.votes, "", c.voters?.map((v) => names.get(v.chatId) ?? v.chatId).join("; ") ?? ""]);
      }
      for (const r of q.responses ?? []) {
        rows.push([...base, r.text, 1, r.categories.join("; "), r.voter ? (names.get(r.voter.chatId) ?? r.voter.chatId) : ""]);
      }
    }
  }
  return {
    header: ["poll_id", "poll", "date", "question_id", "question", "answer_type", "answer", "votes", "categories", "voters"],
    rows: (async function* () {
      yield rows;
    })(),
  };
}

async function* mapPages<T>(pages: AsyncIterable<T>, fn: (page: T) => CsvRow[]): AsyncGenerator<CsvRow[]> {
  for await (const page of pages) yield fn(page);
}
