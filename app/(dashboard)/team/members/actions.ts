"use server";

import { bulkLineMessage } from "@/components/people-messages";
import type { ActionState } from "@/components/ui/action-form";
import { parseRole } from "@/lib/domain/access";
import { invitePeopleFromList } from "@/lib/domain/bulk-invite";
import { issueResetLink } from "@/lib/domain/passwords";
import { changeRole, deactivatePerson, invitePerson, reactivatePerson } from "@/lib/domain/people";
import { linkBaseUrl } from "@/lib/env";
import { actorFormAction, field, type RevalidateTarget } from "../../form-action";

/** What every action of this page revalidates. */
const REVALIDATE: RevalidateTarget[] = [["/team", "layout"]];

/** Invites one person (admins). Without SMTP the link is shown once to copy. */
export async function inviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(REVALIDATE, async (actor) => {
    const r = await invitePerson(
      actor,
      {
        email: field(form, "email"),
        name: field(form, "name"),
        role: parseRole(field(form, "role") || "member"),
        timezone: field(form, "timezone"),
      },
      { baseUrl: linkBaseUrl() },
    );
    return r.emailed
      ? { ok: `Invitation e-mailed to ${r.email} (valid 7 days).` }
      : {
          ok: `${r.email} is invited. E-mail is not configured, so copy the link below (valid 7 days, usable once).`,
          links: [{ label: r.email, url: r.link as string }],
        };
  });
}

/** Invites everyone of a pasted list / CSV (admins); one outcome line per person. */
export async function bulkInviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(REVALIDATE, async (actor) => {
    const outcomes = await invitePeopleFromList(actor, field(form, "list"), { baseUrl: linkBaseUrl() });
    const ok = outcomes.filter((o) => o.ok);
    return {
      ok: `${ok.length} of ${outcomes.length} invited.`,
      details: outcomes.map((o) =>
        o.ok ? `Line ${o.line}: ${o.email} invited${o.invitation.emailed ? " (e-mailed)" : ""}` : bulkLineMessage(o.line, o.email, o.error),
      ),
      links: ok.flatMap((o) => (o.ok && o.invitation.link ? [{ label: o.email, url: o.invitation.link }] : [])),
    };
  });
}

/** Changes a person's role (admins). */
export async function changeRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(REVALIDATE, async (actor) => {
    await changeRole(actor, { userId: Number(field(form, "userId")), role: parseRole(field(form, "role")) });
    return { ok: "Role saved." };
  });
}

/** Deactivates or reactivates a person (admins). */
export async function setActiveAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(REVALIDATE, async (actor) => {
    const input = { teamId: actor.teamId, userId: Number(field(form, "userId")) };
    if (field(form, "active") === "true") await reactivatePerson(actor, input);
    else await deactivatePerson(actor, input);
    return { ok: field(form, "active") === "true" ? "Reactivated." : "Deactivated: API keys revoked, sessions ended." };
  });
}

/** Issues a password-reset link for a person, shown once (admins; for servers without e-mail). */
export async function resetLinkAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction([], async (actor) => {
    const { link } = await issueResetLink(actor, { userId: Number(field(form, "userId")), baseUrl: linkBaseUrl() });
    return { ok: "Reset link valid for one hour.", links: [{ label: field(form, "email"), url: link }] };
  });
}
