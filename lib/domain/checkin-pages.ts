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
 * `checkinWirePage` goes one step further for the v2 API reads: PostgreSQL returns each standup or
 * poll as its finished wire JSON text (spec §2.2, §2.3), so Node neither parses nor re-serializes
 * the rows (as `reportWirePage` of lib/domain/report-pages.ts does for reports).
 */
import { db, queryRows, type Tx } from "@/lib/db";
import type { CheckinKind } from "@/lib/domain/access";
import { literalLimit } from "@/lib/domain/report-pages";
import type { CheckinView } from "@/lib/domain/standups";
import { isoTimestampSql, jsonArraySql } from "@/lib/domain/wire-sql";
import { Prisma } from "@/lib/generated/prisma/client";

/** The page: ids of the check-ins matching `where` (over `c`), newest first (created_at, then id). */
function checkinPageCte(where: Prisma.Sql, limit: number): Prisma.Sql {
  return Prisma.sql`WITH page AS MATERIALIZED (
      SELECT c.id FROM checkins c WHERE ${where} ORDER BY c.created_at DESC, c.id DESC ${literalLimit(limit)})`;
}

/**
 * Up to `limit` check-ins matching `where` (SQL over the alias `c`) as `CheckinView`s, newest
 * first (created_at desc, id desc), with their current questions when `withQuestions`. One statement.
 */
export async function checkinViewPage(
  where: Prisma.Sql,
  limit: number,
  opts: { withQuestions: boolean },
  client: Tx = db,
): Promise<CheckinView[]> {
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
}

/**
 * The optional parts of a standup's or poll's v2 wire JSON, i.e. the v2 `include` values (spec
 * §4.1): the current questions, and which user fields each member carries besides its `id`.
 */
export type CheckinWireParts = { questions: boolean; memberEmail: boolean; memberUsername: boolean; memberRealname: boolean };

/** A check-in of a `checkinWirePage`: its keyset position and its v2 wire JSON (spec §2.2 / §2.3) as text. */
export type CheckinWireRow = { id: number; created_at: string; json: string };

/** The optional member fields in wire order (`serializeCheckinV2`): which part adds which `users` column. */
const MEMBER_WIRE_FIELDS = [
  ["memberEmail", "u.email"],
  ["memberUsername", "u.username"],
  ["memberRealname", "u.realname"],
] as const;

/**
 * Up to `limit` check-ins matching `where` (SQL over the alias `c`; it must select check-ins of
 * `kind` only, as `checkinSql` does), newest first (created_at desc, id desc), each as the exact
 * JSON text that `JSON.stringify(serializeCheckinV2(view, include))` (lib/api/v2/standups.ts)
 * gives for it, `include` being the v2 values that `parts` stands for: the same keys in the same
 * order, no whitespace; a poll without `wait_time` and `is_confidential` (spec §2.3); `time` as
 * stored ("HH:MM:SS"); `created`/`updated` as `Date.toISOString()` prints them; `broadcast_channel`
 * `{id, name}` or null; members in the order they were added (then user id) with only the chosen
 * fields; with `parts.questions`, the current questions in stored position order (then id), their
 * `position` renumbered 0..n-1, `choices` empty unless multiple_choice or multi_select;
 * `"optional":true` only on optional questions and `scale` ({min, max, labels}) only on rating
 * questions (issue 41 item 12: the spec's questions keep exactly the spec's keys).
 *
 * One statement, the page of `checkinViewPage`. Which keys exist is decided here, in the SQL
 * (different LATERAL column lists), not by post-processing; `row_to_json` writes compact JSON
 * with JSON.stringify's escaping. tests/checkin-wire.test.ts compares both renderings byte for byte.
 *
 * Why (issue 14): parsing the nested rows into objects and serializing them again is Node CPU,
 * and Node's single thread bounds the API's read throughput.
 */
export async function checkinWirePage(
  where: Prisma.Sql,
  limit: number,
  opts: { kind: CheckinKind; parts: CheckinWireParts },
  client: Tx = db,
): Promise<CheckinWireRow[]> {
  const { kind, parts } = opts;
  const memberColumns = ["u.chat_id AS id", ...MEMBER_WIRE_FIELDS.filter(([part]) => parts[part]).map(([, column]) => column)];
  // Each question is its spec fields (row_to_json of qw), plus `"optional":true` and `"scale"` only
  // on the questions that use them (issue 41 item 12), spliced in before the closing brace.
  const questions = parts.questions
    ? Prisma.sql`,
        (SELECT ('[' || COALESCE(string_agg(left(row_to_json(qw)::text, -1)
              || CASE WHEN x.optional THEN ',"optional":true' ELSE '' END
              || COALESCE(',"scale":' || (SELECT row_to_json(sw)::text
                    FROM (SELECT COALESCE(x.scale_min, 1) AS min, COALESCE(x.scale_max, 5) AS max, COALESCE(x.scale_labels, '{}') AS labels) sw
                    WHERE x.answer_type = 'rating'), '')
              || '}', ',' ORDER BY qw.position), '') || ']')::json
          FROM (SELECT q.id, q.text, (row_number() OVER (ORDER BY q.position, q.id) - 1)::int AS position,
              q.answer_type::text AS answer_type,
              CASE WHEN q.answer_type IN ('multiple_choice', 'multi_select') THEN q.choices ELSE '{}'::text[] END AS choices,
              q.optional, q.scale_min, q.scale_max, q.scale_labels
            FROM questions q WHERE q.checkin_id = c.id AND q.archived_at IS NULL) x,
            LATERAL (SELECT x.id, x.text, x.position, x.answer_type, x.choices) qw) AS questions`
    : Prisma.empty;
  const standupOnly = (column: string) => Prisma.raw(kind === "poll" ? "" : `${column}, `);
  return queryRows<CheckinWireRow>(
    Prisma.sql`${checkinPageCte(where, limit)}
    SELECT c.id, ${isoTimestampSql("c.created_at")} AS created_at, row_to_json(w)::text AS json
    FROM page JOIN checkins c ON c.id = page.id JOIN users o ON o.id = c.owner_id,
      LATERAL (SELECT c.id, c.name, c.state::text AS state, c.time, ${standupOnly("c.wait_time")}c.timezone, c.days,
        (SELECT row_to_json(bw) FROM channels ch, LATERAL (SELECT ch.chat_id AS id, ch.name) bw
          WHERE ch.team_id = c.team_id AND ch.id = c.broadcast_channel_id) AS broadcast_channel,
        c.is_anonymous, ${standupOnly("c.is_confidential")}o.chat_id AS owner,
        ${isoTimestampSql("c.created_at")} AS created, ${isoTimestampSql("c.updated_at")} AS updated,
        (SELECT ${jsonArraySql("mw", "m.added_at, m.user_id")}
          FROM checkin_members m JOIN users u ON u.id = m.user_id, LATERAL (SELECT ${Prisma.raw(memberColumns.join(", "))}) mw
          WHERE m.checkin_id = c.id) AS members
        ${questions}) w
    ORDER BY c.created_at DESC, c.id DESC`,
    client,
  );
}
