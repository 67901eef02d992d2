/**
 * Issue 40 item 5: e-mail addresses and channel names are compared exactly (ignoring case), never
 * as LIKE patterns. On bc3e8e5 `mode: "insensitive"` equalities ran as unescaped ILIKE: signing in
 * as `%`-something with a known password signed in as someone else, and `broadcast_channel` `%`,
 * `g_neral` or `#%` resolved to #general.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as v1Standups from "@/app/v1/standups/route";
import * as v2Standups from "@/app/v2/standups/route";
import { enabledProviders } from "@/lib/auth/next-auth";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { emailKey, usersByEmail } from "@/lib/domain/exact-lookup";
import { resolveUserEmails } from "@/lib/domain/members";
import { createTestTeam, type TestTeam } from "@/tests/fixtures";
import { call } from "@/tests/http";

let A: TestTeam;
beforeAll(async () => {
  A = await createTestTeam({ members: 2 });
});

/** Patterns that, as LIKE, would match `value` (a name or an address). */
function patternsOf(value: string): string[] {
  return ["%", `${value.slice(0, 3)}%`, `%${value.slice(3)}`, `${value.slice(0, -1)}_`, `_${value.slice(1)}`];
}

describe("sign-in with an address pattern", () => {
  it("only the exact address (any case, surrounding spaces) signs in; % and _ patterns do not", async () => {
    const member = A.users[1];
    await db.user.update({ where: { id: member.id }, data: { password_hash: await hashPassword("pattern-pass-1") } });
    const { authorize } = (
      enabledProviders()[0] as unknown as {
        options: { authorize: (c: Record<string, string>) => Promise<{ id: string } | null> };
      }
    ).options;
    expect(await authorize({ email: ` ${member.email.toUpperCase()} `, password: "pattern-pass-1" })).toMatchObject({
      id: String(member.id),
    });
    for (const email of patternsOf(member.email)) expect(await authorize({ email, password: "pattern-pass-1" }), email).toBeNull();
  });

  it("addresses are checked for their shape first (zod's e-mail check)", () => {
    expect(emailKey(" Ann@Example.COM ")).toBe("ann@example.com");
    for (const bad of ["%", "a%@example.com", "admin@acme.exampl_", "ann", "", 42]) expect(emailKey(bad), String(bad)).toBeNull();
  });

  it("usersByEmail and resolveUserEmails match no one for a pattern", async () => {
    const member = A.users[2];
    expect((await usersByEmail([member.email.toUpperCase()], { teamId: A.id })).map((u) => u.id)).toEqual([member.id]);
    for (const p of patternsOf(member.email)) {
      expect(await usersByEmail([p], { teamId: A.id })).toEqual([]);
      await expect(resolveUserEmails({ teamId: A.id }, [p])).rejects.toMatchObject({ code: "USER_NOT_FOUND" });
    }
  });
});

describe("broadcast_channel patterns", () => {
  const v2Body = (ref: string) => ({ questions: [{ text: "Q?" }], days: ["Mon"], time: "09:30", broadcast_channel: ref });
  const v1Body = (ref: string) => ({ name: "Exact", channel: ref, time: "08:30:00", days: ["Mon"], users: [A.users[1].id] });

  it("400 CHANNEL_NOT_FOUND for %, #%, g_neral-like and prefix% names (v2 and v1); the name in another case still resolves", async () => {
    const general = A.channels[0];
    const refs = [...patternsOf(general.name), "#%", `#${general.name.slice(0, -1)}_`];
    for (const ref of refs) {
      const v2 = await call(v2Standups.POST, { method: "POST", path: "/v2/standups", key: A.admin.key, body: v2Body(ref) });
      expect([ref, v2.status, v2.body?.error?.code]).toEqual([ref, 400, "CHANNEL_NOT_FOUND"]);
      const v1 = await call(v1Standups.POST, { method: "POST", path: "/v1/standups/", key: A.admin.key, body: v1Body(ref) });
      expect([ref, v1.status]).toEqual([ref, 400]);
    }
    const ok = await call(v2Standups.POST, {
      method: "POST",
      path: "/v2/standups",
      key: A.admin.key,
      body: v2Body(`#${general.name.toUpperCase()}`),
    });
    expect(ok.status).toBe(201);
    const row = await db.checkin.findUniqueOrThrow({ where: { id: ok.body.data.id } });
    expect(row.broadcast_channel_id).toBe(general.id);
  });
});
