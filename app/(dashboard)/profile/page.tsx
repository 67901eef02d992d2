import type { Metadata } from "next";
import { NewPasswordFields } from "@/components/auth/new-password-fields";
import { formatDate } from "@/components/format";
import { TimezoneSelect } from "@/components/people/timezone-select";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/form";
import { listTeamMembers } from "@/lib/domain/absences";
import { getProfile } from "@/lib/domain/profile";
import { requireUser } from "../load";
import { addOwnAbsenceAction, changePasswordAction, removeOwnAbsenceAction, updateProfileAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Profile" };

const CHANNEL_LABELS = { slack_dm: "Slack direct message", email: "E-mail", web: "Web only (this dashboard)" } as const;

/** The signed-in person's profile, password and own vacations / out-of-office. */
export default async function ProfilePage() {
  const user = await requireUser();
  const [profile, members] = await Promise.all([getProfile(user), listTeamMembers(user)]);
  const absences = members.find((m) => m.id === user.userId)?.absences ?? [];
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <PageHeader title="Profile" description={`${profile.email} · ${profile.role} of ${user.teamName}`} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Your details">
          <ActionForm action={updateProfileAction} submitLabel="Save profile" testId="profile-form">
            <Field id="p-name" label="Name">
              <Input id="p-name" name="name" required maxLength={100} defaultValue={profile.realname} autoComplete="name" />
            </Field>
            <TimezoneSelect id="p-timezone" defaultValue={profile.timezone} />
            <Field id="p-avatar" label="Avatar URL (optional)">
              <Input id="p-avatar" name="avatarUrl" type="url" defaultValue={profile.avatarUrl ?? ""} placeholder="https://…" />
            </Field>
            <Field id="p-channel" label="Send me questions and reminders by">
              <Select id="p-channel" name="notificationChannel" defaultValue={profile.notificationChannel}>
                {Object.entries(CHANNEL_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
          </ActionForm>
        </Card>
        <Card title={profile.hasPassword ? "Change password" : "Set a password"}>
          <ActionForm
            action={changePasswordAction}
            submitLabel={profile.hasPassword ? "Change password" : "Set password"}
            testId="password-form"
          >
            {profile.hasPassword && (
              <Field id="pw-current" label="Current password">
                <Input id="pw-current" name="current" type="password" required autoComplete="current-password" />
              </Field>
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
                <li key={a.id} className="flex flex-wrap items-center gap-2 text-sm" data-testid="own-absence">
                  <Badge tone="amber">{a.kind === "vacation" ? "Vacation" : "Out of office"}</Badge>
                  <span>
                    {formatDate(a.startDate)} – {formatDate(a.endDate)}
                    {a.note && <span className="text-slate-600"> · {a.note}</span>}
                  </span>
                  <form action={removeOwnAbsenceAction}>
                    <input type="hidden" name="absenceId" value={a.id} />
                    <Button
                      type="submit"
                      variant="ghost"
                      className="min-h-8 px-2 py-1"
                      aria-label={`Remove absence from ${formatDate(a.startDate)} to ${formatDate(a.endDate)}`}
                    >
                      Remove
                    </Button>
                  </form>
                </li>
              ))}
            </ul>
          )}
          <ActionForm
            action={addOwnAbsenceAction}
            submitLabel="Add absence"
            className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
            testId="own-absence-form"
          >
            <Field id="oa-kind" label="Kind">
              <Select id="oa-kind" name="kind" defaultValue="vacation">
                <option value="vacation">Vacation</option>
                <option value="out_of_office">Out of office</option>
              </Select>
            </Field>
            <Field id="oa-start" label="First day">
              <Input id="oa-start" name="startDate" type="date" required defaultValue={today} />
            </Field>
            <Field id="oa-end" label="Last day">
              <Input id="oa-end" name="endDate" type="date" required defaultValue={today} />
            </Field>
            <Field id="oa-note" label="Note (optional)">
              <Input id="oa-note" name="note" maxLength={200} />
            </Field>
          </ActionForm>
        </Card>
      </div>
    </>
  );
}
