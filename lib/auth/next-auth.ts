/**
 * next-auth (v4) options for the dashboard: JWT sessions carrying the user id and team id.
 *
 * Providers:
 * - Credentials (email + password, argon2id hashes checked with `verifyPassword`) — always on.
 * - One-time sign-in links (`link`: a `sign_in` token from `npm run team -- create`, redeemed once).
 * - GitHub, Google and one generic OIDC provider — each switched on when its env vars are set
 *   (see `.env.example`). An OAuth/OIDC sign-in is accepted when its (verified) email matches an
 *   existing, active user, or, when the email's domain is in `AUTH_ALLOWED_DOMAINS`, creates that
 *   person as a member on first sign-in (lib/auth/oauth-users.ts).
 * The JWT carries the user's `session_version`; lib/auth/session.ts ends sessions of an older
 * version (deactivation, password reset).
 *
 * The secret comes from `AUTH_SECRET` (or `NEXTAUTH_SECRET`); when neither is set a random secret
 * is generated once into `$CHECKIN_DATA_DIR/auth-secret` so sessions survive restarts.
 * The origin is taken from the request's Host header unless `NEXTAUTH_URL` is set
 * (`AUTH_TRUST_HOST` defaults to true: the app is self-hosted behind a proxy you configure).
 */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import type { OAuthConfig, Provider } from "next-auth/providers/index";
import { safeRedirectUrl } from "@/lib/auth/callback-url";
import { findOrCreateOAuthUser } from "@/lib/auth/oauth-users";
import { verifyPassword } from "@/lib/auth/password";
import { redeemToken } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { activeUserIdByEmail } from "@/lib/domain/exact-lookup";
import { authSecret, defaultAuthTrustHost, type OAuthClient, oauthSettings } from "@/lib/env";

defaultAuthTrustHost();

/**
 * The active user a sign-in email belongs to (oldest account when several teams share it), compared
 * exactly ignoring case (lib/domain/exact-lookup.ts); null for an address of the wrong shape.
 */
async function findActiveUserByEmail(email: string) {
  const id = await activeUserIdByEmail(email);
  if (id === null) return null;
  return db.user.findFirst({
    where: { id, deactivated_at: null },
    select: { id: true, team_id: true, email: true, realname: true, password_hash: true, avatar_url: true, session_version: true },
  });
}

/** A generic OpenID Connect provider configured by OIDC_ISSUER / OIDC_CLIENT_ID / OIDC_CLIENT_SECRET (lib/env.ts). */
function oidcProvider(config: OAuthClient & { issuer: string; name: string }): OAuthConfig<Record<string, unknown>> {
  const issuer = config.issuer;
  return {
    id: "oidc",
    name: config.name,
    type: "oauth",
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    issuer,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: String(profile.sub),
        email: typeof profile.email === "string" ? profile.email : null,
        name: typeof profile.name === "string" ? profile.name : null,
      };
    },
  };
}

/** The providers switched on by the environment (credentials always first). */
export function enabledProviders(): Provider[] {
  const providers: Provider[] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const email = credentials?.email?.trim();
        const password = credentials?.password ?? "";
        if (!email || !password) return null;
        const user = await findActiveUserByEmail(email);
        // Verify even when the user is unknown so timing does not reveal which emails exist.
        const ok = await verifyPassword(user?.password_hash ?? DUMMY_HASH, password);
        if (!user || !ok) return null;
        return { id: String(user.id), email: user.email, name: user.realname, image: user.avatar_url };
      },
    }),
    CredentialsProvider({
      id: "link",
      name: "One-time sign-in link",
      credentials: { token: { label: "Token", type: "text" } },
      async authorize(credentials) {
        const token = credentials?.token ?? "";
        try {
          const { userId } = await db.$transaction((t) => redeemToken(t, "sign_in", token));
          const user = await db.user.findUniqueOrThrow({
            where: { id: userId },
            select: { id: true, email: true, realname: true, avatar_url: true },
          });
          return { id: String(user.id), email: user.email, name: user.realname, image: user.avatar_url };
        } catch {
          return null;
        }
      },
    }),
  ];
  const oauth = oauthSettings();
  if (oauth.github) providers.push(GitHubProvider(oauth.github));
  if (oauth.google) providers.push(GoogleProvider(oauth.google));
  if (oauth.oidc) providers.push(oidcProvider(oauth.oidc));
  return providers;
}

/** argon2id hash of a random string, verified against when the email is unknown (constant work). */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$Wbem0EHUBH8A42rrzOUB9A$LW4B6UDkC9O2k6pvgK6/LOgZULmWYCb1hbTgvGN9iB4";

/** OAuth providers on (id + display name), for the sign-in page buttons. */
export function oauthProviderButtons(): Array<{ id: string; name: string }> {
  return enabledProviders()
    .filter((p) => p.type === "oauth")
    .map((p) => ({ id: p.id, name: p.name }));
}

/** next-auth errors a client causes (a session cookie that does not decode): logged on one line. */
const CLIENT_CAUSED_ERRORS = new Set(["JWT_SESSION_ERROR"]);

/**
 * next-auth's error log: one line for what clients cause (issue 40: a forged cookie on every
 * request was a multi-line dump each), next-auth's own format for the rest. With a `logger` set,
 * next-auth would also write what clients POST to `/api/auth/_log` into this log: the auth route
 * answers that path itself (lib/auth/auth-route.ts).
 */
function logAuthError(code: string, metadata: unknown): void {
  if (!CLIENT_CAUSED_ERRORS.has(code)) {
    console.error(`[next-auth][error][${code}]`, metadata);
    return;
  }
  const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
  console.warn(`next-auth: ${code}: ${error instanceof Error ? error.message : String(error)} (ignored: no session)`);
}

/** next-auth options shared by the route handler and `getServerSession`. */
export const authOptions: NextAuthOptions = {
  get secret() {
    return authSecret();
  },
  get providers() {
    return enabledProviders();
  },
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  logger: { error: logAuthError },
  callbacks: {
    async redirect({ url, baseUrl }) {
      return safeRedirectUrl(url, baseUrl);
    },
    async signIn({ user, account, profile }) {
      if (!account || account.type === "credentials") return true;
      const email = user.email ?? (typeof profile?.email === "string" ? profile.email : null);
      if (!email) return false;
      if (account.provider === "google" && (profile as { email_verified?: boolean } | undefined)?.email_verified === false) return false;
      const match =
        (await findActiveUserByEmail(email)) ??
        (await findOrCreateOAuthUser({ email, name: user.name ?? null, image: user.image ?? null }));
      return match ? true : "/sign-in?error=AccessDenied";
    },
    async jwt({ token, user, account }) {
      if (user && account) {
        if (account.type === "credentials") {
          const row = await db.user.findUnique({
            where: { id: Number(user.id) },
            select: { id: true, team_id: true, session_version: true },
          });
          if (row) {
            token.uid = row.id;
            token.tid = row.team_id;
            token.sv = row.session_version;
          }
        } else if (user.email) {
          const row = await findActiveUserByEmail(user.email);
          if (row) {
            token.uid = row.id;
            token.tid = row.team_id;
            token.sv = row.session_version;
            token.name = row.realname;
          }
        }
      }
      return token;
    },
    async session({ session, token }) {
      if (typeof token.uid === "number" && typeof token.tid === "number") {
        session.userId = token.uid;
        session.teamId = token.tid;
        session.sessionVersion = token.sv ?? 0;
      }
      return session;
    },
  },
};

declare module "next-auth" {
  interface Session {
    userId?: number;
    teamId?: number;
    sessionVersion?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: number;
    tid?: number;
    sv?: number;
  }
}
