/**
 * Activity connectors (issue 48 "Activity pre-fills answers") against the local fakes of
 * tests/fakes/forges.ts (real payload shapes, 2 items per page): each connector follows its
 * pagination to the second page, keeps only the period, normalises items with links, and a
 * rejected token degrades to a reason in words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchSourceActivity } from "@/lib/activity/fetch";
import { githubWebUrl } from "@/lib/activity/forges";
import { nextLink } from "@/lib/activity/http";
import type { ActivityPeriod } from "@/lib/activity/types";
import { type ForgeFake, startForgeFake } from "@/tests/fakes/forges";

let fake: ForgeFake;
const http = { allowPrivate: true };
const until = new Date("2026-11-28T09:00:00Z");
const period: ActivityPeriod = { since: new Date("2026-11-27T09:00:00Z"), until };
const h = (hoursAgo: number) => new Date(until.getTime() - hoursAgo * 3_600_000).toISOString();

beforeAll(async () => {
  fake = await startForgeFake({ pageSize: 2 });
});
afterAll(() => fake.close());

describe("GitHub", () => {
  const repo = { id: 1, name: "acme/api", url: "https://api.github.com/repos/acme/api" };
  const events = () => [
    {
      id: "5",
      type: "PullRequestEvent",
      created_at: h(1),
      repo,
      payload: {
        action: "closed",
        number: 12,
        pull_request: { number: 12, title: "Fix login", merged: true, html_url: "https://github.com/acme/api/pull/12" },
      },
    },
    { id: "4", type: "WatchEvent", created_at: h(2), repo, payload: { action: "started" } },
    {
      id: "3",
      type: "PushEvent",
      created_at: h(3),
      repo,
      payload: { ref: "refs/heads/main", size: 1, commits: [{ sha: "abc123", message: "Add health check\n\nlong body", distinct: true }] },
    },
    {
      id: "2",
      type: "PullRequestReviewEvent",
      created_at: h(4),
      repo,
      payload: {
        action: "created",
        review: { html_url: "https://github.com/acme/api/pull/9#pullrequestreview-1" },
        pull_request: { number: 9, title: "Cache tokens" },
      },
    },
    {
      id: "1",
      type: "IssuesEvent",
      created_at: h(30),
      repo,
      payload: { action: "closed", issue: { number: 3, title: "Too old", html_url: "https://github.com/acme/api/issues/3" } },
    },
  ];

  it("follows the Link pages, stops at the period's start and normalises pushes, merges and reviews", async () => {
    fake.data.github = events();
    const r = await fetchSourceActivity("github", { baseUrl: `${fake.url}/github`, login: "octo", token: "gh-good" }, period, http);
    expect(r).toEqual({
      ok: true,
      items: [
        {
          source: "github",
          kind: "pr_merged",
          title: "Merged acme/api#12: Fix login",
          url: "https://github.com/acme/api/pull/12",
          at: h(1),
        },
        {
          source: "github",
          kind: "commit",
          title: "acme/api: Add health check",
          url: `${fake.url}/github/acme/api/commit/abc123`,
          at: h(3),
        },
        {
          source: "github",
          kind: "pr_reviewed",
          title: "Reviewed acme/api#9: Cache tokens",
          url: "https://github.com/acme/api/pull/9#pullrequestreview-1",
          at: h(4),
        },
      ],
    });
    const pages = fake.requests.filter((q) => q.system === "github").map((q) => q.path);
    expect(pages).toEqual([
      "/users/octo/events?per_page=100",
      "/users/octo/events?per_page=100&page=2",
      "/users/octo/events?per_page=100&page=3",
    ]);
  });

  it("a rejected token degrades to a reason", async () => {
    const r = await fetchSourceActivity("github", { baseUrl: `${fake.url}/github`, login: "octo", token: "revoked" }, period, http);
    expect(r).toEqual({ ok: false, error: "token rejected (401)" });
  });

  it("knows the web address of github.com and of GitHub Enterprise", () => {
    expect(githubWebUrl("https://api.github.com/")).toBe("https://github.com");
    expect(githubWebUrl("https://ghe.example.com/api/v3")).toBe("https://ghe.example.com");
  });
});

describe("GitLab", () => {
  it("follows X-Next-Page, resolves project web addresses and normalises pushes, merge requests and issues", async () => {
    fake.data.gitlab = [
      {
        id: 9,
        project_id: 7,
        action_name: "accepted",
        target_type: "MergeRequest",
        target_iid: 4,
        target_title: "Retry uploads",
        created_at: h(1),
        author_username: "ann",
      },
      {
        id: 8,
        project_id: 7,
        action_name: "pushed to",
        target_type: null,
        created_at: h(2),
        push_data: {
          commit_count: 1,
          action: "pushed",
          ref_type: "branch",
          ref: "main",
          commit_from: "111",
          commit_to: "222",
          commit_title: "Bump deps",
        },
      },
      { id: 7, project_id: 7, action_name: "closed", target_type: "Issue", target_iid: 31, target_title: "Flaky test", created_at: h(5) },
      { id: 6, project_id: 7, action_name: "opened", target_type: "Issue", target_iid: 2, target_title: "Too old", created_at: h(40) },
    ];
    const r = await fetchSourceActivity("gitlab", { baseUrl: `${fake.url}/gitlab`, login: "ann", token: "gl-good" }, period, http);
    const web = `${fake.url}/gitlab-web/group/project-7`;
    expect(r).toEqual({
      ok: true,
      items: [
        {
          source: "gitlab",
          kind: "pr_merged",
          title: "Merged group/project-7!4: Retry uploads",
          url: `${web}/-/merge_requests/4`,
          at: h(1),
        },
        { source: "gitlab", kind: "commit", title: "group/project-7: Bump deps", url: `${web}/-/commit/222`, at: h(2) },
        { source: "gitlab", kind: "issue_closed", title: "Closed group/project-7#31: Flaky test", url: `${web}/-/issues/31`, at: h(5) },
      ],
    });
    const paths = fake.requests.filter((q) => q.system === "gitlab").map((q) => q.path.replace(/after=[^&]+/, "after=D"));
    expect(paths).toEqual([
      "/api/v4/events?after=D&sort=desc&per_page=100&page=1",
      "/api/v4/events?after=D&sort=desc&per_page=100&page=2",
      "/api/v4/projects/7",
    ]);
  });

  it("a rejected token degrades to a reason", async () => {
    const r = await fetchSourceActivity("gitlab", { baseUrl: `${fake.url}/gitlab`, login: "", token: "nope" }, period, http);
    expect(r).toEqual({ ok: false, error: "token rejected (401)" });
  });
});

describe("Gitea / Forgejo", () => {
  it("follows the Link pages of the activity feed and normalises commits, pull requests and issues", async () => {
    const repo = { id: 3, full_name: "team/site", html_url: "https://git.example.com/team/site" };
    fake.data.gitea = [
      {
        id: 14,
        op_type: "merge_pull_request",
        act_user_id: 1,
        repo,
        ref_name: "",
        is_private: false,
        content: "8|Dark mode",
        created: h(1),
      },
      {
        id: 13,
        op_type: "commit_repo",
        repo,
        ref_name: "refs/heads/main",
        content: JSON.stringify({ Commits: [{ Sha1: "c0ffee", Message: "Tidy CSS\n" }], HeadCommit: null, CompareURL: "", Len: 1 }),
        created: h(2),
      },
      { id: 12, op_type: "close_issue", repo, content: "5|Broken footer", created: h(3) },
      { id: 11, op_type: "star_repo", repo, content: "", created: h(30) },
    ];
    const r = await fetchSourceActivity("gitea", { baseUrl: `${fake.url}/gitea`, login: "ann", token: "gt-good" }, period, http);
    expect(r).toEqual({
      ok: true,
      items: [
        {
          source: "gitea",
          kind: "pr_merged",
          title: "Merged team/site#8: Dark mode",
          url: "https://git.example.com/team/site/pulls/8",
          at: h(1),
        },
        { source: "gitea", kind: "commit", title: "team/site: Tidy CSS", url: "https://git.example.com/team/site/commit/c0ffee", at: h(2) },
        {
          source: "gitea",
          kind: "issue_closed",
          title: "Closed team/site#5: Broken footer",
          url: "https://git.example.com/team/site/issues/5",
          at: h(3),
        },
      ],
    });
    expect(fake.requests.filter((q) => q.system === "gitea").map((q) => new URL(q.path, "http://x").searchParams.get("page"))).toEqual([
      "1",
      "2",
    ]);
  });

  it("a rejected token degrades to a reason", async () => {
    const r = await fetchSourceActivity("gitea", { baseUrl: `${fake.url}/gitea`, login: "ann", token: "bad" }, period, http);
    expect(r).toEqual({ ok: false, error: "token rejected (401)" });
  });
});

describe("Jira", () => {
  const issue = (key: string, summary: string, status: string, updated: string, resolutiondate: string | null = null) => ({
    id: key.replace(/\D/g, ""),
    key,
    self: `https://jira.example.com/rest/api/2/issue/${key}`,
    fields: { summary, status: { name: status, statusCategory: { key: "indeterminate" } }, updated, resolutiondate },
  });

  it("pages the JQL search with startAt/maxResults/total and says resolved or moved", async () => {
    fake.data.jira = [
      issue("OPS-7", "Rotate keys", "Done", h(1), h(1)),
      issue("OPS-6", "Upgrade db", "In Review", h(2)),
      issue("OPS-5", "Write runbook", "In Progress", h(3)),
    ];
    const r = await fetchSourceActivity("jira", { baseUrl: `${fake.url}/jira`, login: "", token: "jr-good" }, period, http);
    expect(r).toEqual({
      ok: true,
      items: [
        { source: "jira", kind: "issue_closed", title: "Resolved OPS-7: Rotate keys", url: `${fake.url}/jira/browse/OPS-7`, at: h(1) },
        {
          source: "jira",
          kind: "issue_moved",
          title: "Moved OPS-6 to In Review: Upgrade db",
          url: `${fake.url}/jira/browse/OPS-6`,
          at: h(2),
        },
        {
          source: "jira",
          kind: "issue_moved",
          title: "Moved OPS-5 to In Progress: Write runbook",
          url: `${fake.url}/jira/browse/OPS-5`,
          at: h(3),
        },
      ],
    });
    const searches = fake.requests.filter((q) => q.system === "jira").map((q) => new URL(q.path, "http://x").searchParams);
    expect(searches.map((s) => s.get("startAt"))).toEqual(["0", "2"]);
    expect(searches[0].get("jql")).toBe("status CHANGED BY currentUser() AFTER -1440m ORDER BY updated DESC");
  });

  it("a rejected token degrades to a reason", async () => {
    const r = await fetchSourceActivity("jira", { baseUrl: `${fake.url}/jira`, login: "", token: "expired" }, period, http);
    expect(r).toEqual({ ok: false, error: "token rejected (401)" });
  });
});

describe("Linear", () => {
  it("follows pageInfo.endCursor and says completed or moved", async () => {
    const node = (identifier: string, title: string, state: string, updatedAt: string, completedAt: string | null = null) => ({
      identifier,
      title,
      url: `https://linear.app/acme/issue/${identifier}`,
      updatedAt,
      completedAt,
      state: { name: state, type: completedAt ? "completed" : "started" },
    });
    fake.data.linear = [
      node("ENG-3", "Ship search", "Done", h(1), h(1)),
      node("ENG-2", "Index docs", "In Progress", h(2)),
      node("ENG-1", "Old", "Todo", h(50)),
    ];
    const r = await fetchSourceActivity("linear", { baseUrl: `${fake.url}/linear`, login: "", token: "lin_api_good" }, period, http);
    expect(r).toEqual({
      ok: true,
      items: [
        {
          source: "linear",
          kind: "issue_closed",
          title: "Completed ENG-3: Ship search",
          url: "https://linear.app/acme/issue/ENG-3",
          at: h(1),
        },
        {
          source: "linear",
          kind: "issue_moved",
          title: "Moved ENG-2 to In Progress: Index docs",
          url: "https://linear.app/acme/issue/ENG-2",
          at: h(2),
        },
      ],
    });
    expect(fake.requests.filter((q) => q.system === "linear")).toHaveLength(2);
  });

  it("a rejected key degrades to a reason", async () => {
    const r = await fetchSourceActivity("linear", { baseUrl: `${fake.url}/linear`, login: "", token: "lin_api_bad" }, period, http);
    expect(r).toEqual({ ok: false, error: "token rejected (authentication error)" });
  });
});

describe("address policy and Link parsing", () => {
  it("refuses a loopback address unless private addresses are allowed", async () => {
    const r = await fetchSourceActivity("github", { baseUrl: `${fake.url}/github`, login: "octo", token: "gh-good" }, period, {
      allowPrivate: false,
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^address refused: resolves to a loopback address/);
  });

  it("an answer over the size cap degrades to a reason", async () => {
    fake.data.github = [
      {
        id: "1",
        type: "IssuesEvent",
        created_at: h(1),
        repo: { name: "acme/api" },
        payload: { action: "closed", issue: { title: "x".repeat(500) } },
      },
    ];
    const r = await fetchSourceActivity("github", { baseUrl: `${fake.url}/github`, login: "octo", token: "gh-good" }, period, {
      allowPrivate: true,
      maxBytes: 200,
    });
    expect(r).toEqual({ ok: false, error: "answer larger than 200 bytes" });
  });

  it("reads rel=next among several relations", () => {
    expect(nextLink('<https://x/e?page=1>; rel="prev", <https://x/e?page=3>; rel="next"')).toBe("https://x/e?page=3");
    expect(nextLink('<https://x/e?page=9>; rel="last"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });
});
