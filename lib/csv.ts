/**
 * CSV text (a pure helper below the domain): CRLF records, quoting, and formula escaping (a cell
 * starting with `=`, `+`, `-`, `@` gets a leading quote, so a spreadsheet does not run it). Used by
 * the CSV downloads (lib/api/csv.ts) and the stored my-data export (lib/domain/data-exports.ts).
 */
import { stringify } from "csv-stringify/sync";

const CSV_OPTIONS = { record_delimiter: "windows", escape_formulas: true } as const;

/** Serialises rows as CSV text (CRLF, quoting, formula escaping); "" for no rows. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return rows.length ? stringify(rows as unknown[][], CSV_OPTIONS) : "";
}
