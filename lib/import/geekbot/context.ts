/**
 * State shared by the steps of one Geekbot import (issue 43): the scope, how writes run (one
 * transaction per step, or one outer transaction rolled back for `--dry-run`), the id maps built so
 * far, and the summary every step adds to.
 */
import type { Tx } from "@/lib/db";
import type { ImportScope } from "@/lib/import/map";

/** Something imported as faithfully as possible, or left out, with the reason (printed in the summary). */
export type ImportNote = { what: string; id: string; reason: string };

/** Counts of one run (what was created; `existing` = already imported by an earlier run or matched). */
export type ImportSummary = {
  people: { matched: number; created: number; unknown: number };
  channels: { matched: number; created: number };
  standups: { created: number; existing: number };
  questions: { created: number };
  reports: { imported: number; existing: number; answers: number };
  occurrences: { created: number };
  polls: { created: number; existing: number; instances: number; votes: number };
  notes: ImportNote[];
  skipped: ImportNote[];
  /** Wall time in milliseconds and reports imported per second. */
  ms: number;
  reportsPerSecond: number;
  /** Milliseconds spent writing report pages (the rest of the report phase is waiting for the source). */
  reportWriteMs: number;
};

export type ImportContext = {
  scope: ImportScope;
  dryRun: boolean;
  /** Runs `fn` as one write: its own transaction, or the dry run's outer transaction. */
  write: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
  log: (line: string) => void;
  /** Local user id by source user id (chat id or numeric id as a string) and by `email:<lower-case e-mail>`. */
  users: Map<string, number>;
  /** Local channel id by channel name. */
  channels: Map<string, number>;
  /** The local user who owns what has no known creator (the first admin of the team). */
  fallbackOwnerId: number;
  /** Only reports and poll instances at or after this instant. */
  since: Date | null;
  summary: ImportSummary;
};

/** An empty summary. */
export function emptySummary(): ImportSummary {
  return {
    people: { matched: 0, created: 0, unknown: 0 },
    channels: { matched: 0, created: 0 },
    standups: { created: 0, existing: 0 },
    questions: { created: 0 },
    reports: { imported: 0, existing: 0, answers: 0 },
    occurrences: { created: 0 },
    polls: { created: 0, existing: 0, instances: 0, votes: 0 },
    notes: [],
    skipped: [],
    ms: 0,
    reportsPerSecond: 0,
    reportWriteMs: 0,
  };
}

/** Key of a source user in `ImportContext.users` by e-mail. */
export const emailKey = (email: string) => `email:${email.trim().toLowerCase()}`;

/** The end-of-run summary as lines: counts, rate, then notes and skipped records with their reasons. */
export function formatSummary(s: ImportSummary, opts: { dryRun: boolean }): string[] {
  const verb = opts.dryRun ? "would create" : "created";
  const lines = [
    `${opts.dryRun ? "Dry run (nothing written)" : "Import finished"} in ${(s.ms / 1000).toFixed(1)} s:`,
    `  people:      ${s.people.matched} matched by e-mail, ${s.people.created} ${verb} (${s.people.unknown} unknown to the source's team)`,
    `  channels:    ${s.channels.matched} matched, ${s.channels.created} ${verb}`,
    `  standups:    ${s.standups.created} ${verb}, ${s.standups.existing} already imported; ${s.questions.created} questions ${verb}`,
    `  reports:     ${s.reports.imported} ${opts.dryRun ? "to import" : "imported"} (${s.reports.answers} answers, ${s.reportsPerSecond} reports/s, ${(s.reportWriteMs / 1000).toFixed(1)} s of it writing), ${s.reports.existing} already imported; ${s.occurrences.created} occurrences ${verb}`,
    `  polls:       ${s.polls.created} ${verb}, ${s.polls.existing} already imported; ${s.polls.instances} instances, ${s.polls.votes} votes`,
  ];
  if (s.notes.length) {
    lines.push(`  imported as faithfully as possible (${s.notes.length}):`);
    lines.push(...groupedNotes(s.notes));
  }
  if (s.skipped.length) {
    lines.push(`  skipped (${s.skipped.length}):`);
    lines.push(...groupedNotes(s.skipped));
  }
  return lines;
}

/** One line per note; more than 3 of the same kind and reason become one line with their ids. */
function groupedNotes(notes: ImportNote[]): string[] {
  const groups = new Map<string, ImportNote[]>();
  for (const n of notes) groups.set(`${n.what}\u0000${n.reason}`, [...(groups.get(`${n.what}\u0000${n.reason}`) ?? []), n]);
  return [...groups.values()].flatMap((g) =>
    g.length > 3
      ? [
          `    ${g.length} × ${g[0].what} (${g
            .map((n) => n.id)
            .slice(0, 5)
            .join(", ")}${g.length > 5 ? ", …" : ""}): ${g[0].reason}`,
        ]
      : g.map((n) => `    ${n.what} ${n.id}: ${n.reason}`),
  );
}
