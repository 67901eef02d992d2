/**
 * Tracker connectors (issue 48 "Activity pre-fills answers"), plain `fetch` through lib/activity/http.ts:
 *
 * - Jira (Cloud or Server/Data Center): a JQL search for the issues whose status the person changed
 *   in the period (`status CHANGED BY currentUser() AFTER -<minutes>m`, a relative time so Jira's
 *   own time zone does not matter). Jira Cloud (`*.atlassian.net`): `GET /rest/api/3/search/jql`
 *   with `nextPageToken`, Basic auth with e-mail and API token; Server/Data Center:
 *   `GET /rest/api/2/search` with `startAt`/`maxResults`/`total`, a personal access token (Bearer)
 *   or, with a login, Basic. Resolved issues read "Resolved KEY: summary", others "Moved KEY to status".
 * - Linear: GraphQL `viewer.assignedIssues` updated in the period (`filter: {updatedAt: {gte}}`),
 *   following `pageInfo.endCursor`; completed issues read "Completed ENG-1: title", others "Moved
 *   ENG-1 to state". A personal API key goes as it is in `Authorization` (Linear's rule).
 */
import {
  ACTIVITY_MAX_PAGES,
  type ActivityHttpOptions,
  ActivitySourceError,
  arr,
  rec,
  requestJson,
  str,
  trimSlash,
} from "@/lib/activity/http";
import { type ActivityItem, type ActivityPeriod, type ConnectorInput, inPeriod } from "@/lib/activity/types";

const JIRA_PAGE = 50;

/** True for Jira Cloud sites (they have the token-paged search; Server keeps startAt). */
export function isJiraCloud(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith(".atlassian.net");
  } catch {
    return false;
  }
}

/** Normalises one Jira issue of a search answer. */
function jiraItem(issue: Record<string, unknown>, web: string, period: ActivityPeriod): ActivityItem {
  const f = rec(issue.fields);
  const key = str(issue.key);
  const resolved = str(f.resolutiondate);
  const url = `${web}/browse/${key}`;
  if (resolved && inPeriod(resolved, period)) {
    return { source: "jira", kind: "issue_closed", title: `Resolved ${key}: ${str(f.summary)}`, url, at: resolved };
  }
  return {
    source: "jira",
    kind: "issue_moved",
    title: `Moved ${key} to ${str(rec(f.status).name) || "a new status"}: ${str(f.summary)}`,
    url,
    at: str(f.updated) || period.until.toISOString(),
  };
}

/** Jira issues whose status the person changed in the period; see the module comment. @throws ActivitySourceError */
export async function fetchJiraActivity(conn: ConnectorInput, period: ActivityPeriod, http: ActivityHttpOptions): Promise<ActivityItem[]> {
  const web = trimSlash(conn.baseUrl);
  const cloud = isJiraCloud(web);
  if (cloud && !conn.login) throw new ActivitySourceError("Jira Cloud needs the account e-mail with the API token");
  const authorization = conn.login ? `Basic ${Buffer.from(`${conn.login}:${conn.token}`).toString("base64")}` : `Bearer ${conn.token}`;
  const minutes = Math.max(1, Math.ceil((period.until.getTime() - period.since.getTime()) / 60_000));
  const jql = `status CHANGED BY currentUser() AFTER -${minutes}m ORDER BY updated DESC`;
  const fields = "summary,status,resolutiondate,updated";
  const items: ActivityItem[] = [];
  let startAt = 0;
  let token: string | null = null;
  for (let page = 0; page < ACTIVITY_MAX_PAGES; page++) {
    const q = new URLSearchParams({ jql, fields, maxResults: String(JIRA_PAGE) });
    if (cloud && token) q.set("nextPageToken", token);
    if (!cloud) q.set("startAt", String(startAt));
    const path = cloud ? "/rest/api/3/search/jql" : "/rest/api/2/search";
    const { body } = await requestJson(`${web}${path}?${q}`, { headers: { authorization } }, http);
    const b = rec(body);
    const issues = arr(b.issues).map(rec);
    items.push(...issues.map((i) => jiraItem(i, web, period)));
    if (cloud) {
      token = str(b.nextPageToken) || null;
      if (!token || b.isLast === true) break;
    } else {
      startAt += issues.length;
      if (issues.length === 0 || startAt >= Number(b.total ?? 0)) break;
    }
  }
  return items;
}

const LINEAR_QUERY = `query Activity($since: DateTimeOrDuration!, $after: String) {
  viewer {
    assignedIssues(first: 50, after: $after, orderBy: updatedAt, filter: { updatedAt: { gte: $since } }) {
      nodes { identifier title url updatedAt completedAt state { name type } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

/** Linear issues of the viewer completed or moved in the period; see the module comment. @throws ActivitySourceError */
export async function fetchLinearActivity(
  conn: ConnectorInput,
  period: ActivityPeriod,
  http: ActivityHttpOptions,
): Promise<ActivityItem[]> {
  const url = `${trimSlash(conn.baseUrl)}/graphql`;
  const items: ActivityItem[] = [];
  let after: string | null = null;
  for (let page = 0; page < ACTIVITY_MAX_PAGES; page++) {
    const { body } = await requestJson(
      url,
      {
        method: "POST",
        graphql: true,
        headers: { authorization: conn.token },
        body: { query: LINEAR_QUERY, variables: { since: period.since.toISOString(), after } },
      },
      http,
    );
    const b = rec(body);
    const errors = arr(b.errors).map(rec);
    if (errors.length) {
      const code = str(rec(errors[0].extensions).code);
      throw new ActivitySourceError(
        code === "AUTHENTICATION_ERROR"
          ? "token rejected (authentication error)"
          : `GraphQL error: ${str(errors[0].message).slice(0, 200)}`,
      );
    }
    const issues = rec(rec(rec(b.data).viewer).assignedIssues);
    for (const n of arr(issues.nodes).map(rec)) {
      const done = str(n.completedAt);
      const ref = `${str(n.identifier)}: ${str(n.title)}`;
      if (done && inPeriod(done, period))
        items.push({ source: "linear", kind: "issue_closed", title: `Completed ${ref}`, url: str(n.url), at: done });
      else if (inPeriod(str(n.updatedAt), period))
        items.push({
          source: "linear",
          kind: "issue_moved",
          title: `Moved ${str(n.identifier)} to ${str(rec(n.state).name)}: ${str(n.title)}`,
          url: str(n.url),
          at: str(n.updatedAt),
        });
    }
    const info = rec(issues.pageInfo);
    after = info.hasNextPage === true ? str(info.endCursor) || null : null;
    if (!after) break;
  }
  return items;
}
