/**
 * The Slack workspace sync (issue 11) against the fake Slack Web API server (tests/fakes/slack.ts,
 * a real HTTP server on 127.0.0.1 driven through @slack/web-api) and the real test database:
 * people matched by e-mail take Slack's ids, others are created as members, channels and
 * memberships follow Slack, deleted Slack users are deactivated, and a second run changes nothing.
 */
import { describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { syncSlackWorkspace } from "@/lib/chat/slack-sync";
import { db } from "@/lib/db";
import { listAudit } from "@/lib/domain/audit";
import { startFakeSlack } from "@/tests/fakes/slack";
import { createTestTeam } from "@/tests/fixtures";

describe("slack sync", () => {
  it("imports people, channels and memberships, deactivates deleted users, and is idempotent", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, known, leaver] = team.users;
    const s = team.id;
    const fake = await startFakeSlack({
      users: [
        { id: `UA${s}`, name: "known", real_name: "Known Person", email: known.email.toUpperCase(), tz: "Europe/Berlin" },
        { id: `UB${s}`, name: "newbie", real_name: "New Person", email: `new.${s}@example.test`, tz: "Asia/Kolkata" },
        { id: `UC${s}`, name: "leaver", real_name: "Leaver", email: leaver.email, deleted: true },
        { id: `UD${s}`, name: "hidden", real_name: "No Email" },
        { id: `UBOT${s}`, name: "bot", real_name: "A Bot", is_bot: true },
      ],
      channels: [
        { id: `CG${s}`, name: team.channels[0].name, members: [`UA${s}`, `UB${s}`] },
        { id: `CN${s}`, name: `design-${s}`, members: [`UB${s}`, `UD${s}`] },
        { id: `CX${s}`, name: `old-${s}`, members: [`UA${s}`], is_archived: true },
      ],
    });
    /** One workspace sync of the test team against the fake; returns its counts. */
    const sync = () => syncSlackWorkspace({ teamId: team.id, token: fake.token, apiUrl: fake.apiUrl });
    try {
      const first = await sync();
      expect(first).toEqual({
        usersCreated: 1,
        usersMatched: 1,
        usersDeactivated: 1,
        usersSkipped: 1,
        channelsCreated: 2,
        channelsMatched: 1,
        membershipsAdded: 2,
        membershipsRemoved: 1, // the admin (not in Slack) leaves #general; the leaver left it on deactivation
      });
      // matched by e-mail: the Slack id becomes the chat id the API shows
      expect((await db.user.findUniqueOrThrow({ where: { id: known.id } })).chat_id).toBe(`UA${s}`);
      const created = await db.user.findFirstOrThrow({ where: { team_id: team.id, chat_id: `UB${s}` } });
      expect(created).toMatchObject({
        email: `new.${s}@example.test`,
        realname: "New Person",
        role: "member",
        timezone: "Asia/Kolkata",
        password_hash: null,
      });
      // deleted in Slack → deactivated here, API key refused at once
      expect((await db.user.findUniqueOrThrow({ where: { id: leaver.id } })).deactivated_at).not.toBeNull();
      expect(await authenticateApiKey(db, leaver.key)).toBeNull();
      // channels: existing one matched by name takes the Slack id; new and archived ones created
      const general = await db.channel.findUniqueOrThrow({ where: { id: team.channels[0].id }, include: { members: true } });
      expect(general.chat_id).toBe(`CG${s}`);
      expect(general.members.map((m) => m.user_id).sort()).toEqual([known.id, created.id].sort());
      const design = await db.channel.findFirstOrThrow({ where: { chat_id: `CN${s}` }, include: { members: true } });
      expect(design.members.map((m) => m.user_id)).toEqual([created.id]);
      expect((await db.channel.findFirstOrThrow({ where: { chat_id: `CX${s}` } })).archived_at).not.toBeNull();
      // the admin stays (not in Slack, never deactivated by a sync)
      expect((await db.user.findUniqueOrThrow({ where: { id: admin.id } })).deactivated_at).toBeNull();
      // pages through Slack's cursors like the real API (limit 200 per call)
      expect(fake.callsOf("users.list").length).toBeGreaterThan(0);

      const second = await sync();
      expect(second).toMatchObject({
        usersCreated: 0,
        usersDeactivated: 0,
        channelsCreated: 0,
        membershipsAdded: 0,
        membershipsRemoved: 0,
      });
      const audit = await listAudit(admin.actor, { action: "slack.sync" });
      expect(audit.items).toHaveLength(2);

      // a member joins a channel in Slack: the next sync (the member_joined_channel job) adds them
      fake.channels.find((c) => c.id === `CN${s}`)?.members.push(`UA${s}`);
      const third = await sync();
      expect(third.membershipsAdded).toBe(1);
    } finally {
      await fake.close();
    }
  });
});
