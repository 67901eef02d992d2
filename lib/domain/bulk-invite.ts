/**
 * Adding several people at once (issue 11): a pasted list or CSV with name, e-mail and optional
 * timezone per line. Accepted shapes, detected per input:
 *   - CSV with a header naming the columns (`name`, `email`, `timezone`, `role`; any order);
 *   - lines `Name, e-mail[, timezone]` or `Name <e-mail>` (quoted fields allowed);
 *   - bare e-mail addresses (the name is taken from the address).
 * Parsing uses csv-parse. Each person is invited on their own (`invitePerson`), so one bad line
 * does not stop the others; the result lists every line's outcome.
 */
import { parse } from "csv-parse/sync";
import { parseRole } from "@/lib/domain/access";
import type { Actor } from "@/lib/domain/actor";
import { DomainError, InvalidParameterError } from "@/lib/domain/errors";
import { type InvitationResult, invitePerson, type PersonInput } from "@/lib/domain/people";

/** Most people one paste may add. */
export const BULK_LIMIT = 200;

export type BulkLine = { line: number; input: PersonInput };
export type BulkOutcome =
  | { line: number; email: string; ok: true; invitation: InvitationResult }
  | { line: number; email: string; ok: false; error: string };

const ANGLE_RE = /^(.*?)<([^>]+)>\s*$/;

/** Name from an address: `ada.lovelace@x` → `Ada Lovelace`. */
function nameFromEmail(email: string): string {
  const local = email.split("@")[0] ?? email;
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((p) => p[0]?.toUpperCase() + p.slice(1))
    .join(" ");
}

/**
 * Parses pasted text into people. @throws InvalidParameterError on unparseable CSV, an empty
 * list, or more than BULK_LIMIT lines.
 */
export function parsePeopleList(text: string): BulkLine[] {
  let rows: string[][];
  try {
    rows = parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (err) {
    throw new InvalidParameterError(`Could not read the list: ${(err as Error).message}`);
  }
  const indexed = rows.map((cells, i) => ({ line: i + 1, cells: cells.filter((c, j) => c !== "" || j < 2) }));
  if (indexed.length === 0) throw new InvalidParameterError("The list is empty");
  const header = indexed[0]?.cells.map((c) => c.toLowerCase());
  let columns: { name: number; email: number; timezone: number; role: number } | null = null;
  if (header?.includes("email") || header?.includes("e-mail")) {
    const at = (n: string[]) => header.findIndex((h) => n.includes(h));
    columns = {
      name: at(["name", "full name", "realname"]),
      email: at(["email", "e-mail"]),
      timezone: at(["timezone", "time zone", "tz"]),
      role: at(["role"]),
    };
    indexed.shift();
  }
  if (indexed.length > BULK_LIMIT) throw new InvalidParameterError(`At most ${BULK_LIMIT} people at once`);
  return indexed.map(({ line, cells }) => {
    if (columns) {
      const email = cells[columns.email] ?? "";
      const role = columns.role >= 0 && cells[columns.role] ? parseRole(cells[columns.role]?.toLowerCase()) : undefined;
      return {
        line,
        input: {
          email,
          name: (columns.name >= 0 && cells[columns.name]) || nameFromEmail(email),
          timezone: columns.timezone >= 0 ? cells[columns.timezone] : undefined,
          role,
        },
      };
    }
    const first = cells[0] ?? "";
    const angle = ANGLE_RE.exec(first);
    if (angle)
      return {
        line,
        input: { name: angle[1]?.trim() || nameFromEmail(angle[2] ?? ""), email: angle[2]?.trim() ?? "", timezone: cells[1] },
      };
    if (first.includes("@")) return { line, input: { email: first, name: nameFromEmail(first), timezone: cells[1] } };
    return { line, input: { name: first, email: cells[1] ?? "", timezone: cells[2] } };
  });
}

/**
 * Invites everyone of a pasted list (admins only). Each line in its own transaction.
 * @returns one outcome per line, in order. @throws ForbiddenError, InvalidParameterError (unparseable list).
 */
export async function invitePeopleFromList(actor: Actor, text: string, opts: { baseUrl: string }): Promise<BulkOutcome[]> {
  const lines = parsePeopleList(text);
  const out: BulkOutcome[] = [];
  for (const { line, input } of lines) {
    try {
      out.push({ line, email: input.email, ok: true, invitation: await invitePerson(actor, input, opts) });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === "FORBIDDEN") throw err;
      out.push({ line, email: input.email, ok: false, error: err.message });
    }
  }
  return out;
}
