/** Provider switching by environment variables and the credentials check of the dashboard sign-in. */
import { afterEach, describe, expect, it } from "vitest";
import { authOptions, enabledProviders, oauthProviderButtons } from "@/lib/auth/next-auth";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { createTestTeam } from "@/tests/fixtures";

const KEYS = [
  "GITHUB_CLIENT_ID",
  "GITHUB_CLIENT_SECRET",
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "OIDC_ISSUER",
  "OIDC_CLIENT_ID",
  "OIDC_CLIENT_SECRET",
  "OIDC_NAME",
];

afterEach(() => {
  for (const k of KEYS) delete process.env[k];
});

describe("providers", () => {
  it("has only the credential providers (password, one-time link) by default", () => {
    // next-auth v4 keeps a credentials provider's own id in `options` and applies it at runtime
    const ids = enabledProviders().map((p) => (p as { options?: { id?: string } }).options?.id ?? p.id);
    expect(ids).toEqual(["credentials", "link"]);
    expect(oauthProviderButtons()).toEqual([]);
  });

  it("switches GitHub, Google and generic OIDC on by env", () => {
    Object.assign(process.env, {
      GITHUB_CLIENT_ID: "gh",
      GITHUB_CLIENT_SECRET: "ghs",
      GOOGLE_CLIENT_ID: "g",
      GOOGLE_CLIENT_SECRET: "gs",
      OIDC_ISSUER: "https://id.example.com/realms/acme/",
      OIDC_CLIENT_ID: "o",
      OIDC_CLIENT_SECRET: "os",
      OIDC_NAME: "Acme SSO",
    });
    expect(oauthProviderButtons()).toEqual([
      { id: "github", name: "GitHub" },
      { id: "google", name: "Google" },
      { id: "oidc", name: "Acme SSO" },
    ]);
    const oidc = enabledProviders().find((p) => p.id === "oidc") as { wellKnown?: string };
    expect(oidc.wellKnown).toBe("https://id.example.com/realms/acme/.well-known/openid-configuration");
  });

  it("uses AUTH_SECRET as the JWT secret", () => {
    expect(authOptions.secret).toBe(process.env.AUTH_SECRET);
  });
});

describe("credentials sign-in", () => {
  it("accepts the right password (email case-insensitive), rejects wrong ones and deactivated users", async () => {
    const team = await createTestTeam({ members: 1 });
    const [, member] = team.users;
    await db.user.update({ where: { id: member.id }, data: { password_hash: await hashPassword("s3cret-pass") } });
    const credentials = enabledProviders()[0] as unknown as {
      options: { authorize: (c: Record<string, string>) => Promise<{ id: string } | null> };
    };
    const authorize = credentials.options.authorize;
    expect(await authorize({ email: member.email.toUpperCase(), password: "s3cret-pass" })).toMatchObject({ id: String(member.id) });
    expect(await authorize({ email: member.email, password: "wrong" })).toBeNull();
    expect(await authorize({ email: "nobody@nowhere.example", password: "s3cret-pass" })).toBeNull();
    await db.user.update({ where: { id: member.id }, data: { deactivated_at: new Date() } });
    expect(await authorize({ email: member.email, password: "s3cret-pass" })).toBeNull();
  });

  it("puts the user id and team id into the JWT", async () => {
    const team = await createTestTeam({ members: 0 });
    const jwt = authOptions.callbacks?.jwt;
    const token = await jwt?.({
      token: {},
      user: { id: String(team.admin.id) },
      account: { provider: "credentials", type: "credentials", providerAccountId: "x" },
    } as never);
    expect(token).toMatchObject({ uid: team.admin.id, tid: team.id });
  });
});
