import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { describeQuestionType } from "@/lib/domain/question-types";
import type { StandupTemplate } from "@/lib/domain/standup-templates";

/**
 * The template gallery of the "New standup" page (issue 41 item 12): one link per template
 * (`?template=<id>`) that reloads the page with the form pre-filled; "Blank" keeps the default
 * questions. The chosen one is marked `aria-current`.
 */
export function TemplateGallery({ templates, selected }: { templates: readonly StandupTemplate[]; selected: string | null }) {
  const item = (href: string, current: boolean, title: string, description: string, types: string[]) => (
    <li key={href}>
      <Link
        href={href}
        aria-current={current ? "true" : undefined}
        className={cn(
          "block h-full rounded-md border p-3 text-sm hover:border-brand-700 focus-visible:outline-2",
          current ? "border-brand-700 bg-brand-50" : "border-slate-200 bg-white",
        )}
      >
        <span className="block font-semibold text-slate-900">{title}</span>
        <span className="block text-slate-700">{description}</span>
        {types.length > 0 && <span className="mt-1 block text-xs text-slate-600">{types.join(" · ")}</span>}
      </Link>
    </li>
  );
  return (
    <nav aria-label="Templates" className="mb-6">
      <h2 className="mb-2 text-sm font-semibold text-slate-900">Start from a template</h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {item("/standups/new", selected === null, "Blank", "The three default standup questions.", [])}
        {templates.map((t) =>
          item(`/standups/new?template=${t.id}`, selected === t.id, t.name, t.description, [
            `${t.questions.length} questions`,
            ...new Set(
              t.questions
                .map((q) =>
                  describeQuestionType({
                    answer_type: q.answerType ?? "text",
                    choices: q.choices ?? [],
                    optional: false,
                    scale_min: q.scale?.min ?? null,
                    scale_max: q.scale?.max ?? null,
                    scale_labels: [],
                  }).replace(/:.*$/, ""),
                )
                .filter(Boolean),
            ),
          ]),
        )}
      </ul>
    </nav>
  );
}
