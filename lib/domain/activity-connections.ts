/**
 * Activity connections (issue 48 "Activity pre-fills answers"): each person may connect GitHub
 * (or GitHub Enterprise), GitLab (gitlab.com or self-hosted), Gitea/Forgejo, Jira (Cloud or
 * Server) and Linear on their Profile, with an access token. The token is sealed with
 * lib/domain/secret-box.ts (AES-256-GCM under a key derived from AUTH_SECRET) before it is stored
 * and is never shown again; the base URL is checked against the webhook address policy
 * (lib/chat/webhook-url.ts) when saved and before every request. What is read and when:
 * lib/domain/activity-suggestions.ts and lib/activity/.
 */
import { isJiraCloud } from "@/lib/activity/trackers";
import { ACTIVITY_PROVIDERS, type ActivityProviderName, DEFAULT_BASE_URLS, PROVIDER_LABELS } from "@/lib/activity/types";
import { db, type Tx } from "@/lib/db";
import type { Actor } from "@/lib/domain/actor";
import { InvalidParameterError, NotFoundError } from "@/lib/domain/errors";
import { sealSecret } from "@/lib/domain/secret-box";
import { webhookUrlProblem } from "@/lib/domain/webhook-url";
import { deliverySettings } from "@/lib/env";

/** Most connections per person. */
export const MAX_CONNECTIONS_PER_PERSON = 10;
const MAX_TOKEN_LENGTH = 1000;
const MAX_LOGIN_LENGTH = 200;
const MAX_URL_LENGTH = 500;

/** A connection as shown to its owner: never the token. */
export type ActivityConnectionView = {
  id: number;
  provider: ActivityProviderName;
  label: string;
  baseUrl: string;
  login: string;
  lastFetchedAt: Date | null;
  lastError: string | null;
};

/** Input of `addActivityConnection` (form fields; `baseUrl` empty: the provider's cloud address). */
export type ActivityConnectionInput = { provider: string; baseUrl?: string; login?: string; token: string };

function isProvider(p: string): p is ActivityProviderName {
  return (ACTIVITY_PROVIDERS as readonly string[]).includes(p);
}

/**
 * Validates a connection's fields: provider, base URL (default the cloud address; Gitea/Forgejo
 * and Jira need one; http(s), no credentials, the address policy), login (required for GitHub and
 * Gitea, whose APIs read a user's feed by name, and for Jira Cloud: the account e-mail) and token.
 * @throws InvalidParameterError naming the field.
 */
async function checkConnection(
  input: ActivityConnectionInput,
): Promise<{ provider: ActivityProviderName; baseUrl: string; login: string; token: string }> {
  const provider = String(input.provider ?? "").trim();
  if (!isProvider(provider)) throw new InvalidParameterError(`provider: one of ${ACTIVITY_PROVIDERS.join(", ")}`);
  const label = PROVIDER_LABELS[provider];
  const baseUrl = (String(input.baseUrl ?? "").trim() || DEFAULT_BASE_URLS[provider] || "").replace(/\/+$/, "");
  if (!baseUrl) throw new InvalidParameterError(`baseUrl: ${label} needs the address of your server`);
  if (baseUrl.length > MAX_URL_LENGTH) throw new InvalidParameterError(`baseUrl: at most ${MAX_URL_LENGTH} characters`);
  const login = String(input.login ?? "").trim();
  if (login.length > MAX_LOGIN_LENGTH) throw new InvalidParameterError(`login: at most ${MAX_LOGIN_LENGTH} characters`);
  const cloudJira = provider === "jira" && isJiraCloud(baseUrl);
  if (!login && (provider === "github" || provider === "gitea"))
    throw new InvalidParameterError(`login: your ${label} user name is required`);
  if (!login && cloudJira) throw new InvalidParameterError("login: Jira Cloud needs your account e-mail");
  const token = String(input.token ?? "").trim();
  if (!token) throw new InvalidParameterError("token: required");
  if (token.length > MAX_TOKEN_LENGTH || /\s/.test(token)) throw new InvalidParameterError("token: not a valid access token");
  // The address policy last: it may resolve the host name.
  const problem = await webhookUrlProblem(baseUrl, { allowPrivate: deliverySettings().webhooksAllowPrivate });
  if (problem) throw new InvalidParameterError(`baseUrl: ${problem}`);
  return { provider, baseUrl, login, token };
}

/** The actor's own activity connections, oldest first (tokens never included). */
export async function listMyActivityConnections(actor: Actor, tx: Tx = db): Promise<ActivityConnectionView[]> {
  const rows = await tx.activityConnection.findMany({
    where: { team_id: actor.teamId, user_id: actor.userId },
    orderBy: { id: "asc" },
    select: { id: true, provider: true, base_url: true, login: true, last_fetched_at: true, last_error: true },
  });
  return rows.map((r) => ({
    id: r.id,
    provider: r.provider,
    label: PROVIDER_LABELS[r.provider],
    baseUrl: r.base_url,
    login: r.login,
    lastFetchedAt: r.last_fetched_at,
    lastError: r.last_error,
  }));
}

/**
 * Adds a connection to the actor's own activity sources, its token sealed (`sealSecret`).
 * @throws InvalidParameterError (a refused field, more than MAX_CONNECTIONS_PER_PERSON connections).
 */
export async function addActivityConnection(actor: Actor, input: ActivityConnectionInput, tx: Tx = db): Promise<{ id: number }> {
  const c = await checkConnection(input);
  const count = await tx.activityConnection.count({ where: { team_id: actor.teamId, user_id: actor.userId } });
  if (count >= MAX_CONNECTIONS_PER_PERSON)
    throw new InvalidParameterError(`At most ${MAX_CONNECTIONS_PER_PERSON} activity connections per person`);
  return tx.activityConnection.create({
    data: {
      team_id: actor.teamId,
      user_id: actor.userId,
      provider: c.provider,
      base_url: c.baseUrl,
      login: c.login,
      token_sealed: sealSecret(c.token),
    },
    select: { id: true },
  });
}

/** Removes one of the actor's own connections (its sealed token goes with it). @throws NotFoundError */
export async function removeActivityConnection(actor: Actor, input: { connectionId: number }, tx: Tx = db): Promise<void> {
  const id = Number(input.connectionId);
  const r = Number.isInteger(id)
    ? await tx.activityConnection.deleteMany({ where: { id, team_id: actor.teamId, user_id: actor.userId } })
    : { count: 0 };
  if (r.count === 0) throw new NotFoundError("Activity connection");
}
