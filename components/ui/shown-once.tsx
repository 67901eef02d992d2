"use client";

import { CopyButton } from "@/components/ui/copy-button";

/**
 * A secret shown once after it was created (API key, webhook signing secret), with a copy button
 * and the warning that it will not be shown again. Only its hash is kept (or it is not kept).
 */
export function ShownOnce({ value, what, copyLabel, testId }: { value: string; what: string; copyLabel: string; testId: string }) {
  return (
    <div className="space-y-2 rounded-md border border-green-300 bg-green-50 p-3">
      <p className="text-sm font-medium text-green-900">Copy {what} now: it will not be shown again.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid={testId} className="break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900">
          {value}
        </code>
        <CopyButton value={value} label={copyLabel} />
      </div>
    </div>
  );
}
