/**
 * One source's activity (issue 48 "Activity pre-fills answers"): dispatches to the provider's
 * connector (lib/activity/forges.ts, lib/activity/trackers.ts), then de-duplicates, sorts newest
 * first and caps the items. Never throws: a failing source comes back with its reason in words.
 */
import { fetchGiteaActivity, fetchGithubActivity, fetchGitlabActivity } from "@/lib/activity/forges";
import { ACTIVITY_MAX_ITEMS, type ActivityHttpOptions, ActivitySourceError } from "@/lib/activity/http";
import { fetchJiraActivity, fetchLinearActivity } from "@/lib/activity/trackers";
import type { ActivityItem, ActivityPeriod, ActivityProviderName, ConnectorInput } from "@/lib/activity/types";

const CONNECTORS: Record<
  ActivityProviderName,
  (conn: ConnectorInput, period: ActivityPeriod, http: ActivityHttpOptions) => Promise<ActivityItem[]>
> = {
  github: fetchGithubActivity,
  gitlab: fetchGitlabActivity,
  gitea: fetchGiteaActivity,
  jira: fetchJiraActivity,
  linear: fetchLinearActivity,
};

/** A source's result: its items, or the reason it gave none. */
export type SourceResult = { ok: true; items: ActivityItem[] } | { ok: false; error: string };

/**
 * Reads one connection's activity in `period`: at most ACTIVITY_MAX_ITEMS items, newest first,
 * one per (kind, link). Connector errors become `{ ok: false, error }` ("token rejected (401)");
 * anything unexpected too ("failed: …"), so one broken source never stops the others.
 */
export async function fetchSourceActivity(
  provider: ActivityProviderName,
  conn: ConnectorInput,
  period: ActivityPeriod,
  http: ActivityHttpOptions,
): Promise<SourceResult> {
  try {
    const items = await CONNECTORS[provider](conn, period, http);
    const seen = new Set<string>();
    const unique = items.filter((i) => {
      const key = `${i.kind} ${i.url} ${i.title}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    unique.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    return { ok: true, items: unique.slice(0, ACTIVITY_MAX_ITEMS) };
  } catch (err) {
    if (err instanceof ActivitySourceError) return { ok: false, error: err.message };
    return { ok: false, error: `failed: ${(err as Error).message}` };
  }
}
