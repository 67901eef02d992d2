/**
 * Voters of anonymous polls (issue 45 "Anonymity that holds"): a vote of an anonymous poll is
 * stored without its voter — `votes.user_id` null — and with `voter_hash`, a keyed hash of the
 * voter for that broadcast: HMAC-SHA256 with the instance's stored secret `app_secrets.voter_key`
 * (created once, 32 random bytes) of "<occurrence_id>:<user_id>", base64url. Only the service,
 * holding the key and given a person, finds that person's vote (to show and replace it on their own
 * ballot, to export or erase it); neither the API nor the dashboard reads a voter back from a vote,
 * and the hashes of one person differ from one broadcast to the next. Who voted (participation,
 * reminders) is `occurrence_members.voted`.
 *
 * `anonymisePollVoters` (the one-time job `anonymise_poll_voters`, enqueued by migration
 * 20261128135700, and safe to run again) rewrites the votes of anonymous polls stored before this
 * rule — or of a poll made anonymous later — to the hashed form.
 */
import { createHmac, randomBytes } from "node:crypto";
import { db, queryRows, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/** Votes rewritten per statement by `anonymisePollVoters`. */
const BATCH = 1000;

/** The instance's voter key (created on first use; every instance shares it through the database). */
export async function voterKey(client: Tx = db): Promise<Buffer> {
  const read = () => queryRows<{ value: string }>(Prisma.sql`SELECT value FROM app_secrets WHERE name = 'voter_key'`, client);
  let [row] = await read();
  if (!row) {
    await client.$executeRaw`INSERT INTO app_secrets (name, value) VALUES ('voter_key', ${randomBytes(32).toString("base64")})
      ON CONFLICT (name) DO NOTHING`;
    [row] = await read();
  }
  return Buffer.from(row.value, "base64");
}

/** The keyed hash of `userId` as the voter of broadcast `occurrenceId` (see the module comment). */
export function voterHashWith(key: Buffer, occurrenceId: number, userId: number): string {
  return createHmac("sha256", key).update(`${occurrenceId}:${userId}`).digest("base64url");
}

/** `voterHashWith` with the instance's key. */
export async function voterHash(occurrenceId: number, userId: number, client: Tx = db): Promise<string> {
  return voterHashWith(await voterKey(client), occurrenceId, userId);
}

/**
 * Where the votes of `userId` in broadcast `occurrenceId` are (Prisma where): by `voter_hash` in an
 * anonymous poll, by `user_id` otherwise (and votes of a named poll not yet rewritten).
 */
export async function ownVotesWhere(
  occurrenceId: number,
  userId: number,
  anonymous: boolean,
  client: Tx = db,
): Promise<Prisma.VoteWhereInput> {
  if (!anonymous) return { occurrence_id: occurrenceId, user_id: userId };
  return { occurrence_id: occurrenceId, OR: [{ voter_hash: await voterHash(occurrenceId, userId, client) }, { user_id: userId }] };
}

/**
 * The ids of every vote of `userId` in the anonymous polls of their team (found by hash over the
 * broadcasts they were asked in), for their export and erasure.
 */
export async function anonymousVoteIdsOf(userId: number, client: Tx = db): Promise<number[]> {
  const asked = await queryRows<{ occurrence_id: number }>(
    Prisma.sql`SELECT om.occurrence_id FROM occurrence_members om JOIN occurrences o ON o.id = om.occurrence_id
      JOIN checkins c ON c.id = o.checkin_id WHERE om.user_id = ${userId} AND c.kind = 'poll' AND c.is_anonymous`,
    client,
  );
  if (!asked.length) return [];
  const key = await voterKey(client);
  const hashes = asked.map((a) => voterHashWith(key, a.occurrence_id, userId));
  const rows = await client.vote.findMany({ where: { voter_hash: { in: hashes } }, select: { id: true } });
  return rows.map((r) => r.id);
}

/**
 * Rewrites the votes of anonymous polls that still name their voter: `voter_hash` set, `user_id`
 * cleared, `occurrence_members.voted` kept true. In batches of BATCH, each one transaction.
 * @returns the number of votes rewritten.
 */
export async function anonymisePollVoters(client = db): Promise<number> {
  const key = await voterKey(client);
  let total = 0;
  for (;;) {
    const n = await client.$transaction(async (t) => {
      const rows = await queryRows<{ id: number; occurrence_id: number; user_id: number }>(
        Prisma.sql`SELECT v.id, v.occurrence_id, v.user_id FROM votes v JOIN occurrences o ON o.id = v.occurrence_id
          JOIN checkins c ON c.id = o.checkin_id WHERE c.is_anonymous AND v.user_id IS NOT NULL LIMIT ${BATCH} FOR UPDATE OF v`,
        t,
      );
      for (const r of rows) {
        await t.$executeRaw`UPDATE occurrence_members SET voted = true WHERE occurrence_id = ${r.occurrence_id} AND user_id = ${r.user_id}`;
        await t.$executeRaw`UPDATE votes SET user_id = NULL, voter_hash = ${voterHashWith(key, r.occurrence_id, r.user_id)} WHERE id = ${r.id}`;
      }
      return rows.length;
    });
    total += n;
    if (n < BATCH) return total;
  }
}
