"use server";

import type { ActionState } from "@/components/ui/action-form";
import { addCalendarFeed, removeCalendarFeed, removeHolidayFeed, setAbsenceWords, setHolidayFeed } from "@/lib/domain/calendar-feeds";
import { actorFormAction, field } from "../form-action";

/** Adds an ICS calendar feed (field `url`) to the signed-in person's calendars (issue 48). */
export async function addCalendarFeedAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  return actorFormAction(["/profile"], async (actor) => {
    await addCalendarFeed(actor, { url: field(form, "url") });
    return { ok: "Calendar added. It is read within a minute, then every 30 minutes." };
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
    await setHolidayFeed(actor, { url: field(form, "url") });
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
