import Link from "next/link";
import { formatDate, formatShortDate } from "@/components/format";
import { Badge } from "@/components/ui/card";
import type { BlockerItem } from "@/lib/domain/blockers";

/** "blocked for 3 days" / "since today" label of a blocker run. */
export function blockedForLabel(item: Pick<BlockerItem, "blockedDays" | "blockedSince">): string | null {
  if (item.blockedDays === null || !item.blockedSince) return null;
  if (item.blockedDays <= 1) return "reported once";
  return `blocked for ${item.blockedDays} days (since ${formatShortDate(item.blockedSince)})`;
}

/**
 * A list of blockers: who, which standup and day, the answer, how long, and (when `resolveAction`
 * is given and the viewer may) a button that sets or clears the resolved marker.
 */
export function BlockerList({
  items,
  resolveAction,
  compact = false,
}: {
  items: BlockerItem[];
  resolveAction?: (form: FormData) => Promise<void>;
  compact?: boolean;
}) {
  return (
    <ul className="space-y-3" data-testid="blocker-list">
      {items.map((b) => {
        const run = blockedForLabel(b);
        return (
          <li key={b.answerId} className="rounded-md border border-slate-200 p-3" data-testid="blocker-item">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="text-sm font-medium text-slate-900">
                {b.author ? (
                  <Link href={`/members/${b.author.chatId}`} className="text-brand-700 underline">
                    {b.author.realname}
                  </Link>
                ) : (
                  <span>Anonymous</span>
                )}
                <span className="text-slate-600">
                  {" "}
                  ·{" "}
                  <Link href={`/standups/${b.standupId}`} className="underline">
                    {b.standupName}
                  </Link>{" "}
                  · {formatDate(b.date)}
                </span>
              </p>
              <div className="flex flex-wrap gap-1">
                {run && b.blockedDays && b.blockedDays > 1 ? <Badge tone="red">{run}</Badge> : null}
                {b.resolvedAt ? <Badge tone="green">Resolved{b.resolvedBy ? ` by ${b.resolvedBy}` : ""}</Badge> : null}
                {!b.resolvedAt && !b.latest ? <Badge>Later answer says no blocker</Badge> : null}
              </div>
            </div>
            <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-800">{b.text}</p>
            {!compact && resolveAction && b.canResolve && (
              <form action={resolveAction} className="mt-2">
                <input type="hidden" name="answerId" value={b.answerId} />
                <input type="hidden" name="resolved" value={b.resolvedAt ? "false" : "true"} />
                <button type="submit" className="text-sm font-medium text-brand-700 underline">
                  {b.resolvedAt ? "Mark as not resolved" : "Mark as resolved"}
                </button>
              </form>
            )}
          </li>
        );
      })}
    </ul>
  );
}
