import type { Metadata } from "next";
import { ParticipationBarChart } from "@/components/charts/participation-chart";
import { formatShortDate, formatTime } from "@/components/format";
import { ReportCard } from "@/components/reports/report-card";
import { toReportCard } from "@/components/reports/to-card";
import { DeliveryStates } from "@/components/standups/delivery-states";
import { HeatmapGrid } from "@/components/standups/heatmap";
import { describeNextRun } from "@/components/standups/next-run";
import { OccurrenceStates } from "@/components/standups/occurrence-states";
import { SummariesCard } from "@/components/standups/summaries-card";
import { ActionForm } from "@/components/ui/action-form";
import { Button, LinkButton } from "@/components/ui/button";
import { Alert, Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/form";
import { listStandupDeliveryPage } from "@/lib/chat/standup-delivery";
import { DASHBOARD_READS } from "@/lib/domain/access";
import { getStandupHeatmap, getStandupParticipation } from "@/lib/domain/dashboard";
import { NotFoundError } from "@/lib/domain/errors";
import { listOccurrenceStatuses } from "@/lib/domain/occurrence-status";
import { describeQuestionType } from "@/lib/domain/question-types";
import { listReports, teamPeopleNames } from "@/lib/domain/reports";
import { listStandupSummaries } from "@/lib/domain/summaries";
import { askNowAction, deleteStandupAction, duplicateStandupAction, retryStandupDeliveryAction, setStandupStateAction } from "../actions";
import { loadStandupPage } from "./load-standup";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Standup" };

/**
 * Standup detail: the latest runs' member states first (what a manager reads first), then
 * configuration, message delivery, participation chart, heatmap, recent reports, admin actions.
 * Every list is bounded (issue 49: the page costs the same at two years as at 30 days): the latest
 * 3 runs, 10 reports (link to the Reports page), 5 summaries, and one page of
 * `DELIVERIES_PER_PAGE` messages, collapsed; `?deliveries=<message id>` shows the older page
 * (a keyset cursor, opened).
 * `?copied=1` (after _Duplicate_): says that the copy is paused (or a draft) and offers _Activate_;
 * `?created=1` / `?saved=1`: a success notice.
 */
export default async function StandupPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, user, standup, manage } = await loadStandupPage(params);
  const sp = await searchParams;
  const copied = sp.copied === "1";
  const notice = sp.created === "1" ? "Standup created." : sp.saved === "1" ? "Standup saved." : null;
  const now = new Date();
  // ?deliveries=latest|<message id>: the delivery section opened, at the newest or an older page
  const deliveriesOpen = sp.deliveries !== undefined;
  const deliveriesBefore = deliveryCursor(sp.deliveries);
  const [participation, heatmap, reports, names, summaries, occurrences, deliveries] = await Promise.all([
    getStandupParticipation(user, { standupId: id, days: 30 }),
    getStandupHeatmap(user, { standupId: id, days: 21 }),
    listReports(user, {
      since: new Date(now.getTime() - 30 * 86_400_000),
      until: new Date(now.getTime() + 60_000),
      standupId: id,
      limit: 10,
      withAnswers: true,
      teamWide: "readers",
    }),
    teamPeopleNames(user),
    // Summaries follow v2 visibility (drafts and confidential standups of others are not listed).
    listStandupSummaries(user, id, { limit: 5 }, DASHBOARD_READS).catch((err: unknown) => {
      if (err instanceof NotFoundError) return [];
      throw err;
    }),
    listOccurrenceStatuses(user, { standupId: id, limit: 3 }),
    listStandupDeliveryPage(user, { standupId: id, before: deliveriesBefore }),
  ]);
  const paused = standup.state === "paused";

  return (
    <>
      <PageHeader
        title={standup.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge tone={standup.state === "active" ? "green" : "amber"}>
              {standup.state === "active" ? "Active" : paused ? "Paused" : "Draft"}
            </Badge>
            {standup.is_anonymous && <Badge>Anonymous</Badge>}
            {standup.is_confidential && <Badge>Confidential</Badge>}
            <span>
              {standup.days.join(", ")} at {formatTime(standup.time)} ({standup.timezone})
            </span>
            <span data-testid="next-run">Next run: {describeNextRun(standup, user.timezone)}</span>
          </span>
        }
        actions={
          manage ? (
            <>
              <LinkButton href={`/standups/${id}/edit`} variant="secondary">
                Edit
              </LinkButton>
              <form action={setStandupStateAction}>
                <input type="hidden" name="id" value={id} />
                <input type="hidden" name="state" value={standup.state === "active" ? "paused" : "active"} />
                <Button type="submit" variant="secondary">
                  {standup.state === "draft" ? "Activate" : paused ? (copied ? "Activate" : "Resume") : "Pause"}
                </Button>
              </form>
              <form action={duplicateStandupAction}>
                <input type="hidden" name="id" value={id} />
                <Button type="submit" variant="secondary">
                  Duplicate
                </Button>
              </form>
            </>
          ) : undefined
        }
      />
      <div className="space-y-6">
        {copied && standup.state !== "active" && (
          <Alert tone="info">
            <span data-testid="copy-notice">
              This copy is {standup.state === "draft" ? "a draft" : "paused"}: it asks nobody until you press <strong>Activate</strong>.
              Change its members, days or time first so that nobody is asked twice.
            </span>
          </Alert>
        )}
        {notice && <Alert tone="success">{notice}</Alert>}
        <Card title="Latest occurrences">
          <OccurrenceStates occurrences={occurrences} timezone={user.timezone} />
        </Card>

        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Questions">
            <ol className="list-decimal space-y-2 pl-5 text-sm">
              {standup.questions.map((q) => (
                <li key={q.id}>
                  {q.text}
                  {describeQuestionType(q) && <span className="block text-xs text-slate-600">{describeQuestionType(q)}</span>}
                </li>
              ))}
            </ol>
          </Card>
          <Card title="Members and channel">
            <p className="text-sm">
              Broadcast to <strong>{standup.broadcast_channel ? `#${standup.broadcast_channel.name}` : "no channel"}</strong>
            </p>
            <p className="mt-1 text-sm text-slate-600">
              {standup.sync_channel_members
                ? `Members follow #${(standup.sync_channel ?? standup.broadcast_channel)?.name ?? "the channel"}`
                : "Members picked by hand"}{" "}
              · {standup.members.length} {standup.members.length === 1 ? "member" : "members"}
            </p>
            <ul className="mt-2 flex flex-wrap gap-1.5 text-sm" aria-label="Members">
              {standup.members.map((m) => (
                <li key={m.user.chat_id} className="rounded bg-slate-100 px-2 py-0.5">
                  {m.user.realname}
                </li>
              ))}
            </ul>
          </Card>
        </div>

        {manage && standup.state !== "draft" && (
          <Card title="Ask now">
            <ActionForm action={askNowAction.bind(null, id)} submitLabel="Ask now" pendingLabel="Asking…" testId="ask-now">
              <p className="text-sm text-slate-700">
                {paused
                  ? "This standup is paused: resume it to ask its members."
                  : "Asks the members who have not answered today’s occurrence now, opening it if needed."}
              </p>
              {standup.members.length > 0 && (
                <details className="rounded-md border border-slate-200 p-3">
                  <summary className="cursor-pointer text-sm font-medium">Ask chosen members only</summary>
                  <fieldset className="mt-2">
                    <legend className="mb-2 text-sm text-slate-700">Members to ask (none checked: everyone)</legend>
                    <div className="grid gap-2 sm:grid-cols-2">
                      {standup.members.map((m) => (
                        <Checkbox
                          key={m.user.chat_id}
                          id={`ask-${m.user.chat_id}`}
                          name="users"
                          value={m.user.chat_id}
                          label={m.user.realname}
                        />
                      ))}
                    </div>
                  </fieldset>
                </details>
              )}
            </ActionForm>
          </Card>
        )}

        <Card title="Message delivery">
          {/* Collapsed, one page of the latest messages: the page must not list every message of the history (issues 41, 49). */}
          <details id="delivery" data-testid="delivery-details" open={deliveriesOpen || undefined}>
            <summary className="cursor-pointer text-sm font-medium text-brand-700">
              {deliveriesBefore === undefined ? "Show delivery of the latest messages" : "Delivery of older messages"}
            </summary>
            <div className="mt-3">
              <DeliveryStates
                occurrences={deliveries.occurrences}
                timezone={user.timezone}
                retryAction={manage ? retryStandupDeliveryAction.bind(null, id) : undefined}
              />
              {/* plain links: a full load of the other page (no client-side reconciliation of the rows) */}
              <div className="mt-3 flex gap-4 text-sm">
                {deliveriesBefore !== undefined && (
                  <a href={`/standups/${id}?deliveries=latest#delivery`} className="font-medium text-brand-700 underline">
                    Newest messages
                  </a>
                )}
                {deliveries.nextBefore !== null && (
                  <a
                    href={`/standups/${id}?deliveries=${deliveries.nextBefore}#delivery`}
                    className="font-medium text-brand-700 underline"
                    data-testid="delivery-older"
                  >
                    Show older messages
                  </a>
                )}
              </div>
            </div>
          </details>
        </Card>

        <Card title="Participation per occurrence (last 30 days)">
          {participation.length === 0 ? (
            <EmptyState title="No occurrences yet">Participation appears after the first run.</EmptyState>
          ) : (
            <ParticipationBarChart
              title={`Participation of ${standup.name} per occurrence`}
              points={participation.map((p) => ({
                date: p.date,
                label: formatShortDate(p.date),
                responded: p.responded,
                expected: p.expected,
                excused: p.excused,
                rate: p.rate,
              }))}
            />
          )}
        </Card>

        <SummariesCard summaries={summaries.slice(0, 5)} standupId={id} />

        <Card title="Who reported (last 3 weeks)">
          <HeatmapGrid heatmap={heatmap} />
        </Card>

        <Card title="Recent reports" moreLink={{ href: `/reports?standup=${id}`, label: "All reports" }}>
          {reports.length === 0 ? (
            <EmptyState title="No reports you can read in the last 30 days">
              Reports are readable by the standup’s members and its creator.
            </EmptyState>
          ) : (
            <div className="space-y-3">
              {reports.slice(0, 10).map((r) => (
                <ReportCard key={r.id} report={toReportCard(r, names)} timezone={user.timezone} />
              ))}
            </div>
          )}
        </Card>

        {manage && (
          <details className="rounded-lg border border-red-200 bg-white p-4">
            <summary className="cursor-pointer text-sm font-medium text-red-800">Delete this standup…</summary>
            <p className="mt-2 text-sm text-slate-700">The standup stops running and disappears from lists. Its reports are kept.</p>
            <form action={deleteStandupAction} className="mt-3">
              <input type="hidden" name="id" value={id} />
              <Button type="submit" variant="danger">
                Delete standup
              </Button>
            </form>
          </details>
        )}
      </div>
    </>
  );
}

/** `?deliveries=<message id>`: the id the delivery page starts below; anything else (`latest`, junk): the newest page. */
function deliveryCursor(raw: string | string[] | undefined): number | undefined {
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined || !/^[1-9]\d{0,9}$/.test(v)) return undefined;
  const n = Number(v);
  return n <= 2_147_483_647 ? n : undefined;
}
