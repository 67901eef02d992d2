import type { Metadata } from "next";
import { BlockerList } from "@/components/blockers/blocker-list";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { FilterLinks } from "@/components/ui/filter-links";
import { listBlockers } from "@/lib/domain/blockers";
import { requireUser } from "../load";
import { setBlockerResolvedAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Blockers" };

const STATUSES = [
  { value: "open", label: "Open" },
  { value: "resolved", label: "Resolved" },
  { value: "all", label: "All" },
] as const;
const RANGES = [7, 30, 90] as const;

type Search = Promise<{ status?: string; days?: string }>;

/**
 * Blockers: answers to blocker questions that are not "no"/"none", newest first, with who, since
 * when and a resolved marker. Filters (`status`, `days`) live in the URL.
 */
export default async function BlockersPage({ searchParams }: { searchParams: Search }) {
  const user = await requireUser();
  const sp = await searchParams;
  const status = STATUSES.find((s) => s.value === sp.status)?.value ?? "open";
  const days = RANGES.find((d) => String(d) === sp.days) ?? 30;
  const items = await listBlockers(user, { status, since: new Date(Date.now() - days * 86_400_000) });
  const href = (patch: { status?: string; days?: number }) =>
    `/blockers?${new URLSearchParams({ status: patch.status ?? status, days: String(patch.days ?? days) })}`;
  return (
    <>
      <PageHeader
        title="Blockers"
        description="Answers to blocker questions other than “no” or “none”. A blocker stays open until the member says “no blocker” again or someone marks it resolved."
      />
      <div className="mb-4 flex flex-wrap gap-4 text-sm">
        <FilterLinks
          label="Show"
          options={STATUSES.map((s) => ({ href: href({ status: s.value }), label: s.label, active: s.value === status }))}
        />
        <FilterLinks label="Period" options={RANGES.map((d) => ({ href: href({ days: d }), label: `${d} days`, active: d === days }))} />
      </div>
      <Card
        title={`${items.length} ${status === "all" ? "" : `${status} `}blocker${items.length === 1 ? "" : "s"} in the last ${days} days`}
      >
        {items.length === 0 ? (
          <EmptyState title={status === "open" ? "Nobody is blocked" : "No blockers in this period"}>
            Blockers come from questions marked “Blocker question” in a standup’s settings.
          </EmptyState>
        ) : (
          <BlockerList items={items} resolveAction={setBlockerResolvedAction} />
        )}
      </Card>
    </>
  );
}
