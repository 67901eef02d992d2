/** Team → Channels (issue 11) against the real test database: admin-only, names, members, audit. */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { listAudit } from "@/lib/domain/audit";
import { createChannel, listChannelsForAdmin, renameChannel, setChannelArchived, setChannelMembers } from "@/lib/domain/channel-admin";
import { ConflictError, ForbiddenError, InvalidParameterError, NotFoundError, UserNotFoundError } from "@/lib/domain/errors";
import { createTestTeam } from "@/tests/fixtures";

describe("channel administration", () => {
  it("creates, renames, archives and sets members, writing the audit log; members cannot", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, a, b] = team.users;
    const { id } = await createChannel(admin.actor, { name: "  #Team Updates " });
    expect((await db.channel.findUniqueOrThrow({ where: { id } })).name).toBe("team-updates");
    await expect(createChannel(admin.actor, { name: "team-updates" })).rejects.toBeInstanceOf(ConflictError);
    await expect(createChannel(admin.actor, { name: "bad/name" })).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(createChannel(a.actor, { name: "mine" })).rejects.toBeInstanceOf(ForbiddenError);
    await renameChannel(admin.actor, { channelId: id, name: "updates" });
    expect(await setChannelMembers(admin.actor, { channelId: id, userIds: [a.id, b.id, a.id] })).toEqual({
      added: [a.id, b.id],
      removed: [],
    });
    expect(await setChannelMembers(admin.actor, { channelId: id, userIds: [b.id] })).toEqual({ added: [], removed: [a.id] });
    await setChannelArchived(admin.actor, { channelId: id, archived: true });
    const listed = (await listChannelsForAdmin(admin.actor)).find((c) => c.id === id);
    expect(listed).toMatchObject({ name: "updates", archived: true, memberIds: [b.id] });
    const other = await createTestTeam({ members: 0 });
    await expect(setChannelMembers(admin.actor, { channelId: id, userIds: [other.admin.id] })).rejects.toBeInstanceOf(UserNotFoundError);
    await expect(renameChannel(other.admin.actor, { channelId: id, name: "stolen" })).rejects.toBeInstanceOf(NotFoundError);
    const audit = await listAudit(admin.actor);
    expect(audit.items.map((i) => i.action)).toEqual([
      "channel.archive",
      "channel.members",
      "channel.members",
      "channel.rename",
      "channel.create",
    ]);
  });
});
