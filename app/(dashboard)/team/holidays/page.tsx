import type { Metadata } from "next";
import { HolidayFeedCard } from "@/components/calendars/holiday-feed-card";
import { TeamPageHeader } from "@/components/team/team-page-header";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { InputField } from "@/components/ui/form";
import { Td } from "@/components/ui/table";
import { TableCard } from "@/components/ui/table-card";
import { formatOccurrenceDate } from "@/lib/domain/asking";
import { getAbsenceWords, getBusyAllDay, getHolidayFeed } from "@/lib/domain/calendar-feeds";
import { listHolidays } from "@/lib/domain/holidays";
import { localDateOf } from "@/lib/domain/schedule";
import { requireUser } from "../../load";
import { removeHolidayFeedAction, setAbsenceWordsAction, setBusyAllDayAction, setHolidayFeedAction } from "../../profile/calendar-actions";
import { addHolidayAction, removeHolidayAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Team holidays" };

/** Team holidays: upcoming dates on which no standup runs; admins add and remove them, members read. */
export default async function HolidaysPage() {
  const user = await requireUser();
  const today = localDateOf(new Date(), user.timezone);
  const [holidays, feed, words, busyAllDay] = await Promise.all([
    listHolidays(user, { from: today }),
    getHolidayFeed(user),
    getAbsenceWords(user),
    getBusyAllDay(user),
  ]);
  return (
    <>
      <TeamPageHeader
        title="Team holidays"
        description="No standup of the team runs on these dates: nobody is asked, reminded or counted as missed."
      />
      <div className="space-y-6">
        {user.isAdmin && (
          <Card title="Add a holiday">
            <ActionForm action={addHolidayAction} submitLabel="Add holiday" pendingLabel="Adding…" testId="add-holiday">
              <div className="grid gap-3 sm:grid-cols-2">
                <InputField id="h-date" label="Date" name="date" type="date" required min={today} />
                <InputField id="h-name" label="Name" name="name" required maxLength={100} placeholder="e.g. New Year’s Day" />
              </div>
            </ActionForm>
          </Card>
        )}
        <TableCard
          title="Upcoming holidays"
          empty="No upcoming holidays"
          emptyDetail={user.isAdmin ? "Add one above." : "Team admins add the dates on which standups do not run."}
          caption="Upcoming team holidays"
          columns={["Date", "Name", user.isAdmin && "Actions"]}
          className="text-sm"
          rows={holidays}
          row={(h) => (
            <tr key={h.id} data-testid="holiday-row">
              <Td>
                <time dateTime={h.date}>{formatOccurrenceDate(h.date)}</time>
                <span className="block text-xs text-slate-600">{h.date}</span>
              </Td>
              <Td last={!user.isAdmin}>
                {h.name}
                {h.fromFeed && <span className="text-xs text-slate-600"> · from the holiday calendar</span>}
              </Td>
              {user.isAdmin && (
                <Td last>
                  <ActionForm
                    action={removeHolidayAction}
                    submitLabel="Remove"
                    pendingLabel="Removing…"
                    variant="ghost"
                    confirm={`Remove the holiday “${h.name}” on ${h.date}? Standups run that day again.`}
                    submitAriaLabel={`Remove holiday ${h.name} on ${h.date}`}
                    className="space-y-1"
                  >
                    <input type="hidden" name="holidayId" value={h.id} />
                  </ActionForm>
                </Td>
              )}
            </tr>
          )}
        />
        <HolidayFeedCard
          feed={feed}
          words={words}
          busyAllDay={busyAllDay}
          isAdmin={user.isAdmin}
          actions={{
            set: setHolidayFeedAction,
            remove: removeHolidayFeedAction,
            setWords: setAbsenceWordsAction,
            setBusyAllDay: setBusyAllDayAction,
          }}
        />
      </div>
    </>
  );
}
