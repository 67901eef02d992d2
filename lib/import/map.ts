/**
 * The import map (table `import_map`, issue 43): which local row each source record became, and a
 * checkpoint per standup, so an import run again imports only what is new and a stopped run resumes.
 * Rows are keyed by (team, source, kind, source id); `source` names the source and its base URL.
 */

import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/** Which source an import reads, in which local team. */
export type ImportScope = { teamId: number; source: string };

/** Kinds of mapped records. */
export type ImportKind = "user" | "channel" | "standup" | "question" | "report" | "poll" | "poll_instance" | "checkpoint";

/** Local ids of the mapped records of one kind, by source id (all of them, or those of `sourceIds`). */
export async function loadMap(tx: Tx, scope: ImportScope, kind: ImportKind, sourceIds?: string[]): Promise<Map<string, number>> {
  const rows = await tx.importMap.findMany({
    where: { team_id: scope.teamId, source: scope.source, kind, ...(sourceIds ? { source_id: { in: sourceIds } } : {}) },
    select: { source_id: true, local_id: true },
  });
  return new Map(rows.filter((r) => r.local_id !== null).map((r) => [r.source_id, r.local_id as number]));
}

/** Records source id → local id pairs of one kind (existing pairs are kept). */
export async function recordMap(tx: Tx, scope: ImportScope, kind: ImportKind, pairs: Iterable<[string, number]>): Promise<void> {
  const data = [...pairs].map(([source_id, local_id]) => ({ team_id: scope.teamId, source: scope.source, kind, source_id, local_id }));
  if (data.length) await tx.importMap.createMany({ data, skipDuplicates: true });
}

/** The checkpoint `name` (null when none). */
export async function readCheckpoint<T>(tx: Tx, scope: ImportScope, name: string): Promise<T | null> {
  const row = await tx.importMap.findUnique({
    where: { team_id_source_kind_source_id: { team_id: scope.teamId, source: scope.source, kind: "checkpoint", source_id: name } },
    select: { data: true },
  });
  return (row?.data as T | undefined) ?? null;
}

/** Writes the checkpoint `name` (in the transaction of the rows it covers). */
export async function writeCheckpoint(tx: Tx, scope: ImportScope, name: string, data: object): Promise<void> {
  const key = { team_id: scope.teamId, source: scope.source, kind: "checkpoint", source_id: name };
  const value = data as Prisma.InputJsonValue;
  await tx.importMap.upsert({
    where: { team_id_source_kind_source_id: key },
    create: { ...key, data: value },
    update: { data: value },
  });
}
