import { ActionForm, type ActionState } from "@/components/ui/action-form";
import { Badge, Card } from "@/components/ui/card";
import { InputField } from "@/components/ui/form";
import type { CalendarFeedView } from "@/lib/domain/calendar-feeds";

type Action = (prev: ActionState, form: FormData) => Promise<ActionState>;

/** When a feed was last read and how it went, in words. */
export function feedStatus(feed: CalendarFeedView): string {
  if (!feed.lastFetchedAt) return "not read yet";
  const when = feed.lastFetchedAt.toISOString().slice(0, 16).replace("T", " ");
  return feed.lastError ? `last try ${when} UTC failed: ${feed.lastError}` : `read ${when} UTC`;
}

/**
 * The Profile's "Calendars" card (issue 48): the person's ICS feeds and CalDAV accounts, masked (a
 * secret address or password is never shown again: host + "…", and the CalDAV user name), with
 * their status and a "Remove" button, and forms to add an ICS address or a CalDAV account. Absence
 * events of these calendars excuse the person like manual absences ("excused (calendar)").
 */
export function CalendarFeedsCard({
  feeds,
  add,
  addCalDav,
  remove,
}: {
  feeds: CalendarFeedView[];
  add: Action;
  addCalDav: Action;
  remove: Action;
}) {
  return (
    <Card title="Calendars" className="lg:col-span-2">
      <p className="mb-3 text-sm text-slate-600">
        Add your calendar’s secret ICS address (Google Calendar “Secret address in iCal format”, an Outlook published calendar, Nextcloud or
        Fastmail). Every 30 minutes, all-day or long events whose title says vacation, OOO, out of office (your team chooses the words)
        become out-of-office days: you are not asked and not counted then. Or add a CalDAV account (Nextcloud, Fastmail, iCloud with an app
        password). Addresses and passwords are stored encrypted and never shown again.
      </p>
      {feeds.length > 0 && (
        <ul className="mb-4 space-y-2 text-sm" aria-label="Your calendars">
          {feeds.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center gap-2" data-testid="calendar-feed">
              {f.protocol === "caldav" && <Badge>CalDAV</Badge>}
              <code className="text-slate-700">
                {f.protocol === "caldav" && f.username ? `${f.username} @ ` : ""}
                {f.maskedUrl}
              </code>
              <Badge tone={f.lastError ? "red" : "slate"}>{feedStatus(f)}</Badge>
              <span className="text-slate-600">{f.entries} absence(s)</span>
              <ActionForm
                action={remove}
                submitLabel="Remove"
                pendingLabel="Removing…"
                variant="ghost"
                confirm="Remove this calendar and the absences it provided?"
                submitAriaLabel={`Remove calendar ${f.maskedUrl}`}
              >
                <input type="hidden" name="feedId" value={f.id} />
              </ActionForm>
            </li>
          ))}
        </ul>
      )}
      <ActionForm action={add} submitLabel="Add calendar" pendingLabel="Adding…" testId="calendar-feed-form">
        <InputField
          id="cal-url"
          label="ICS address"
          name="url"
          type="url"
          required
          maxLength={2000}
          placeholder="https://…/basic.ics"
          autoComplete="off"
        />
      </ActionForm>
      <ActionForm
        action={addCalDav}
        submitLabel="Add CalDAV account"
        pendingLabel="Adding…"
        testId="caldav-account-form"
        className="mt-4 space-y-3"
      >
        <div className="grid gap-3 sm:grid-cols-3">
          <InputField
            id="caldav-url"
            label="CalDAV server address"
            name="serverUrl"
            type="url"
            required
            maxLength={2000}
            placeholder="https://cloud.example.com/remote.php/dav"
            autoComplete="off"
          />
          <InputField id="caldav-user" label="User name" name="username" required maxLength={200} autoComplete="off" />
          <InputField
            id="caldav-password"
            label="Password or app password"
            name="password"
            type="password"
            required
            maxLength={500}
            autoComplete="new-password"
          />
        </div>
      </ActionForm>
    </Card>
  );
}
