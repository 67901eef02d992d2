import Link from "next/link";
import { cn } from "@/components/ui/cn";

/** A labelled group of filter links (filters live in the URL); the active one carries aria-current. */
export function FilterLinks({ label, options }: { label: string; options: Array<{ href: string; label: string; active: boolean }> }) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-1">
      <span className="mr-1 text-slate-600">{label}:</span>
      {options.map((o) => (
        <Link
          key={o.href}
          href={o.href}
          aria-current={o.active ? "page" : undefined}
          className={cn(
            "rounded-md px-2.5 py-1",
            o.active ? "bg-brand-100 font-medium text-brand-800" : "text-slate-700 hover:bg-slate-100",
          )}
        >
          {o.label}
        </Link>
      ))}
    </nav>
  );
}
