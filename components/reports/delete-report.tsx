"use client";

import { type ReactNode, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

/** A server action on one report (delete or undo): an error written for people, or nothing. */
export type ReportAction = (reportId: number) => Promise<{ error?: string }>;

/** The delete and undo server actions, given by the page (app/(dashboard)/reports/actions.ts). */
export type ReportDeleteActions = { remove: ReportAction; restore: ReportAction };

/**
 * Wraps one of the viewer's own reports with "Delete": it asks for confirmation, deletes, then
 * shows "Report deleted" with "Undo" in place of the report (the server allows undo for 10 minutes).
 * `actions` are the page's server actions (components never import app/).
 */
export function DeletableReport({
  reportId,
  actions: { remove, restore },
  children,
}: {
  reportId: number;
  actions: ReportDeleteActions;
  children: (actions: ReactNode) => ReactNode;
}) {
  const [state, setState] = useState<"idle" | "confirm" | "deleted">("idle");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const run = (action: ReportAction, next: "idle" | "deleted") =>
    startTransition(async () => {
      const result = await action(reportId);
      setError(result.error ?? null);
      if (!result.error) setState(next);
    });

  if (state === "deleted") {
    return (
      <div
        className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm"
        role="status"
      >
        <span>Report deleted.</span>
        <Button variant="secondary" onClick={() => run(restore, "idle")} disabled={pending}>
          {pending ? "Restoring…" : "Undo"}
        </Button>
        {error && <Alert>{error}</Alert>}
      </div>
    );
  }
  const actions = (
    <div className="mt-3 space-y-2">
      {state === "confirm" ? (
        <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label="Confirm delete">
          <span>Delete this report? It is also removed from the channel.</span>
          <Button variant="danger" onClick={() => run(remove, "deleted")} disabled={pending}>
            {pending ? "Deleting…" : "Delete report"}
          </Button>
          <Button variant="secondary" onClick={() => setState("idle")} disabled={pending}>
            Cancel
          </Button>
        </div>
      ) : (
        <Button variant="ghost" onClick={() => setState("confirm")}>
          Delete
        </Button>
      )}
      {error && <Alert>{error}</Alert>}
    </div>
  );
  return <>{children(actions)}</>;
}
