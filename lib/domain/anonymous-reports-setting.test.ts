/**
 * "Post this report anonymously" is offered only where the standup allows it (issue 41 item 11):
 * `allow_anonymous_reports` (default off), switched on and off through `setStandupPrivacy`, read
 * by `listMyCheckins` / `allowsAnonymousReports`. Real test database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { allowsAnonymousReports, listMyCheckins } from "@/lib/domain/dashboard";
import { setStandupPrivacy } from "@/lib/domain/standup-writes";
import { createTestTeam, type TestTeam } from "@/tests/fixtures";
import { createDailyStandup } from "@/tests/standup-fixtures";

let team: TestTeam;

beforeAll(async () => {
  team = await createTestTeam({ members: 2 });
});

describe("anonymous reports setting", () => {
  it("is off by default, can be switched on and off, and never applies to anonymous standups", async () => {
    const member = team.users[1];
    const { id } = await createDailyStandup(team, {
      name: "Anon setting",
      questions: [{ text: "How is it going?" }],
      days: ["Mon"],
      users: [member.chat_id],
    });
    const mine = async () => (await listMyCheckins(member.actor)).find((c) => c.standupId === id);
    expect((await mine())?.allowAnonymousReports).toBe(false);
    expect(await allowsAnonymousReports(member.actor, id)).toBe(false);

    await setStandupPrivacy(team.admin.actor, { standupId: id, allowAnonymousReports: true });
    expect((await mine())?.allowAnonymousReports).toBe(true);
    expect(await allowsAnonymousReports(member.actor, id)).toBe(true);

    // An anonymous standup: every report is anonymous anyway, no per-report choice.
    await setStandupPrivacy(team.admin.actor, { standupId: id, isAnonymous: true });
    expect((await mine())?.allowAnonymousReports).toBe(false);

    await setStandupPrivacy(team.admin.actor, { standupId: id, isAnonymous: false, allowAnonymousReports: false });
    expect((await mine())?.allowAnonymousReports).toBe(false);
    expect(await allowsAnonymousReports(member.actor, id)).toBe(false);
  });
});
