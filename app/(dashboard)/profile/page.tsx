import type { Metadata } from "next";
import { ActivityConnectionsCard } from "@/components/activity/activity-connections-card";
import { NewPasswordFields } from "@/components/auth/new-password-fields";
import { CalendarFeedsCard } from "@/components/calendars/calendar-feeds-card";
import { formatDate, formatDateTime } from "@/components/format";
import { ErasePersonForm } from "@/components/people/erase-person-form";
import { TimezoneSelect } from "@/components/people/timezone-select";
import { ABSENCE_KINDS, AbsenceLine } from "@/components/team/absence-line";
import { ActionForm } from "@/components/ui/action-form";
import { Card, PageHeader } from "@/components/ui/card";
import { InputField, SelectField } from "@/components/ui/form";
import { listTeamMembers } from "@/lib/domain/absences";
import { listMyActivityConnections } from "@/lib/domain/activity-connections";
import { listMyCalendarFeeds } from "@/lib/domain/calendar-feeds";
import { latestDataExport } from "@/lib/domain/data-exports";
import { getProfile } from "@/lib/domain/profile";
import { requireUser } from "../load";
import {
  addOwnAbsenceAction,
  changePasswordAction,
  erasePersonAction,
  removeOwnAbsenceAction,
  requestMyDataAction,
  updateProfileAction,
} from "./actions";
import { addActivityConnectionAction, removeActivityConnectionAction } from "./activity-actions";
import { addCalDavAccountAction, addCalendarFeedAction, removeCalendarFeedAction } from "./calendar-actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Profile" };

const CHANNEL_LABELS = { slack_dm: "Slack direct message", email: "E-mail", web: "Web only (this dashboard)" } as const;

/** How delivery falls back when the chosen channel is not available (lib/chat/delivery.ts `directRoute`). */
const CHANNEL_HINT =
  "When your choice is not available (Slack not connected or not knowing you, no e-mail server), Slack and e-mail stand in for each other; questions always wait for you under My check-ins. Web only sends nothing.";

/** The signed-in person's profile, password and own vacations / out-of-office. */
export default async function ProfilePage() {
  const user = await requireUser();
  const [profile, members, myData, calendarFeeds, activityConnections] = await Promise.all([
    getProfile(user),
    listTeamMembers(user),
    latestDataExport(user),
    listMyCalendarFeeds(user),
    listMyActivityConnections(user),
  ]);
  const absences = members.find((m) => m.id === user.userId)?.absences ?? [];
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <PageHeader title="Profile" description={`${profile.email} · ${profile.role} of ${user.teamName}`} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Your details">
          <ActionForm action={updateProfileAction} submitLabel="Save profile" testId="profile-form">
            <InputField id="p-name" label="Name" name="name" required maxLength={100} defaultValue={profile.realname} autoComplete="name" />
            <TimezoneSelect id="p-timezone" defaultValue={profile.timezone} />
            <InputField
              id="p-avatar"
              label="Avatar URL (optional)"
              name="avatarUrl"
              type="url"
              defaultValue={profile.avatarUrl ?? ""}
              placeholder="https://…"
            />
            <SelectField
              id="p-channel"
              name="notificationChannel"
              label="Send me questions and reminders by"
              hint={CHANNEL_HINT}
              options={Object.entries(CHANNEL_LABELS).map(([value, label]) => ({ value, label }))}
              defaultValue={profile.notificationChannel}
            />
          </ActionForm>
        </Card>
        <Card title={profile.hasPassword ? "Change password" : "Set a password"}>
          <ActionForm
            action={changePasswordAction}
            submitLabel={profile.hasPassword ? "Change password" : "Set password"}
            testId="password-form"
          >
            {profile.hasPassword && (
              <InputField
                id="pw-current"
                label="Current password"
                name="current"
                type="password"
                required
                autoComplete="current-password"
              />
            )}
            <NewPasswordFields
              label="New password"
              repeatLabel="Repeat the new password"
              id="pw-next"
              name="next"
              repeatId="pw-repeat"
              repeatName="nextRepeat"
            />
          </ActionForm>
        </Card>
        <Card title="Vacation and out-of-office" className="lg:col-span-2">
          <p className="mb-3 text-sm text-slate-600">You are not asked on these days and they do not count against your participation.</p>
          {absences.length > 0 && (
            <ul className="mb-4 space-y-2" aria-label="Your upcoming absences">
              {absences.map((a) => (
                <AbsenceLine
                  key={a.id}
                  absence={a}
                  className="flex flex-wrap items-center gap-2 text-sm"
                  testId="own-absence"
                  remove={{
                    action: removeOwnAbsenceAction,
                    label: `Remove absence from ${formatDate(a.startDate)} to ${formatDate(a.endDate)}`,
                  }}
                />
              ))}
            </ul>
          )}
          <ActionForm
            action={addOwnAbsenceAction}
            submitLabel="Add absence"
            className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
            testId="own-absence-form"
          >
            <SelectField id="oa-kind" name="kind" label="Kind" options={ABSENCE_KINDS} defaultValue="vacation" />
            <InputField id="oa-start" label="First day" name="startDate" type="date" required defaultValue={today} />
            <InputField id="oa-end" label="Last day" name="endDate" type="date" required defaultValue={today} />
            <InputField id="oa-note" label="Note (optional)" name="note" maxLength={200} />
          </ActionForm>
        </Card>
        <CalendarFeedsCard
          feeds={calendarFeeds}
          add={addCalendarFeedAction}
          addCalDav={addCalDavAccountAction}
          remove={removeCalendarFeedAction}
        />
        <ActivityConnectionsCard
          connections={activityConnections}
          add={addActivityConnectionAction}
          remove={removeActivityConnectionAction}
        />
        <Card title="My data">
          <p className="mb-3 text-sm text-slate-700">
            Download everything the service holds about you: profile, memberships, participation, reports with answers, votes, absences, API
            keys (names and dates only) and audit entries about you.
          </p>
          {myData?.status === "pending" && (
            <p className="mb-3 text-sm text-slate-700" data-testid="my-data-pending">
              Your archive is being prepared (asked {formatDateTime(myData.createdAt, profile.timezone)}). Reload this page in a moment.
            </p>
          )}
          {myData?.status === "ready" && (
            <div className="mb-3 flex flex-wrap gap-3 text-sm" data-testid="my-data-ready">
              <span className="text-slate-700">Ready: download until {formatDateTime(myData.expiresAt, profile.timezone)}.</span>
              <a
                className="font-medium text-brand-700 underline"
                href={`/exports/my-data?export_id=${myData.id}`}
                download
                data-testid="my-data-json"
              >
                Download (JSON)
              </a>
              <a
                className="font-medium text-brand-700 underline"
                href={`/exports/my-data?export_id=${myData.id}&format=csv`}
                download
                data-testid="my-data-csv"
              >
                My reports (CSV)
              </a>
            </div>
          )}
          <ActionForm
            action={requestMyDataAction}
            submitLabel={myData ? "Prepare a new archive" : "Prepare my archive"}
            testId="my-data-form"
          >
            <p className="text-sm text-slate-600">The archive is built in the background and offered for 24 hours, then deleted.</p>
          </ActionForm>
        </Card>
        <Card title="Erase my data">
          <ErasePersonForm action={erasePersonAction} userId={user.userId} self />
        </Card>
      </div>
    </>
  );
}
