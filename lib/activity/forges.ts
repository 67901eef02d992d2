/**
 * Forge connectors (issue 48 "Activity pre-fills answers"), plain `fetch` through lib/activity/http.ts
 * (time limit, size cap, address policy on every page):
 *
 * - GitHub / GitHub Enterprise: `GET {api}/users/{login}/events` (REST, newest first; with the
 *   person's token it includes their private events), following `Link: rel="next"` pages until an
 *   event older than the period. Reads pushes (each commit when the payload lists them, else one
 *   "pushed N commits" line with the compare link), pull requests opened and merged, reviews,
 *   issues opened and closed.
 * - GitLab (gitlab.com or self-hosted): `GET {host}/api/v4/events?after=…` (the token's user's
 *   events), following `X-Next-Page`; project web addresses from `GET /api/v4/projects/{id}`.
 *   Reads pushes, merge requests opened/merged/approved, issues opened/closed.
 * - Gitea / Forgejo: `GET {host}/api/v1/users/{login}/activities/feeds?only-performed-by=true`,
 *   following `Link: rel="next"`. Reads commits, pull requests opened/merged/
 *   reviewed, issues opened/closed.
 */
import {
  ACTIVITY_MAX_PAGES,
  type ActivityHttpOptions,
  ActivitySourceError,
  arr,
  nextLink,
  rec,
  requestJson,
  sameOrigin,
  str,
  trimSlash,
} from "@/lib/activity/http";
import { type ActivityItem, type ActivityPeriod, type ConnectorInput, firstLine, inPeriod } from "@/lib/activity/types";

/** The web address of a GitHub API root: api.github.com → github.com; GHE `…/api/v3` → the host. */
export function githubWebUrl(apiBase: string): string {
  const base = trimSlash(apiBase);
  if (/^https?:\/\/api\.github\.com$/i.test(base)) return "https://github.com";
  return base.replace(/\/api\/v3$/i, "");
}

