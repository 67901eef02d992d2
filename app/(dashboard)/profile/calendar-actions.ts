"use server";

import { webhookUrlMessage } from "@/components/people-messages";
import type { ActionState } from "@/components/ui/action-form";
import {
  addCalDavAccount,
  addCalendarFeed,
  removeCalendarFeed,
  removeHolidayFeed,
  setAbsenceWords,
  setBusyAllDay,
  setHolidayFeed,
} from "@/lib/domain/calendar-feeds";
import { DomainError } from "@/lib/domain/errors";
import { actorFormAction, field } from "../form-action";

/** Runs a feed save; a refused address comes back in the field's words (same address rule as webhooks). */
async function savingFeed(label: string, run: () => Promise<unknown>): Promise<ActionState | undefined> {
  try {
    await run();
  } catch (err) {
    const message = err instanceof DomainError ? webhookUrlMessage(err.message, label, "which calendars are not read from") : null;
    if (message) return { error: message };
    throw err;
  }
}

/** Adds an ICS calendar feed (field `url`) to the signed-in person's calendars (issue 48). */
export async function addCalendarFeedAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/profile"], async (actor) => {
    const refused = await savingFeed("ICS address", () => addCalendarFeed(actor, { url: field(form, "url") }));
    if (refused) return refused;
    return { ok: "Calendar added. It is read within a minute, then every 30 minutes." };
  });
}

/**
 * Adds a CalDAV account (fields `serverUrl`, `username`, `password`) to the signed-in person's
 * calendars (issue 48); the address and password are stored sealed and never shown again.
 */
export async function addCalDavAccountAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/profile"], async (actor) => {
    try {
      await addCalDavAccount(actor, {
        serverUrl: field(form, "serverUrl"),
        username: field(form, "username"),
        password: field(form, "password"),
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const message = webhookUrlMessage(
        err.message.replace(/^serverUrl: /, "url: "),
        "CalDAV server address",
        "which calendars are not read from",
      );
      if (message && /^serverUrl: /.test(err.message)) return { error: message };
      if (/^(username|password)/.test(err.message)) return { error: `CalDAV account: ${err.message}.` };
      throw err;
    }
    return { ok: "CalDAV account added. Its calendars are read within a minute, then every 30 minutes." };
  });
}

/** Removes one of the signed-in person's calendar feeds (field `feedId`) and the absences it provided. */
export async function removeCalendarFeedAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/profile", "/team"], async (actor) => {
    await removeCalendarFeed(actor, { feedId: Number(field(form, "feedId")) });
    return { ok: "Calendar removed with its absences." };
  });
}

/** Subscribes the team to a public-holidays ICS feed (field `url`; admins only). */
export async function setHolidayFeedAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/team/holidays"], async (actor) => {
    const refused = await savingFeed("Holidays ICS address", () => setHolidayFeed(actor, { url: field(form, "url") }));
    if (refused) return refused;
    return { ok: "Holiday calendar subscribed. Its dates appear within a minute." };
  });
}

/** Unsubscribes the team from its holidays feed (admins only). */
export async function removeHolidayFeedAction(_prev: ActionState, _form: FormData): Promise<ActionState> {
  return actorFormAction(["/team/holidays"], async (actor) => {
    await removeHolidayFeed(actor);
    return { ok: "Holiday calendar removed with its dates." };
  });
}

/** Sets the words that mark an absence in calendars (field `words`, comma or line separated; admins only). */
export async function setAbsenceWordsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/team/holidays"], async (actor) => {
    const words = await setAbsenceWords(actor, { words: field(form, "words") });
    return { ok: `Calendar words saved: ${words.join(", ")}.` };
  });
}

/** Chooses whether busy (TRANSP:OPAQUE) all-day events excuse people (checkbox `busyAllDay`; admins only). */
export async function setBusyAllDayAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/team/holidays"], async (actor) => {
    const on = await setBusyAllDay(actor, { enabled: form.get("busyAllDay") === "on" });
    return { ok: on ? "Busy all-day events now excuse people." : "Only the words above mark an absence now." };
  });
}
