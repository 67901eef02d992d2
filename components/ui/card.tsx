import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/**
 * A white panel with an optional heading and `actions` on its right; `moreLink` is such an action:
 * a link to the full list (e.g. "All reports"). With `empty` (an `EmptyState` title, e.g.
 * `rows.length === 0 && "No entries"`), it shows that empty state, with `emptyDetail` under it,
 * instead of `children`.
 */
export function Card({
  title,
  actions,
  children,
  className,
  headingLevel = 2,
  empty,
  emptyDetail,
  moreLink,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  headingLevel?: 2 | 3;
  empty?: string | false;
  emptyDetail?: ReactNode;
  moreLink?: { href: string; label: string };
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headerActions = moreLink ? (
    <Link href={moreLink.href} className="text-sm font-medium text-brand-700 underline">
      {moreLink.label}
    </Link>
  ) : (
    actions
  );
  return (
    <section className={cn("rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5", className)}>
      {(title || headerActions) && (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title && <Heading className="text-base font-semibold text-slate-900">{title}</Heading>}
          {headerActions}
        </div>
      )}
      {empty ? <EmptyState title={empty}>{emptyDetail}</EmptyState> : children}
    </section>
  );
}

/** Page title row with optional description and actions. */
export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** Shown when a list has nothing in it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
      <p className="font-medium text-slate-900">{title}</p>
      {children && <div className="mt-2 text-sm text-slate-600">{children}</div>}
    </div>
  );
}

/** A small coloured label. */
export function Badge({ children, tone = "slate" }: { children: ReactNode; tone?: "slate" | "green" | "amber" | "red" | "brand" }) {
  const tones = {
    slate: "bg-slate-100 text-slate-800",
    green: "bg-green-100 text-green-900",
    amber: "bg-amber-100 text-amber-900",
    red: "bg-red-100 text-red-900",
    brand: "bg-brand-100 text-brand-800",
  } as const;
  return <span className={cn("inline-flex items-center rounded px-2 py-0.5 text-xs font-medium", tones[tone])}>{children}</span>;
}

/** An inline alert. */
export function Alert({ children, tone = "error" }: { children: ReactNode; tone?: "error" | "success" | "info" }) {
  const tones = {
    error: "border-red-300 bg-red-50 text-red-900",
    success: "border-green-300 bg-green-50 text-green-900",
    info: "border-brand-100 bg-brand-50 text-brand-800",
  } as const;
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("rounded-md border px-3 py-2 text-sm", tones[tone])}>
      {children}
    </div>
  );
}

/**
 * An item of the person's own to-do list (a standup to answer, a poll to vote on): its name as a
 * heading (`h2`, or `h3` under a section heading), a `schedule` line, a `status` line of badges
 * under it, and `actions` (buttons) on the right.
 */
export function TaskCard({
  title,
  headingLevel = 2,
  schedule,
  status,
  actions,
  testId,
}: {
  title: ReactNode;
  headingLevel?: 2 | 3;
  schedule: ReactNode;
  status: ReactNode;
  actions: ReactNode;
  testId: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <Heading className="font-semibold">{title}</Heading>
          <p className="text-sm text-slate-600">{schedule}</p>
          <p className="mt-2">{status}</p>
        </div>
        {actions}
      </div>
    </li>
  );
}

/** An item of a card list: its name links to its page, badges on the right, details below. */
export function ListCard({
  href,
  title,
  badges,
  testId,
  children,
}: {
  href: string;
  title: ReactNode;
  badges: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <div className="flex items-start justify-between gap-2">
        <h2 className="font-semibold">
          <Link href={href} className="text-slate-900 hover:text-brand-700 hover:underline">
            {title}
          </Link>
        </h2>
        <div className="flex gap-1">{badges}</div>
      </div>
      {children}
    </li>
  );
}