/** Normalises one GitHub event (REST "events" payload shapes) into items. */
function githubItems(e: Record<string, unknown>, web: string): ActivityItem[] {
  const at = str(e.created_at);
  const repo = str(rec(e.repo).name);
  const p = rec(e.payload);
  const item = (kind: ActivityItem["kind"], title: string, url: string): ActivityItem => ({ source: "github", kind, title, url, at });
  switch (str(e.type)) {
    case "PushEvent": {
      const commits = arr(p.commits).map(rec);
      const branch = str(p.ref).replace(/^refs\/heads\//, "");
      if (commits.length)
        return commits
          .filter((c) => c.distinct !== false)
          .map((c) => item("commit", `${repo}: ${firstLine(str(c.message))}`, `${web}/${repo}/commit/${str(c.sha)}`));
      const n = Number(p.size ?? p.distinct_size ?? 0);
      const url = p.before && p.head ? `${web}/${repo}/compare/${str(p.before)}...${str(p.head)}` : `${web}/${repo}/tree/${branch}`;
      return [item("push", `Pushed ${n > 0 ? `${n} commit(s)` : "commits"} to ${repo} ${branch}`.trim(), url)];
    }
    case "PullRequestEvent": {
      const pr = rec(p.pull_request);
      const ref = `${repo}#${str(pr.number ?? p.number)}: ${str(pr.title)}`;
      if (p.action === "opened") return [item("pr_opened", `Opened ${ref}`, str(pr.html_url))];
      if (p.action === "closed" && pr.merged === true) return [item("pr_merged", `Merged ${ref}`, str(pr.html_url))];
      return [];
    }
    case "PullRequestReviewEvent": {
      const pr = rec(p.pull_request);
      const review = rec(p.review);
      return [item("pr_reviewed", `Reviewed ${repo}#${str(pr.number)}: ${str(pr.title)}`, str(review.html_url) || str(pr.html_url))];
    }
    case "IssuesEvent": {
      const issue = rec(p.issue);
      const ref = `${repo}#${str(issue.number)}: ${str(issue.title)}`;
      if (p.action === "closed") return [item("issue_closed", `Closed ${ref}`, str(issue.html_url))];
      if (p.action === "opened") return [item("issue_opened", `Opened ${ref}`, str(issue.html_url))];
      return [];
    }
    default:
      return [];
  }
}

/** GitHub (and GitHub Enterprise) activity of `login` in the period; see the module comment. @throws ActivitySourceError */
export async function fetchGithubActivity(
  conn: ConnectorInput,
  period: ActivityPeriod,
  http: ActivityHttpOptions,
): Promise<ActivityItem[]> {
  if (!conn.login) throw new ActivitySourceError("no account login set");
  const base = trimSlash(conn.baseUrl);
  const web = githubWebUrl(base);
  const headers = { authorization: `Bearer ${conn.token}`, accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };
  const items: ActivityItem[] = [];
  let url: string | null = `${base}/users/${encodeURIComponent(conn.login)}/events?per_page=100`;
  for (let page = 0; url && page < ACTIVITY_MAX_PAGES; page++) {
    const { body, headers: h } = await requestJson(url, { headers }, http);
    const events = arr(body).map(rec);
    let older = false;
    for (const e of events) {
      if (Date.parse(str(e.created_at)) < period.since.getTime()) older = true;
      else if (inPeriod(str(e.created_at), period)) items.push(...githubItems(e, web));
    }
    const next = nextLink(h.get("link"));
    url = !older && next && sameOrigin(next, base) ? next : null;
  }
  return items;
}

/** Normalises one GitLab event (REST /events shape) into items; `web`/`project`: the project's web URL and path. */
function gitlabItems(e: Record<string, unknown>, web: string, project: string): ActivityItem[] {
  const at = str(e.created_at);
  const action = str(e.action_name);
  const type = str(e.target_type);
  const iid = str(e.target_iid);
  const title = str(e.target_title);
  const item = (kind: ActivityItem["kind"], text: string, url: string): ActivityItem => ({ source: "gitlab", kind, title: text, url, at });
  const push = rec(e.push_data);
  if (action.startsWith("pushed") && Object.keys(push).length) {
    const n = Number(push.commit_count ?? 0);
    const branch = str(push.ref);
    if (n === 1 && push.commit_to)
      return [item("commit", `${project}: ${firstLine(str(push.commit_title))}`, `${web}/-/commit/${str(push.commit_to)}`)];
    const url =
      push.commit_from && push.commit_to ? `${web}/-/compare/${str(push.commit_from)}...${str(push.commit_to)}` : `${web}/-/tree/${branch}`;
    return n > 0 ? [item("push", `Pushed ${n} commit(s) to ${project} ${branch}: ${firstLine(str(push.commit_title))}`, url)] : [];
  }
  if (type === "MergeRequest") {
    const ref = `${project}!${iid}: ${title}`;
    const url = `${web}/-/merge_requests/${iid}`;
    if (action === "opened") return [item("pr_opened", `Opened ${ref}`, url)];
    if (action === "accepted" || action === "merged") return [item("pr_merged", `Merged ${ref}`, url)];
    if (action === "approved") return [item("pr_reviewed", `Approved ${ref}`, url)];
  }
  if (type === "Issue") {
    const ref = `${project}#${iid}: ${title}`;
    const url = `${web}/-/issues/${iid}`;
    if (action === "closed") return [item("issue_closed", `Closed ${ref}`, url)];
    if (action === "opened") return [item("issue_opened", `Opened ${ref}`, url)];
  }
  return [];
}

/** GitLab (gitlab.com or self-hosted) activity of the token's user in the period; see the module comment. @throws ActivitySourceError */
export async function fetchGitlabActivity(
  conn: ConnectorInput,
  period: ActivityPeriod,
  http: ActivityHttpOptions,
): Promise<ActivityItem[]> {
  const api = `${trimSlash(conn.baseUrl)}/api/v4`;
  const headers = { "private-token": conn.token };
  // `after` is an exclusive date: the day before `since`, then filtered by instant.
  const after = new Date(period.since.getTime() - 86_400_000).toISOString().slice(0, 10);
  const events: Array<Record<string, unknown>> = [];
  let page: string | null = "1";
  for (let n = 0; page && n < ACTIVITY_MAX_PAGES; n++) {
    const { body, headers: h } = await requestJson(
      `${api}/events?after=${after}&sort=desc&per_page=100&page=${encodeURIComponent(page)}`,
      { headers },
      http,
    );
    events.push(
      ...arr(body)
        .map(rec)
        .filter((e) => inPeriod(str(e.created_at), period)),
    );
    page = h.get("x-next-page") || null;
  }
  const projects = new Map<string, { web: string; path: string }>();
  for (const id of new Set(events.map((e) => str(e.project_id)).filter(Boolean))) {
    if (projects.size >= 20) break;
    const { body } = await requestJson(`${api}/projects/${encodeURIComponent(id)}`, { headers }, http);
    projects.set(id, { web: trimSlash(str(rec(body).web_url)), path: str(rec(body).path_with_namespace) });
  }
  return events.flatMap((e) => {
    const p = projects.get(str(e.project_id));
    return p ? gitlabItems(e, p.web, p.path) : [];
  });
}

/** Normalises one Gitea/Forgejo activity (`/activities/feeds` shape) into items. */
function giteaItems(a: Record<string, unknown>): ActivityItem[] {
  const at = str(a.created);
  const repo = rec(a.repo);
  const name = str(repo.full_name);
  const web = trimSlash(str(repo.html_url));
  const content = str(a.content);
  const item = (kind: ActivityItem["kind"], title: string, url: string): ActivityItem => ({ source: "gitea", kind, title, url, at });
  // Issue and pull request operations carry "index|title" as content.
  const [index, ...rest] = content.split("|");
  const ref = `${name}#${index}: ${rest.join("|")}`;
  switch (str(a.op_type)) {
    case "commit_repo": {
      let commits: Array<Record<string, unknown>> = [];
      try {
        commits = arr(rec(JSON.parse(content || "{}")).Commits).map(rec);
      } catch {
        commits = [];
      }
      return commits.map((c) => item("commit", `${name}: ${firstLine(str(c.Message))}`, `${web}/commit/${str(c.Sha1)}`));
    }
    case "create_pull_request":
      return [item("pr_opened", `Opened ${ref}`, `${web}/pulls/${index}`)];
    case "merge_pull_request":
    case "auto_merge_pull_request":
      return [item("pr_merged", `Merged ${ref}`, `${web}/pulls/${index}`)];
    case "approve_pull_request":
    case "reject_pull_request":
      return [item("pr_reviewed", `Reviewed ${ref}`, `${web}/pulls/${index}`)];
    case "create_issue":
      return [item("issue_opened", `Opened ${ref}`, `${web}/issues/${index}`)];
    case "close_issue":
      return [item("issue_closed", `Closed ${ref}`, `${web}/issues/${index}`)];
    default:
      return [];
  }
}

/** Gitea/Forgejo activity of `login` in the period; see the module comment. @throws ActivitySourceError */
export async function fetchGiteaActivity(conn: ConnectorInput, period: ActivityPeriod, http: ActivityHttpOptions): Promise<ActivityItem[]> {
  if (!conn.login) throw new ActivitySourceError("no account login set");
  const base = trimSlash(conn.baseUrl);
  const headers = { authorization: `token ${conn.token}` };
  const limit = 50;
  const items: ActivityItem[] = [];
  let url: string | null =
    `${base}/api/v1/users/${encodeURIComponent(conn.login)}/activities/feeds?only-performed-by=true&limit=${limit}&page=1`;
  for (let page = 1; url && page <= ACTIVITY_MAX_PAGES; page++) {
    const { body, headers: h } = await requestJson(url, { headers }, http);
    const feed = arr(body).map(rec);
    let older = false;
    for (const a of feed) {
      if (Date.parse(str(a.created)) < period.since.getTime()) older = true;
      else if (inPeriod(str(a.created), period)) items.push(...giteaItems(a));
    }
    const next = nextLink(h.get("link"));
    url = older || feed.length === 0 ? null : next && sameOrigin(next, base) ? next : null;
  }
  return items;
}
