/**
 * One-statement standup and poll pages (issue 14, read path): GET /v2/standups, /v2/polls and
 * their `{id}` reads. The page of check-in ids in list order first (a `MATERIALIZED` CTE: filter,
 * `ORDER BY created_at DESC, id DESC`, `LIMIT`), then the nested JSON (owner, broadcast channel,
 * members, current questions) of just those rows, in one SQL statement.
 *
 * Why not Prisma's nested select: it compiles and interprets the nested query on every call, which
 * cost more than the database work (measured in-process on the demo data: GET /v2/reports/{id}
 * went from 0.73 to 0.47 ms per request when its report moved to the same kind of statement).
 *
 * The rows have exactly the shape of `checkinViewSelect` (lib/domain/standups.ts `CheckinView`):
 * the same keys and nesting, `Date` for the timestamps, members in the order they were added
 * (then user id), current (non-archived) questions in position order (then id). The API tests
 * compare the serialized bodies. Callers pass the filter as SQL over the checkins alias `c`.
 *
 * The v2 API reads go one step further and have PostgreSQL write each standup or poll as its
 * finished wire JSON text over the same page (`checkinPageCte`): lib/api/v2/standups-sql.ts.
 */
import { db, queryRows } from "@/lib/db";
import { literalLimit, type SqlPageQuery } from "@/lib/domain/report-pages";
import type { CheckinView } from "@/lib/domain/standups";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The page (a `WITH page AS MATERIALIZED (...)` clause, to be followed by the statement's SELECT):
 * ids of the check-ins matching `where` (over `c`), newest first (created_at, then id), at most `limit`.
 */
export function checkinPageCte(where: Prisma.Sql, limit: number): Prisma.Sql {
  return Prisma.sql`WITH page AS MATERIALIZED (
      SELECT c.id FROM checkins c WHERE ${where} ORDER BY c.created_at DESC, c.id DESC ${literalLimit(limit)})`;
}

/**
 * Up to `limit` check-ins matching `where` (SQL over the alias `c`) as `CheckinView`s, newest
 * first (created_at desc, id desc), with their current questions when `withQuestions`. One statement.
 */
export const checkinViewPage: SqlPageQuery<{ withQuestions: boolean }, CheckinView[]> = async (where, limit, opts, client = db) => {
  const questions = opts.withQuestions
    ? Prisma.sql`, (SELECT COALESCE(json_agg(json_build_object('id', q.id, 'text', q.text, 'position', q.position,
          'answer_type', q.answer_type, 'choices', q.choices, 'optional', q.optional, 'scale_min', q.scale_min,
          'scale_max', q.scale_max, 'scale_labels', COALESCE(q.scale_labels, '{}')) ORDER BY q.position, q.id), '[]'::json)
        FROM questions q WHERE q.checkin_id = c.id AND q.archived_at IS NULL) AS questions`
    : Prisma.empty;
  return queryRows<CheckinView>(
    Prisma.sql`${checkinPageCte(where, limit)}
    SELECT c.id, c.kind::text AS kind, c.name, c.state::text AS state, c.time, c.wait_time, c.timezone, c.days,
      c.is_anonymous, c.is_confidential, c.created_at, c.updated_at,
      json_build_object('chat_id', o.chat_id) AS owner,
      (SELECT json_build_object('chat_id', ch.chat_id, 'name', ch.name) FROM channels ch
        WHERE ch.team_id = c.team_id AND ch.id = c.broadcast_channel_id) AS broadcast_channel,
      (SELECT COALESCE(json_agg(json_build_object('user', json_build_object('chat_id', u.chat_id, 'username', u.username,
          'realname', u.realname, 'email', u.email)) ORDER BY m.added_at, m.user_id), '[]'::json)
        FROM checkin_members m JOIN users u ON u.id = m.user_id WHERE m.checkin_id = c.id) AS members
      ${questions}
    FROM page JOIN checkins c ON c.id = page.id JOIN users o ON o.id = c.owner_id
    ORDER BY c.created_at DESC, c.id DESC`,
    client,
  );
};
