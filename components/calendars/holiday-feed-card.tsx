import { feedStatus } from "@/components/calendars/calendar-feeds-card";
import { ActionForm, type ActionState } from "@/components/ui/action-form";
import { Badge, Card } from "@/components/ui/card";
import { Checkbox, InputField, TextareaField } from "@/components/ui/form";
import type { CalendarFeedView } from "@/lib/domain/calendar-feeds";

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;

/**
 * Team → Holidays, "Calendars" (issue 48): the team's public-holidays ICS feed (masked, with its
 * status; admins subscribe, replace or remove it) and the words that mark an absence in people's
 * calendars (admins edit them; members read them), and whether busy (TRANSP:OPAQUE) all-day events
 * excuse people too (admins choose; default off).
 */
export function HolidayFeedCard({
  feed,
  words,
  busyAllDay,
  isAdmin,
  actions,
}: {
  feed: CalendarFeedView | null;
  words: string[];
  busyAllDay: boolean;
  isAdmin: boolean;
  actions: { set: Action; remove: Action; setWords: Action; setBusyAllDay: Action };
}) {
  return (
    <Card title="Calendars">
      <div className="space-y-4 text-sm">
        <p className="text-slate-600">
          A public-holidays calendar (an ICS address for your country or region) adds its dates here every 30 minutes; dates typed in above
          stay as they are.
        </p>
        {feed ? (
          <div className="flex flex-wrap items-center gap-2" data-testid="holiday-feed">
            <code className="text-slate-700">{feed.maskedUrl}</code>
            <Badge tone={feed.lastError ? "red" : "slate"}>{feedStatus(feed)}</Badge>
            <span className="text-slate-600">{feed.entries} date(s)</span>
            {isAdmin && (
              <ActionForm
                action={actions.remove}
                submitLabel="Remove"
                pendingLabel="Removing…"
                variant="ghost"
                confirm="Remove the holiday calendar and the dates it provided?"
                submitAriaLabel="Remove the holiday calendar"
              />
            )}
          </div>
        ) : (
          <p className="text-slate-600">No holiday calendar.</p>
        )}
        {isAdmin && (
          <ActionForm
            action={actions.set}
            submitLabel={feed ? "Replace holiday calendar" : "Subscribe"}
            pendingLabel="Saving…"
            testId="holiday-feed-form"
          >
            <InputField
              id="hf-url"
              label="Holidays ICS address"
              name="url"
              type="url"
              required
              maxLength={2000}
              placeholder="https://…/holidays.ics"
            />
          </ActionForm>
        )}
        {isAdmin ? (
          <ActionForm action={actions.setWords} submitLabel="Save words" pendingLabel="Saving…" testId="absence-words-form">
            <TextareaField
              id="hf-words"
              label="Words that mark an absence in people’s calendars"
              hint="Comma-separated, matched as whole words in an all-day or long event’s title, any case. Empty restores the defaults."
              name="words"
              rows={2}
              defaultValue={words.join(", ")}
            />
          </ActionForm>
        ) : (
          <p className="text-slate-600">Words that mark an absence in people’s calendars: {words.join(", ")}.</p>
        )}
        {isAdmin ? (
          <ActionForm action={actions.setBusyAllDay} submitLabel="Save" pendingLabel="Saving…" testId="busy-all-day-form">
            <Checkbox
              id="hf-busy"
              name="busyAllDay"
              label="Busy all-day events (shown as busy, TRANSP:OPAQUE) also excuse people, whatever their title"
              defaultChecked={busyAllDay}
            />
          </ActionForm>
        ) : (
          busyAllDay && <p className="text-slate-600">Busy all-day events also excuse people.</p>
        )}
      </div>
    </Card>
  );
}
