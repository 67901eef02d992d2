/**
 * What the activity connectors read and give back (issue 48 "Activity pre-fills answers"): one
 * normalised item per thing the person did, with a link; the providers and their cloud addresses.
 */

/** The forges and trackers a person can connect (the `ActivityProvider` enum). */
export const ACTIVITY_PROVIDERS = ["github", "gitlab", "gitea", "jira", "linear"] as const;
export type ActivityProviderName = (typeof ACTIVITY_PROVIDERS)[number];

/** How each provider is named to people. */
export const PROVIDER_LABELS: Record<ActivityProviderName, string> = {
  github: "GitHub",
  gitlab: "GitLab",
  gitea: "Gitea/Forgejo",
  jira: "Jira",
  linear: "Linear",
};

/** The address used when a connection gives none (Gitea/Forgejo and Jira have no default: self-hosted or per-site). */
export const DEFAULT_BASE_URLS: Partial<Record<ActivityProviderName, string>> = {
  github: "https://api.github.com",
  gitlab: "https://gitlab.com",
  linear: "https://api.linear.app",
};

/** What kind of thing an item is. */
export type ActivityKind = "commit" | "push" | "pr_opened" | "pr_merged" | "pr_reviewed" | "issue_opened" | "issue_closed" | "issue_moved";

/** One thing the person did: `title` is the line shown ("Merged owner/repo#12: Fix login"), `at` an ISO instant. */
export type ActivityItem = { source: ActivityProviderName; kind: ActivityKind; title: string; url: string; at: string };

/** A connection as a connector uses it (token opened). */
export type ConnectorInput = { baseUrl: string; login: string; token: string };

/** The period read: from `since` to `until` (UTC instants). */
export type ActivityPeriod = { since: Date; until: Date };

/** True when `iso` lies in the period. */
export function inPeriod(iso: string, period: ActivityPeriod): boolean {
  const t = Date.parse(iso);
  return Number.isFinite(t) && t >= period.since.getTime() && t <= period.until.getTime();
}

/** The first line of a commit message, at most 120 characters. */
export function firstLine(message: string): string {
  const line = message.split("\n")[0].trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
