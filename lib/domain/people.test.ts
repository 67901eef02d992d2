/**
 * Integration tests of issue 11's people flows against the real test database: invitation tokens
 * (hashed, single use, 7-day expiry), accepting, roles (last admin kept), deactivation (API key
 * 401 at once, sessions ended, removed from standups, history kept), reactivation, password reset
 * tokens, bulk lists and the audit log.
 */
import { describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { verifyPassword } from "@/lib/auth/password";
import { hashToken, InvalidTokenError, issueToken, peekToken, redeemToken } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { listAudit } from "@/lib/domain/audit";
import { invitePeopleFromList, parsePeopleList } from "@/lib/domain/bulk-invite";
import { ConflictError, ForbiddenError, InvalidParameterError } from "@/lib/domain/errors";
import { changePassword, issueResetLink, passwordResetOfLink, resetPassword } from "@/lib/domain/passwords";
import {
  acceptInvitation,
  changeRole,
  deactivatePerson,
  invitationOfLink,
  invitePerson,
  listPeople,
  reactivatePerson,
} from "@/lib/domain/people";
import { getProfile, updateProfile } from "@/lib/domain/profile";
import { createTestCheckin, createTestTeam } from "@/tests/fixtures";

const BASE = "http://checkin.test";
const tokenOf = (link: string | null) => (link ?? "").split("/").pop() as string;

describe("invitation tokens", () => {
  it("stores only the hash, works once, and not after 7 days", async () => {
    const team = await createTestTeam({ members: 0 });
    const inv = await invitePerson(team.admin.actor, { email: `Grace.${team.id}@Example.com`, name: "Grace Hopper" }, { baseUrl: BASE });
    expect(inv.emailed).toBe(false);
    expect(inv.link).toMatch(new RegExp(`^${BASE}/invite/[A-Za-z0-9_-]{43}$`));
    const token = tokenOf(inv.link);
    const row = await db.authToken.findFirstOrThrow({ where: { user_id: inv.userId } });
    expect(row.hash).toBe(hashToken(token));
    expect(row.hash).not.toContain(token);
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBeGreaterThan(7 * 86_400_000 - 5_000);
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBeLessThanOrEqual(7 * 86_400_000 + 5_000);
    // not valid a moment after the 7 days
    const late = new Date(row.expires_at.getTime() + 1);
    expect(await peekToken(db, "invitation", token, late)).toBeNull();
    await expect(db.$transaction((t) => redeemToken(t, "invitation", token, late))).rejects.toBeInstanceOf(InvalidTokenError);
    // a token of another kind is not accepted
    await expect(db.$transaction((t) => redeemToken(t, "password_reset", token))).rejects.toBeInstanceOf(InvalidTokenError);
    // accepted once
    const { email } = await acceptInvitation({ token, name: "Grace B. Hopper", password: "correct horse", timezone: "America/New_York" });
    expect(email).toBe(`grace.${team.id}@example.com`);
    const user = await db.user.findUniqueOrThrow({ where: { id: inv.userId } });
    expect(user.realname).toBe("Grace B. Hopper");
    expect(user.timezone).toBe("America/New_York");
    expect(await verifyPassword(user.password_hash, "correct horse")).toBe(true);
    // ...and never again
    await expect(acceptInvitation({ token, name: "Mallory", password: "another password" })).rejects.toBeInstanceOf(InvalidTokenError);
    expect(await verifyPassword((await db.user.findUniqueOrThrow({ where: { id: inv.userId } })).password_hash, "correct horse")).toBe(
      true,
    );
    // an accepted member cannot be invited again
    await expect(invitePerson(team.admin.actor, { email: user.email, name: "x" }, { baseUrl: BASE })).rejects.toBeInstanceOf(ConflictError);
  });

  it("the invitation and reset pages read a link without using it, and nothing for a used or unknown one", async () => {
    const team = await createTestTeam({ members: 1 });
    const inv = await invitePerson(
      team.admin.actor,
      { email: `ada.${team.id}@example.com`, name: "Ada", timezone: "Europe/Berlin" },
      { baseUrl: BASE },
    );
    const token = tokenOf(inv.link);
    const shown = { email: `ada.${team.id}@example.com`, realname: "Ada", timezone: "Europe/Berlin", teamName: team.name };
    expect(await invitationOfLink(token)).toEqual(shown);
    expect(await invitationOfLink(token)).toEqual(shown); // reading does not use the link
    await acceptInvitation({ token, name: "Ada L.", password: "correct horse" });
    expect(await invitationOfLink(token)).toBeNull();
    expect(await invitationOfLink("no-such-token")).toBeNull();
    const member = team.users[1];
    const { token: reset } = await issueToken(db, { teamId: team.id, userId: member.id, kind: "password_reset" });
    expect(await passwordResetOfLink(reset)).toEqual({ email: member.email });
    expect(await passwordResetOfLink(token)).toBeNull(); // an invitation is not a reset link
    await resetPassword({ token: reset, password: "another horse" });
    expect(await passwordResetOfLink(reset)).toBeNull();
  });

  it("lets only one of two concurrent redemptions through", async () => {
    const team = await createTestTeam({ members: 1 });
    const { token } = await issueToken(db, { teamId: team.id, userId: team.users[1].id, kind: "sign_in" });
    const results = await Promise.allSettled([1, 2, 3].map(() => db.$transaction((t) => redeemToken(t, "sign_in", token))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("a re-invitation replaces the earlier link; bad input and short passwords are refused", async () => {
    const team = await createTestTeam({ members: 0 });
    const first = await invitePerson(team.admin.actor, { email: `alan.${team.id}@example.com`, name: "Alan" }, { baseUrl: BASE });
    const second = await invitePerson(team.admin.actor, { email: `alan.${team.id}@example.com`, name: "Alan" }, { baseUrl: BASE });
    expect(second.userId).toBe(first.userId);
    expect(await peekToken(db, "invitation", tokenOf(first.link))).toBeNull();
    expect(await peekToken(db, "invitation", tokenOf(second.link))).not.toBeNull();
    await expect(acceptInvitation({ token: tokenOf(second.link), name: "Alan", password: "short" })).rejects.toBeInstanceOf(
      InvalidParameterError,
    );
    expect(await peekToken(db, "invitation", tokenOf(second.link))).not.toBeNull(); // a failed accept leaves the link usable
    await expect(invitePerson(team.admin.actor, { email: "not-an-address", name: "x" }, { baseUrl: BASE })).rejects.toBeInstanceOf(
      InvalidParameterError,
    );
    await expect(
      invitePerson(team.admin.actor, { email: `tz.${team.id}@example.com`, name: "x", timezone: "Mars/Olympus" }, { baseUrl: BASE }),
    ).rejects.toThrow(/timezone/);
    await expect(
      invitePerson(team.users[0].actor, { email: `y.${team.id}@example.com`, name: "y" }, { baseUrl: BASE }),
    ).resolves.toBeTruthy();
  });

  it("members and managers cannot invite", async () => {
    const team = await createTestTeam({ members: 2 });
    const [, member, manager] = team.users;
    await changeRole(team.admin.actor, { userId: manager.id, role: "manager" });
    for (const actor of [member.actor, { ...manager.actor, isAdmin: false, role: "manager" as const }])
      await expect(invitePerson(actor, { email: `z.${team.id}@example.com`, name: "z" }, { baseUrl: BASE })).rejects.toBeInstanceOf(
        ForbiddenError,
      );
  });
});

describe("roles and deactivation", () => {
  it("changes roles, keeps at least one admin, mirrors is_admin", async () => {
    const team = await createTestTeam({ members: 1 });
    const [admin, member] = team.users;
    await expect(changeRole(admin.actor, { userId: admin.id, role: "member" })).rejects.toBeInstanceOf(ConflictError);
    /** The member's role and is_admin flag, as stored. */
    const roleOf = () => db.user.findUniqueOrThrow({ where: { id: member.id }, select: { role: true, is_admin: true } });
    await changeRole(admin.actor, { userId: member.id, role: "admin" });
    expect(await roleOf()).toEqual({ role: "admin", is_admin: true });
    await changeRole(admin.actor, { userId: member.id, role: "manager" });
    expect(await roleOf()).toEqual({ role: "manager", is_admin: false });
    const other = await createTestTeam({ members: 0 });
    await expect(changeRole(other.admin.actor, { userId: member.id, role: "admin" })).rejects.toThrow(/not found/);
  });

  it("deactivation revokes API keys at once, ends sessions, leaves standups, keeps history; reactivation lets them in again", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, member] = team.users;
    const standup = await createTestCheckin(team, { members: team.users });
    expect(await authenticateApiKey(db, member.key)).not.toBeNull();
    const before = await db.user.findUniqueOrThrow({ where: { id: member.id }, select: { session_version: true } });
    await expect(deactivatePerson(admin.actor, { teamId: team.id, userId: admin.id })).rejects.toBeInstanceOf(ConflictError);
    await deactivatePerson(admin.actor, { teamId: team.id, userId: member.id });
    expect(await authenticateApiKey(db, member.key)).toBeNull();
    expect(await authenticateApiKey(db, `Bearer ${member.key}`)).toBeNull();
    const after = await db.user.findUniqueOrThrow({ where: { id: member.id }, select: { session_version: true, deactivated_at: true } });
    expect(after.session_version).toBe(before.session_version + 1);
    expect(after.deactivated_at).not.toBeNull();
    expect(await db.checkinMember.count({ where: { checkin_id: standup.id, user_id: member.id } })).toBe(0);
    expect(await db.channelMember.count({ where: { user_id: member.id } })).toBe(0);
    expect((await listPeople(admin.actor)).find((p) => p.id === member.id)?.status).toBe("deactivated");
    expect((await listPeople(team.users[2].actor)).some((p) => p.id === member.id)).toBe(false);
    await reactivatePerson(admin.actor, { teamId: team.id, userId: member.id });
    expect((await db.user.findUniqueOrThrow({ where: { id: member.id } })).deactivated_at).toBeNull();
    expect(await authenticateApiKey(db, member.key)).toBeNull(); // keys stay revoked
    const audit = await listAudit(admin.actor, { action: "user.deactivate" });
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({
      target: `user:${member.id}`,
      actor: { id: admin.id },
      details: { revokedApiKeys: 1, removedFromCheckins: 1, removedFromChannels: 2 },
    });
  });
});

describe("passwords and profile", () => {
  it("changes a password with the current one; a reset link works once and ends other sessions", async () => {
    const team = await createTestTeam({ members: 1 });
    const [admin, member] = team.users;
    await changePassword(member.actor, { current: "", next: "first password" }); // no password yet
    await expect(changePassword(member.actor, { current: "wrong", next: "second password" })).rejects.toThrow(/current password/);
    await changePassword(member.actor, { current: "first password", next: "second password" });
    const { link } = await issueResetLink(admin.actor, { userId: member.id, baseUrl: BASE });
    await expect(issueResetLink(member.actor, { userId: admin.id, baseUrl: BASE })).rejects.toBeInstanceOf(ForbiddenError);
    const sv = (await db.user.findUniqueOrThrow({ where: { id: member.id } })).session_version;
    await resetPassword({ token: tokenOf(link), password: "third password" });
    const after = await db.user.findUniqueOrThrow({ where: { id: member.id } });
    expect(await verifyPassword(after.password_hash, "third password")).toBe(true);
    expect(after.session_version).toBe(sv + 1);
    await expect(resetPassword({ token: tokenOf(link), password: "fourth password" })).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it("updates the profile with any IANA zone and refuses bad values", async () => {
    const team = await createTestTeam({ members: 1 });
    const member = team.users[1];
    await updateProfile(member.actor, {
      name: "  Ada   Lovelace ",
      timezone: "Australia/Lord_Howe",
      avatarUrl: "https://img.example/a.png",
      notificationChannel: "email",
    });
    expect(await getProfile(member.actor)).toMatchObject({
      realname: "Ada Lovelace",
      timezone: "Australia/Lord_Howe",
      avatarUrl: "https://img.example/a.png",
      notificationChannel: "email",
    });
    await expect(updateProfile(member.actor, { name: "A", timezone: "Nowhere/City", notificationChannel: "web" })).rejects.toThrow(
      /timezone/,
    );
    await expect(
      updateProfile(member.actor, { name: "A", timezone: "UTC", avatarUrl: "javascript:alert(1)", notificationChannel: "web" }),
    ).rejects.toThrow(/URL/);
    await expect(updateProfile(member.actor, { name: "A", timezone: "UTC", notificationChannel: "pigeon" })).rejects.toThrow(/channel/);
  });
});

describe("bulk add and audit log", () => {
  it("parses pasted lists and CSV with a header", () => {
    expect(
      parsePeopleList("Ada Lovelace, ada@x.test, Europe/London\nalan.turing@x.test\nGrace Hopper <grace@x.test>").map((l) => l.input),
    ).toEqual([
      { name: "Ada Lovelace", email: "ada@x.test", timezone: "Europe/London" },
      { name: "Alan Turing", email: "alan.turing@x.test", timezone: undefined },
      { name: "Grace Hopper", email: "grace@x.test", timezone: undefined },
    ]);
    expect(parsePeopleList('email,name,role\nb@x.test,"Lee, Bo",manager\n').map((l) => l.input)).toEqual([
      { email: "b@x.test", name: "Lee, Bo", timezone: undefined, role: "manager" },
    ]);
    expect(() => parsePeopleList("   \n")).toThrow(/empty/);
  });

  it("invites each line on its own, reports failures, and audits each invitation", async () => {
    const team = await createTestTeam({ members: 0 });
    const t = team.id;
    const out = await invitePeopleFromList(
      team.admin.actor,
      `One, one.${t}@x.test\nbroken line\nTwo, two.${t}@x.test, Asia/Kolkata\nOne again, one.${t}@x.test`,
      { baseUrl: BASE },
    );
    expect(out.map((o) => o.ok)).toEqual([true, false, true, true]);
    expect(out[1]).toMatchObject({ ok: false, error: expect.stringMatching(/e-mail/) });
    const audit = await listAudit(team.admin.actor, { action: "user.invite" });
    expect(audit.items).toHaveLength(3);
    expect(audit.items[0]).toMatchObject({ details: { reinvite: true } });
    const people = await listPeople(team.admin.actor);
    expect(
      people
        .filter((p) => p.status === "invited" && p.email.endsWith(`.${t}@x.test`))
        .map((p) => p.timezone)
        .sort(),
    ).toEqual(["Asia/Kolkata", "UTC"]);
  });

  it("is readable by admins only, filterable, paged newest first, and team-scoped", async () => {
    const team = await createTestTeam({ members: 2 });
    const [admin, a, b] = team.users;
    await changeRole(admin.actor, { userId: a.id, role: "manager" });
    await changeRole(admin.actor, { userId: b.id, role: "admin" });
    await deactivatePerson({ ...b.actor, isAdmin: true, role: "admin" }, { teamId: team.id, userId: a.id });
    const all = await listAudit(admin.actor, { limit: 2 });
    expect(all.items.map((i) => i.action)).toEqual(["user.deactivate", "user.role_change"]);
    const rest = await listAudit(admin.actor, { limit: 2, before: all.nextBefore ?? undefined });
    expect(rest.items.map((i) => i.action)).toEqual(["user.role_change"]);
    expect(rest.nextBefore).toBeNull();
    expect((await listAudit(admin.actor, { actorId: b.id })).items.map((i) => i.action)).toEqual(["user.deactivate"]);
    await expect(listAudit(a.actor)).rejects.toBeInstanceOf(ForbiddenError);
    const other = await createTestTeam({ members: 0 });
    expect((await listAudit(other.admin.actor)).items).toEqual([]);
  });
});
