/**
 * Activity pre-fills answers (issue 48): connections on the Profile (tokens sealed, addresses
 * checked), the `fetch_activity` job enqueued by the asking pass in its transaction, the cache per
 * run, a failing source degrading to a reason, and the pre-fill the answer forms read. External
 * systems are the local fakes of tests/fakes/forges.ts.
 */
import type { JobHelpers } from "graphile-worker";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { addActivityConnection, listMyActivityConnections, removeActivityConnection } from "@/lib/domain/activity-connections";
import { activityPrefillFor, activityQuestionId, cleanupActivitySuggestions, myActivityPrefill } from "@/lib/domain/activity-suggestions";
import { erasePerson } from "@/lib/domain/erasure";
import { exportPersonData } from "@/lib/domain/my-data";
import { startStandup } from "@/lib/domain/occurrences";
import { openSecret } from "@/lib/domain/secret-box";
import { createTaskList } from "@/lib/jobs/tasks";
import { type ForgeFake, startForgeFake } from "@/tests/fakes/forges";
import { createTestCheckin, createTestReport, createTestTeam, createTestUser, jobQueued, type TestTeam } from "@/tests/fixtures";

let fake: ForgeFake;
let team: TestTeam;

const NOW = new Date();
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const repo = { id: 1, name: "acme/api" };

beforeAll(async () => {
  fake = await startForgeFake({ pageSize: 2 });
  team = await createTestTeam({ members: 1 });
  fake.data.github = [
    {
      id: "3",
      type: "PullRequestEvent",
      created_at: hoursAgo(1),
      repo,
      payload: {
        action: "opened",
        number: 7,
        pull_request: { number: 7, title: "Add activity", html_url: "https://github.com/acme/api/pull/7" },
      },
    },
    {
      id: "2",
      type: "IssuesEvent",
      created_at: hoursAgo(2),
      repo,
      payload: { action: "closed", issue: { number: 4, title: "Slow login", html_url: "https://github.com/acme/api/issues/4" } },
    },
    {
      id: "1",
      type: "IssuesEvent",
      created_at: hoursAgo(60),
      repo,
      payload: {
        action: "closed",
        issue: { number: 1, title: "Before the last report", html_url: "https://github.com/acme/api/issues/1" },
      },
    },
  ];
});
afterEach(() => {
  delete process.env.WEBHOOKS_ALLOW_PRIVATE;
});
afterAll(async () => {
  await fake.close();
});

describe("connections", () => {
  it("stores the token sealed (the column does not contain it) and never lists it", async () => {
    const person = await createTestUser(team.id);
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    const { id } = await addActivityConnection(person.actor, {
      provider: "github",
      baseUrl: `${fake.url}/github/`,
      login: "octo",
      token: "ghp_secret_value_123",
    });
    const row = await db.activityConnection.findUniqueOrThrow({ where: { id } });
    expect(row.token_sealed).not.toContain("ghp_secret_value_123");
    expect(row.token_sealed.startsWith("sb1.")).toBe(true);
    expect(openSecret(row.token_sealed)).toBe("ghp_secret_value_123");
    expect(row.base_url).toBe(`${fake.url}/github`);
    const [view] = await listMyActivityConnections(person.actor);
    expect(view).toEqual({
      id,
      provider: "github",
      label: "GitHub",
      baseUrl: `${fake.url}/github`,
      login: "octo",
      lastFetchedAt: null,
      lastError: null,
    });
    expect(JSON.stringify(view)).not.toContain("ghp_");
    // "My data" lists the connection, never the token.
    const mine = await exportPersonData(person.actor);
    expect(mine.activity_connections.map((c) => [c.provider, c.login])).toEqual([["github", "octo"]]);
    expect(JSON.stringify(mine)).not.toMatch(/ghp_|sb1\./);
  });

  it("refuses a private address unless allowed, a missing login or server address, and an unknown provider", async () => {
    const person = await createTestUser(team.id);
    await expect(addActivityConnection(person.actor, { provider: "gitlab", baseUrl: `${fake.url}/gitlab`, token: "x" })).rejects.toThrow(
      /baseUrl: resolves to a loopback address/,
    );
    await expect(addActivityConnection(person.actor, { provider: "github", token: "x" })).rejects.toThrow(
      /login: your GitHub user name is required/,
    );
    await expect(addActivityConnection(person.actor, { provider: "jira", token: "x" })).rejects.toThrow(
      /baseUrl: Jira needs the address of your server/,
    );
    await expect(addActivityConnection(person.actor, { provider: "bitbucket", token: "x" })).rejects.toThrow(/provider: one of github/);
    await expect(addActivityConnection(person.actor, { provider: "linear", baseUrl: "ftp://example.com", token: "x" })).rejects.toThrow(
      /baseUrl: must use http or https/,
    );
  });

  it("removes only the person's own connection", async () => {
    const [a, b] = [await createTestUser(team.id), await createTestUser(team.id)];
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    const { id } = await addActivityConnection(a.actor, { provider: "linear", baseUrl: `${fake.url}/linear`, token: "lin_api_x" });
    await expect(removeActivityConnection(b.actor, { connectionId: id })).rejects.toThrow(/not found/i);
    await removeActivityConnection(a.actor, { connectionId: id });
    expect(await listMyActivityConnections(a.actor)).toEqual([]);
  });
});

