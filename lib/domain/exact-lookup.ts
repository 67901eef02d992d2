/**
 * Finding people by e-mail address and channels by name exactly (issue 40 item 5).
 *
 * Prisma turns `{ equals: x, mode: "insensitive" }` into `ILIKE x` without escaping `%` and `_`,
 * so an address like `%` or `admin@acme.exampl_` matched other people's accounts and a channel
 * name `g_neral` matched #general. Here values are normalised (trimmed, lower-cased) and compared
 * with `lower(column) = lower($1)`: an equality, never a pattern. The expression indexes
 * `users_lower_email_idx` and `channels_team_id_lower_name_idx` (migration `*_exact_lookups`)
 * serve these reads. tests/no-insensitive-equals.test.ts keeps `mode: "insensitive"` equalities
 * out of the code.
 */

import { z } from "zod";
import { db, queryRows, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

const emailShape = z.email();

/**
 * The lookup form of an e-mail address: trimmed and lower-cased, or null when it is not shaped
 * like an address (zod's e-mail check: no `%`, no `_` in the domain, at most 254 characters).
 */
export function emailKey(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const email = value.trim().toLowerCase();
  return email.length <= 254 && emailShape.safeParse(email).success ? email : null;
}

/** A user found by e-mail: id, team and the address as stored. */
export type UserByEmail = { id: number; team_id: number; email: string };

/**
 * Users whose address equals one of `emails` ignoring case (oldest first). Addresses are compared
 * as given (trimmed); callers validate their shape first (`emailKey`).
 * @param opts.teamId only this team's users; opts.activeOnly only users not deactivated.
 */
export function usersByEmail(
  emails: readonly string[],
  opts: { teamId?: number; activeOnly?: boolean } = {},
  tx: Tx = db,
): Promise<UserByEmail[]> {
  const wanted = [...new Set(emails.map((e) => e.trim()).filter(Boolean))];
  if (wanted.length === 0) return Promise.resolve([]);
  const team = opts.teamId !== undefined ? Prisma.sql`AND team_id = ${opts.teamId}` : Prisma.empty;
  const active = opts.activeOnly ? Prisma.sql`AND deactivated_at IS NULL` : Prisma.empty;
  return queryRows<UserByEmail>(
    Prisma.sql`SELECT id, team_id, email FROM users
      WHERE lower(email) IN (SELECT lower(w) FROM unnest(${wanted}::text[]) AS w) ${team} ${active}
      ORDER BY id`,
    tx,
  );
}

/**
 * The active user a sign-in address belongs to (the oldest account when several teams share it),
 * or null when the address is not shaped like one or nobody active uses it.
 */
export async function activeUserIdByEmail(email: unknown, tx: Tx = db): Promise<number | null> {
  const key = emailKey(email);
  if (!key) return null;
  const [first] = await usersByEmail([key], { activeOnly: true }, tx);
  return first?.id ?? null;
}

/**
 * A channel of the team by name (without its leading `#`), the exact spelling first, else the
 * oldest one equal ignoring case; null when none.
 */
export async function channelByName(
  teamId: number,
  name: string,
  tx: Tx = db,
): Promise<{ id: number; chat_id: string; name: string } | null> {
  const [row] = await queryRows<{ id: number; chat_id: string; name: string }>(
    Prisma.sql`SELECT id, chat_id, name FROM channels
      WHERE team_id = ${teamId} AND lower(name) = lower(${name})
      ORDER BY (name = ${name}) DESC, id LIMIT 1`,
    tx,
  );
  return row ?? null;
}
