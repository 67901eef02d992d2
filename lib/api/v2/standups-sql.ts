/**
 * The v2 standup and poll (spec §2.2, §2.3) as the JSON text PostgreSQL builds (issue 14): GET
 * /v2/standups, /v2/polls and their `{id}` reads send each item as it comes, so Node neither parses
 * nor re-serializes the rows. The page and its conditions are the domain's (lib/domain/checkin-pages.ts
 * `checkinPageCte`, lib/domain/standups.ts `checkinListSql` / `checkinReadSql`); the shape is the
 * one of `serializeCheckinV2` (lib/api/v2/standups.ts, its zod schema beside it), proven equal byte
 * for byte by lib/api/v2/standups.test.ts.
 */
import { isoTimestampSql, jsonArraySql } from "@/lib/api/wire-sql";
import { db, queryRows, type Tx } from "@/lib/db";
import type { CheckinKind } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { checkinPageCte } from "@/lib/domain/checkin-pages";
import { NotFoundError } from "@/lib/domain/errors";
import type { SqlPageQuery } from "@/lib/domain/report-pages";
import { checkinListSql, checkinReadSql, type StandupListFilters } from "@/lib/domain/standups";
import { Prisma } from "@/lib/generated/prisma/client";

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

/** What a `checkinWirePage` reads: standups or polls, and which optional parts of each. */
export type CheckinWirePageOptions = { kind: CheckinKind; parts: CheckinWireParts };

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
 * One statement, the page of `checkinViewPage` (`checkinPageCte`). Which keys exist is decided here, in the SQL
 * (different LATERAL column lists), not by post-processing; `row_to_json` writes compact JSON
 * with JSON.stringify's escaping. lib/api/v2/standups.test.ts compares both renderings byte for byte.
 *
 * Why (issue 14): parsing the nested rows into objects and serializing them again is Node CPU,
 * and Node's single thread bounds the API's read throughput.
 */
export const checkinWirePage: SqlPageQuery<CheckinWirePageOptions, CheckinWireRow[]> = async (where, limit, opts, client = db) => {
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
};

/**
 * The standups or polls `filters` select for `actor` (lib/domain/standups.ts `checkinListSql`, the
 * page of `listCheckins`), each as its v2 wire JSON text with the optional `parts`
 * (`checkinWirePage`), for GET /v2/standups and GET /v2/polls (through `checkinList` of
 * lib/api/v2/standups.ts). `filters.withQuestions` is not read: `parts.questions` says whether
 * questions come.
 * @returns up to `limit + 1` rows (the extra one tells that more exist).
 */
export async function listCheckinWires(
  actor: Actor,
  kind: CheckinKind,
  filters: StandupListFilters,
  parts: CheckinWireParts,
  client: Tx = db,
): Promise<CheckinWireRow[]> {
  return checkinWirePage(checkinListSql(actor, kind, filters), filters.limit + 1, { kind, parts }, client);
}

/**
 * One standup or poll visible to `actor` (lib/domain/standups.ts `checkinReadSql`, as `getCheckin`)
 * as its v2 wire JSON text with the optional `parts` (`checkinWirePage`), for GET /v2/standups/{id}
 * and GET /v2/polls/{id} (through `checkinRead` of lib/api/v2/standups.ts). One statement.
 * @throws NotFoundError ("Standup" / "Poll") for anything not visible.
 */
export async function getCheckinWire(
  actor: Actor,
  kind: CheckinKind,
  id: number,
  parts: CheckinWireParts,
  client: Tx = db,
): Promise<string> {
  const [row] = await checkinWirePage(checkinReadSql(actor, kind, id), 1, { kind, parts }, client);
  if (!row) throw new NotFoundError(kind === "poll" ? "Poll" : "Standup");
  return row.json;
}
