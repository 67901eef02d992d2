/**
 * The migration runner refuses a database migrated by a newer version of the service (issue 44):
 * an applied migration this checkout does not have stops `applyMigrations` (and so `npm start`)
 * with a message naming it; a database this version knows migrates as before.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, listMigrationNames, migrationDrift, NewerDatabaseError } from "@/lib/runtime/migrate";
import { runSql, useIsolatedDatabase } from "@/tests/isolated-db";

let url: string;
beforeAll(async () => {
  url = await useIsolatedDatabase("migrate");
});

const sql = (text: string) => runSql(url, text);

describe("a database migrated by a newer version", () => {
  it("migrationDrift tells pending from unknown migrations", () => {
    expect(migrationDrift(["a", "b", "z"], ["a", "b", "c"])).toEqual({ pending: ["c"], unknown: ["z"] });
    expect(migrationDrift(["a"], ["a"])).toEqual({ pending: [], unknown: [] });
  });

  it("applyMigrations refuses it, naming the unknown migration, and accepts it again once the row is gone", async () => {
    expect((await applyMigrations(url)).applied).toEqual([]);
    await sql(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
      VALUES ('00000000-0000-0000-0000-000000000999', 'x', '29991231000000_from_the_future', now(), 1)`);
    const err = await applyMigrations(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NewerDatabaseError);
    expect((err as Error).message).toMatch(
      /migrated by a newer version of the service: 1 applied migration\(s\) are unknown to this version \(29991231000000_from_the_future\)/,
    );
    // A rolled-back migration does not count.
    await sql(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '29991231000000_from_the_future'`);
    expect((await applyMigrations(url)).alreadyApplied).toBe(listMigrationNames().length);
  });
});
