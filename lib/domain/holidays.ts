/**
 * Team holidays (issue 10 "Asking"): a team calendar of local dates on which no standup of the
 * team runs. The scheduler skips the occurrence of a holiday date for everyone (no occurrence, no
 * question, no reminder, nobody missed); an answer submitted that day becomes an ad-hoc report of
 * its author (lib/domain/occurrence-resolution.ts). A holiday date is compared with each standup's
 * own occurrence date (its local date). Every member reads the calendar; only admins change it.
 */

import { db, queryRows, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { ConflictError, ForbiddenError, InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** One holiday: `date` "YYYY-MM-DD"; `fromFeed` when the team's public-holidays ICS feed provided it (issue 48). */
export type Holiday = { id: number; date: string; name: string; fromFeed?: boolean };

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_NAME = 100;

function parseHolidayDate(value: string): Date {
  if (typeof value !== "string" || !DATE_RE.test(value)) throw new InvalidParameterError("date: expected a date YYYY-MM-DD");
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) throw new InvalidParameterError("date: not a valid date");
  return d;
}

/**
 * The team's holidays from `from` ("YYYY-MM-DD", default: all) on, in date order.
 * @throws InvalidParameterError for a malformed `from`.
 */
export async function listHolidays(actor: Actor, input: { from?: string } = {}, tx: Tx = db): Promise<Holiday[]> {
  const from = input.from ? parseHolidayDate(input.from) : undefined;
  const rows = await tx.teamHoliday.findMany({
    where: { team_id: actor.teamId, ...(from ? { date: { gte: from } } : {}) },
    orderBy: { date: "asc" },
    select: { id: true, date: true, name: true, calendar_feed_id: true },
  });
  return rows.map((r) => ({ id: r.id, date: r.date.toISOString().slice(0, 10), name: r.name, fromFeed: r.calendar_feed_id !== null }));
}

/**
 * Adds a holiday (admins only).
 * @throws ForbiddenError (not an admin), InvalidParameterError (bad date, empty or long name),
 *   ConflictError (the date is already a holiday).
 */
export async function addHoliday(actor: Actor, input: { date: string; name: string }, tx: Tx = db): Promise<Holiday> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change the holiday calendar");
  const date = parseHolidayDate(input.date);
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name) throw new InvalidParameterError("name: required");
  if (name.length > MAX_NAME) throw new InvalidParameterError(`name: ${MAX_NAME} characters at most`);
  const inserted = await tx.$queryRaw<Array<{ id: number }>>`
    INSERT INTO team_holidays (team_id, date, name) VALUES (${actor.teamId}, ${date}::date, ${name})
    ON CONFLICT (team_id, date) DO NOTHING RETURNING id`;
  if (!inserted.length) throw new ConflictError(`${input.date} is already a holiday`);
  return { id: inserted[0].id, date: input.date, name };
}

/**
 * Removes a holiday of the team (admins only).
 * @throws ForbiddenError (not an admin), NotFoundError (no such holiday in the team).
 */
export async function removeHoliday(actor: Actor, input: { holidayId: number }, tx: Tx = db): Promise<void> {
  if (!actor.isAdmin) throw new ForbiddenError("Only team admins can change the holiday calendar");
  const r = await tx.teamHoliday.deleteMany({ where: { id: input.holidayId, team_id: actor.teamId } });
  if (r.count === 0) throw new NotFoundError("Holiday");
}

/** True when local date `date` ("YYYY-MM-DD") is a holiday of team `teamId`. One indexed query. */
export async function isTeamHoliday(client: Tx, teamId: number, date: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    Prisma.sql`
    SELECT 1 AS one FROM team_holidays WHERE team_id = ${teamId} AND date = ${date}::date LIMIT 1`,
    client,
  );
  return rows.length > 0;
}
