import { formatDate } from "@/components/format";
import { describeEngine } from "@/components/polls/open-ended-result";
import { Badge, Card, EmptyState } from "@/components/ui/card";
import type { OccurrenceSummaryView } from "@/lib/domain/summaries";

/**
 * The latest occurrence summaries of a standup: participation, blockers (with who, unless
 * anonymous), recurring themes, mood counts, the model's overview when there is one, and how each
 * summary was made.
 */
export function SummariesCard({ summaries, standupId }: { summaries: OccurrenceSummaryView[]; standupId: number }) {
  return (
    <Card title="Summaries of recent occurrences">
      {summaries.length === 0 ? (
        <EmptyState title="No summaries yet">
          A summary of blockers, themes and mood is made when an occurrence with reports closes.
        </EmptyState>
      ) : (
        <ol className="space-y-4" data-testid="summaries">
          {summaries.map((s) => (
            <li key={s.id} className="border-b border-slate-100 pb-3 text-sm last:border-0">
              <h3 className="flex flex-wrap items-center gap-2 font-medium">
                {formatDate(s.date)}
                <span className="font-normal text-slate-600">
                  {s.sections.participation.responded} of {s.sections.participation.expected} answered
                </span>
                <Badge tone={s.sections.blockers.length ? "amber" : "green"}>
                  {s.sections.blockers.length
                    ? `${s.sections.blockers.length} blocker${s.sections.blockers.length > 1 ? "s" : ""}`
                    : "No blockers"}
                </Badge>
              </h3>
              {s.sections.overview && <p className="mt-1">{s.sections.overview}</p>}
              {s.sections.blockers.length > 0 && (
                <ul className="mt-1 list-disc pl-5" aria-label={`Blockers on ${s.date}`}>
                  {s.sections.blockers.map((b, i) => (
                    <li key={i}>
                      {b.name && <strong>{b.name}: </strong>}
                      {b.text}
                    </li>
                  ))}
                </ul>
              )}
              {s.sections.themes.length > 0 && (
                <p className="mt-1 text-slate-700">Themes: {s.sections.themes.map((t) => `${t.name} (${t.count})`).join(", ")}</p>
              )}
              {s.sections.mood.map((m) => (
                <p key={m.question} className="mt-1 text-slate-700">
                  {m.question} {m.choices.map((c) => `${c.text} ${c.count}`).join(", ")}
                </p>
              ))}
              <p className="mt-1 text-xs text-slate-600">Made by the {describeEngine(s.engine)}.</p>
            </li>
          ))}
        </ol>
      )}
      <p className="mt-2 text-xs text-slate-600">
        Also in the API: <code>GET /v2/standups/{standupId}/summaries</code>
      </p>
    </Card>
  );
}
