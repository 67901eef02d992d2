import { VotesChart } from "@/components/charts/votes-chart";
import { Badge } from "@/components/ui/card";
import type { QuestionResult } from "@/lib/domain/votes";

const STATUS_TONE = { pending: "amber", processing: "amber", completed: "green", failed: "red" } as const;

/** "Offline engine", "Model gpt-4o-mini", "Demo data" from a categorization's engine label. */
export function describeEngine(engine: string | null | undefined): string | null {
  if (!engine) return null;
  if (engine === "offline") return "offline engine (wink-nlp + ml-hclust)";
  if (engine === "seed") return "demo data";
  return engine.startsWith("model:") ? `language model ${engine.slice("model:".length)}` : engine;
}

/**
 * Results of one open-ended poll question in one broadcast: categorization status and how it was
 * made, answers per category as a bar chart, then each category with its answers (an answer with
 * several categories appears under each), and the answers with their author (unless anonymous).
 */
export function OpenEndedResult({ q, nameOf }: { q: QuestionResult; nameOf: (chatId: string) => string }) {
  const status = q.categorizationStatus;
  const responses = q.responses ?? [];
  const categories = q.categories ?? [];
  const how = describeEngine(q.categorizationEngine);
  return (
    <div className="space-y-3" data-testid="open-ended-result">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        Categorization: <Badge tone={status ? STATUS_TONE[status] : "slate"}>{status ?? "no answers"}</Badge>
        {status === "completed" && how && <span className="text-slate-600">by the {how}</span>}
        {status === "pending" && <span className="text-slate-600">answers are grouped about a minute after the last one</span>}
      </p>
      {q.categorizationError && (
        <p className="text-xs text-slate-600">
          {status === "failed" ? "Failed: " : "Note: "}
          {q.categorizationError}
          {status === "completed" && " (fell back to the offline engine)"}
        </p>
      )}
      {status === "completed" && categories.length > 0 && (
        <>
          <VotesChart
            unit="Answers"
            title={`Answers per category: ${q.text}`}
            choices={categories.map((c) => ({ text: c.name, votes: c.count, voters: null }))}
          />
          <ul className="space-y-1 text-sm" aria-label={`Categories of ${q.text}`}>
            {categories.map((c) => (
              <li key={c.name}>
                <details>
                  <summary className="cursor-pointer">
                    <span className="font-medium">{c.name}</span> <span className="text-slate-600">({c.count})</span>
                  </summary>
                  <ul className="ml-5 list-disc text-slate-700">
                    {responses
                      .filter((r) => r.categories.includes(c.name))
                      .map((r, i) => (
                        <li key={i}>{r.text}</li>
                      ))}
                  </ul>
                </details>
              </li>
            ))}
          </ul>
        </>
      )}
      {responses.length === 0 ? (
        <p className="text-sm text-slate-600">No responses.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" aria-label={`Answers to ${q.text}`}>
          {responses.map((r, i) => (
            <li key={i} className="py-2">
              <p>{r.text}</p>
              <p className="mt-1 flex flex-wrap gap-1 text-xs text-slate-600">
                {r.voter ? nameOf(r.voter.chatId) : "Anonymous"}
                {r.categories.map((c) => (
                  <Badge key={c} tone="brand">
                    {c}
                  </Badge>
                ))}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
