import { formatDateTime } from "@/components/format";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { InputField, TextareaField } from "@/components/ui/form";
import type { PollManagement } from "@/lib/domain/poll-lifecycle";
import type { PollOverview } from "@/lib/domain/poll-views";
import { closePollNowAction, deletePollAction, editPollAction, setPollPausedAction } from "../lifecycle-actions";

/** "YYYY-MM-DDTHH:MM" of an instant in a timezone (a datetime-local input's value). */
function localInputValue(instant: Date | null, timeZone: string): string {
  if (!instant) return "";
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
}

/**
 * The management card of a poll for its creator or a team admin (issue 41 item 10): its schedule
 * and next run (recurring), Close now (while open), Pause / Resume, Delete (confirmed), and Edit
 * (name; question wording while nobody voted; closing time of the open broadcast).
 */
export function ManagePoll({ poll, manage, timezone }: { poll: PollOverview; manage: PollManagement; timezone: string }) {
  const open = Boolean(poll.instance && !poll.instance.closed);
  const paused = poll.state === "paused";
  return (
    <Card className="mb-6" title="Manage this poll">
      {manage.schedule && (
        <p className="mb-3 text-sm text-slate-700" data-testid="poll-schedule">
          Repeats every {manage.schedule.days.join(", ")} at {manage.schedule.time} ({manage.schedule.timezone}) ·{" "}
          {manage.nextRunAt ? `next run ${formatDateTime(manage.nextRunAt, timezone)}` : "no next run while paused"}
        </p>
      )}
      <div className="flex flex-wrap items-start gap-3">
        {open && (
          <ActionForm
            action={closePollNowAction.bind(null, poll.id)}
            submitLabel="Close now"
            pendingLabel="Closing…"
            variant="secondary"
            testId="close-poll"
            confirm="Close this poll now? Nobody can vote after that, and the results are posted to its channel."
          />
        )}
        <ActionForm
          action={setPollPausedAction.bind(null, poll.id, !paused)}
          submitLabel={paused ? "Resume" : "Pause"}
          pendingLabel={paused ? "Resuming…" : "Pausing…"}
          variant="secondary"
          testId="pause-poll"
        />
        <ActionForm
          action={deletePollAction.bind(null, poll.id)}
          submitLabel="Delete"
          pendingLabel="Deleting…"
          variant="danger"
          testId="delete-poll"
          confirm={`Delete the poll "${poll.name}"? It disappears for everybody, with its results.`}
        />
      </div>
      <details className="mt-4">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">Edit</summary>
        <ActionForm action={editPollAction.bind(null, poll.id)} submitLabel="Save poll" className="mt-3 space-y-3" testId="edit-poll">
          <InputField id="edit-name" name="name" label="Name" defaultValue={poll.name} required />
          {manage.questions.map((q, i) =>
            manage.hasVotes ? (
              <p key={q.id} className="text-sm text-slate-700">
                Question {manage.questions.length > 1 ? i + 1 : ""}: {q.text}{" "}
                <span className="text-slate-600">(people have voted: the wording can no longer change)</span>
              </p>
            ) : (
              <TextareaField
                key={q.id}
                id={`edit-q-${q.id}`}
                name={`q-${q.id}`}
                label={manage.questions.length > 1 ? `Question ${i + 1}` : "Question"}
                defaultValue={q.text}
                rows={2}
              />
            ),
          )}
          {open && (
            <>
              <InputField
                id="edit-closes-at"
                name="closes_at"
                type="datetime-local"
                label={`Closes at (${timezone})`}
                hint="Leave empty to keep it open until you close it."
                defaultValue={localInputValue(poll.instance?.closesAt ?? null, timezone)}
              />
              <input type="hidden" name="timezone" value={timezone} />
            </>
          )}
        </ActionForm>
      </details>
    </Card>
  );
}