describe("at ask time", () => {
  it("asking enqueues fetch_activity in the same transaction; the job caches the activity since the previous report and the form pre-fills it", async () => {
    const member = await createTestUser(team.id);
    const other = await createTestUser(team.id);
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    await addActivityConnection(member.actor, { provider: "github", baseUrl: `${fake.url}/github`, login: "octo", token: "gh-good" });
    await addActivityConnection(member.actor, { provider: "gitea", baseUrl: `${fake.url}/gitea`, login: "octo", token: "expired-token" });
    const standup = await createTestCheckin(team, { members: [member, other] });
    await createTestReport(standup, member, { submitted_at: new Date(NOW.getTime() - 30 * 3_600_000) });

    const started = await startStandup(team.admin.actor, standup.id, {}, db, NOW);
    expect(started.asked).toEqual([member.id, other.id].sort((x, y) => x - y));
    expect(await jobQueued(`fetch_activity:${started.occurrenceId}`)).toBe(true);
    const queued = await db.activitySuggestion.findMany({ where: { occurrence_id: started.occurrenceId } });
    // Only the member with connections; the period starts at their previous report (30 h ago).
    expect(queued.map((q) => [q.user_id, q.since.toISOString(), q.fetched_at])).toEqual([
      [member.id, new Date(NOW.getTime() - 30 * 3_600_000).toISOString(), null],
    ]);
    expect(await myActivityPrefill(member.actor, { standupId: standup.id })).toMatchObject({ fetchedAt: null, items: [] });

    const lines: string[] = [];
    const tasks = createTaskList((l) => lines.push(l));
    await tasks.fetch_activity?.({ occurrenceId: started.occurrenceId }, {} as JobHelpers);

    const prefill = await myActivityPrefill(member.actor, { standupId: standup.id });
    expect(prefill?.text).toBe(
      "- Opened acme/api#7: Add activity (https://github.com/acme/api/pull/7)\n- Closed acme/api#4: Slow login (https://github.com/acme/api/issues/4)",
    );
    // The failing source degrades to no items, with its reason for the person.
    expect(prefill?.errors).toEqual(["Gitea/Forgejo: token rejected (401)"]);
    expect(await activityPrefillFor({ teamId: team.id, userId: member.id, occurrenceId: started.occurrenceId })).toEqual(prefill);
    expect(lines).toEqual([`fetch_activity: occurrence ${started.occurrenceId}: 1 of 1 person(s) with a failing source`]);
    const connections = await listMyActivityConnections(member.actor);
    expect(connections.map((c) => [c.provider, c.lastError, c.lastFetchedAt !== null])).toEqual([
      ["github", null, true],
      ["gitea", "token rejected (401)", true],
    ]);

    // Cached for the run: asking again (a re-ask) neither queues nor fetches again.
    const before = fake.requests.length;
    await startStandup(team.admin.actor, standup.id, { users: [member.id] }, db, new Date(NOW.getTime() + 60_000));
    await tasks.fetch_activity?.({ occurrenceId: started.occurrenceId }, {} as JobHelpers);
    expect(fake.requests.length).toBe(before);
    expect((await myActivityPrefill(member.actor, { standupId: standup.id }))?.text).toBe(prefill?.text);
  });

  it("people without connections get no suggestion and no job", async () => {
    const member = await createTestUser(team.id);
    const standup = await createTestCheckin(team, { members: [member] });
    const started = await startStandup(team.admin.actor, standup.id, {}, db, NOW);
    expect(await jobQueued(`fetch_activity:${started.occurrenceId}`)).toBe(false);
    expect(await myActivityPrefill(member.actor, { standupId: standup.id })).toBeNull();
  });

  it("the activity question is the standup's first free-text question", () => {
    expect(
      activityQuestionId([
        { id: 5, answerType: "rating" },
        { id: 6, answerType: "text" },
        { id: 7, answerType: "text" },
      ]),
    ).toBe(6);
    expect(activityQuestionId([{ id: 5, answerType: "number" }])).toBeNull();
  });

  it("erasing the person removes their connections and cached activity", async () => {
    const member = await createTestUser(team.id);
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    await addActivityConnection(member.actor, { provider: "github", baseUrl: `${fake.url}/github`, login: "octo", token: "gh-good" });
    const standup = await createTestCheckin(team, { members: [member] });
    await startStandup(team.admin.actor, standup.id, {}, db, NOW);
    await erasePerson(team.admin.actor, { userId: member.id, confirm: member.email });
    expect(await db.activityConnection.count({ where: { user_id: member.id } })).toBe(0);
    expect(await db.activitySuggestion.count({ where: { user_id: member.id } })).toBe(0);
  });

  it("cached activity older than 14 days is deleted by the cleanup", async () => {
    const member = await createTestUser(team.id);
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    await addActivityConnection(member.actor, { provider: "github", baseUrl: `${fake.url}/github`, login: "octo", token: "gh-good" });
    const standup = await createTestCheckin(team, { members: [member] });
    const { occurrenceId } = await startStandup(team.admin.actor, standup.id, {}, db, NOW);
    const where = { occurrence_id: occurrenceId, user_id: member.id };
    expect(await cleanupActivitySuggestions(new Date(NOW.getTime() + 13 * 86_400_000))).toBe(0);
    expect(await db.activitySuggestion.count({ where })).toBe(1);
    expect(await cleanupActivitySuggestions(new Date(NOW.getTime() + 15 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await db.activitySuggestion.count({ where })).toBe(0);
  });
});
