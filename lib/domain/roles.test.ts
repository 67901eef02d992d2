/**
 * Roles in the dashboard's reads (issue 11): admins and managers read every non-confidential
 * standup of their team and its reports; members keep the API's rules; confidential stays
 * creator-only for everyone; the API's own lists do not change.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { visibleStandupIds } from "@/lib/domain/dashboard";
import { changeRole } from "@/lib/domain/people";
import { listReports } from "@/lib/domain/reports";
import { getStandupSettings } from "@/lib/domain/standups";
import { createTestCheckin, createTestReport, createTestTeam } from "@/tests/fixtures";

const window = () => ({ since: new Date(Date.now() - 86_400_000), until: new Date(Date.now() + 60_000), limit: 50, withAnswers: false });

describe("team-wide dashboard reads", () => {
  it("managers and admins read non-confidential standups they are not in; members do not; confidential stays with its creator", async () => {
    const team = await createTestTeam({ members: 3 });
    const [admin, author, manager, member] = team.users;
    await changeRole(admin.actor, { userId: manager.id, role: "manager" });
    const managerActor = { ...manager.actor, role: "manager" as const };
    const open = await createTestCheckin(team, { owner: author, members: [author] });
    const secret = await createTestCheckin(team, { owner: author, members: [author], is_confidential: true });
    const openReport = await createTestReport(open, author);
    const secretReport = await createTestReport(secret, author);

    const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
    for (const actor of [admin.actor, managerActor]) {
      expect(ids(await listReports(actor, { ...window(), teamWide: "readers" as const }))).toEqual([openReport.id]);
      expect(await visibleStandupIds(actor)).toContain(open.id);
      expect(await visibleStandupIds(actor)).not.toContain(secret.id);
      await expect(getStandupSettings(actor, open.id, db, "readers")).resolves.toMatchObject({ id: open.id });
      await expect(getStandupSettings(actor, secret.id, db, "readers")).rejects.toThrow(/not found/);
      // the API's list (no teamWide) keeps the spec's rule: not a member, not the creator → nothing
      expect(ids(await listReports(actor, window()))).toEqual([]);
    }
    expect(ids(await listReports(member.actor, { ...window(), teamWide: "readers" as const }))).toEqual([]);
    expect(await visibleStandupIds(member.actor)).not.toContain(open.id);
    await expect(getStandupSettings(member.actor, open.id, db, "readers")).rejects.toThrow(/not found/);
    // the author sees both, everywhere
    expect(ids(await listReports(author.actor, { ...window(), teamWide: "readers" as const })).sort()).toEqual(
      [openReport.id, secretReport.id].sort(),
    );
    // another team's manager sees nothing
    const other = await createTestTeam({ members: 0 });
    expect(ids(await listReports({ ...other.admin.actor, role: "admin" }, { ...window(), teamWide: "readers" as const }))).toEqual([]);
  });
});
