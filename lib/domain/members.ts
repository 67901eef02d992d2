/**
 * Members of standups and polls: resolving user references and e-mails of the actor's team to
 * numeric user ids, and replacing a checkin's member set. Used by standup writes
 * (lib/domain/standup-writes.ts) and manual starts (lib/domain/occurrences.ts).
 */
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { MAX_DB_ID } from "@/lib/domain/constants";
import { UserNotFoundError } from "@/lib/domain/errors";
import { usersByEmail } from "@/lib/domain/exact-lookup";

/** A user reference: numeric user id or chat-style string id (e.g. U0123ABCD). */
export type UserRef = number | string;

/**
 * Resolves user references of the actor's team to numeric ids (order kept, duplicates dropped).
 * Deactivated users, and numbers outside 1..2147483647, count as unknown.
 * @throws UserNotFoundError listing every unknown reference.
 */
export async function resolveUserIds(actor: Pick<Actor, "teamId">, refs: ReadonlyArray<string | number>, tx: Tx = db): Promise<number[]> {
  const numeric = new Set<number>();
  const chatIds = new Set<string>();
  for (const ref of refs) {
    // A number outside the id column's range (PostgreSQL integer) cannot name a user: reported unknown below.
    if (typeof ref === "number" && Number.isInteger(ref)) {
      if (ref >= 1 && ref <= MAX_DB_ID) numeric.add(ref);
    } else if (typeof ref === "string" && /^\d{1,9}$/.test(ref.trim())) numeric.add(Number(ref.trim()));
    else if (typeof ref === "string" && ref.trim()) chatIds.add(ref.trim());
    else throw new UserNotFoundError([String(ref)]);
  }
  const rows = await tx.user.findMany({
    where: { team_id: actor.teamId, deactivated_at: null, OR: [{ id: { in: [...numeric] } }, { chat_id: { in: [...chatIds] } }] },
    select: { id: true, chat_id: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r.id]));
  const byChat = new Map(rows.map((r) => [r.chat_id, r.id]));
  const missing: string[] = [];
  const ids: number[] = [];
  for (const ref of refs) {
    const trimmed = typeof ref === "string" ? ref.trim() : ref;
    const id = typeof trimmed === "number" || /^\d{1,9}$/.test(trimmed) ? byId.get(Number(trimmed)) : byChat.get(trimmed);
    if (id === undefined) missing.push(String(ref));
    else if (!ids.includes(id)) ids.push(id);
  }
  if (missing.length) throw new UserNotFoundError(missing);
  return ids;
}

/** Active users of the team by e-mail, equal ignoring case (never a pattern). @throws UserNotFoundError for unknown addresses. */
export async function resolveUserEmails(actor: Pick<Actor, "teamId">, emails: readonly string[], tx: Tx = db): Promise<number[]> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) return [];
  const rows = await usersByEmail(wanted, { teamId: actor.teamId, activeOnly: true }, tx);
  const found = new Map(rows.map((r) => [r.email.toLowerCase(), r.id]));
  const missing = wanted.filter((e) => !found.has(e));
  if (missing.length) throw new UserNotFoundError(missing);
  return wanted.map((e) => found.get(e) as number);
}

/** Makes the member set exactly `userIds` (keeping `added_at` of members who stay). */
export async function setMembers(tx: Tx, standup: { id: number; team_id: number }, userIds: number[]): Promise<void> {
  await tx.checkinMember.deleteMany({ where: { checkin_id: standup.id, user_id: { notIn: userIds } } });
  if (userIds.length) {
    await tx.checkinMember.createMany({
      data: userIds.map((user_id) => ({ checkin_id: standup.id, team_id: standup.team_id, user_id })),
      skipDuplicates: true,
    });
  }
}
