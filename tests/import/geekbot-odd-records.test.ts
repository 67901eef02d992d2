/**
 * Import from Geekbot (issue 43) against a hand-written fake of Geekbot's public API on 127.0.0.1:
 * odd records (a report for a deleted question, a report by a user the team list does not know,
 * an anonymous report, numeric poll user ids, a standup with an unknown timezone) are imported as
 * faithfully as possible and listed; `--since` limits the history; the CLI rejects bad input.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { retryAfterSeconds } from "@/lib/import/geekbot/client";
import { formatSummary } from "@/lib/import/geekbot/context";
import { getDashboardImport, runDashboardImport, startDashboardImport } from "@/lib/import/geekbot/dashboard-run";
import { importFromGeekbot } from "@/lib/import/geekbot/run";
import { createTestUser } from "@/tests/fixtures";

const DAY = 86_400;
const now = Math.floor(Date.now() / 1000);
const user = (id: string | number, email: string, name: string) => ({
  id,
  email,
  username: name.toLowerCase(),
  realname: name,
  role: "member",
  profile_img: "",
});

const standup = {
  id: 42,
  name: "Daily",
  time: "09:00:00",
  wait_time: null,
  timezone: "Mars/Olympus",
  days: ["Mon", "Tue"],
  channel: "team",
  questions: [{ id: 7, text: "What did you do?", answer_type: "text", answer_choices: [], color: "EEEEEE" }],
  users: [user("UAAA1", "Ann@Example.com", "Ann")],
  master: "UAAA1",
  anonymous: false,
  confidential: true,
  personalised: true,
};
/** A standup the key's user (Ann) is not in: this source lists none of its reports. */
const otherStandup = {
  ...standup,
  id: 43,
  name: "Bob's",
  timezone: "UTC",
  users: [user("UBBB2", "bob@example.com", "Bob")],
  master: "UBBB2",
};
const report = (id: number, at: number, member: object | null, questions: object[]) => ({
  id,
  standup_id: 42,
  timestamp: at,
  channel: "team",
  is_anonymous: member === null,
  is_confidential: true,
  member,
  questions,
});
const reports = [
  report(3, now - DAY, { id: "UGONE", username: "gone", realname: "Gone Person" }, [
    { id: 30, question: "What did you do?", question_id: 7, answer: "Left the company" },
  ]),
  report(2, now - 2 * DAY, null, [{ id: 20, question: "What did you do?", question_id: 7, answer: "Secret" }]),
  report(1, now - 40 * DAY, { id: "UAAA1", username: "ann", realname: "Ann" }, [
    { id: 10, question: "What did you do?", question_id: 7, answer: "Shipped" },
    { id: 11, question: "Old question, since deleted?", question_id: 6, answer: "Yes" },
  ]),
];
const poll = {
  id: 9,
  name: "Lunch",
  time: "11:00:00",
  timezone: "UTC",
  channel: "team",
  questions: [{ id: 91, text: "Where?", answer_type: "multiple_choice", answer_choices: ["Pizza", "Sushi"] }],
  users: [user(501, "ann@example.com", "Ann"), user(502, "bob@example.com", "Bob")],
  anonymous: false,
  creator: user(502, "bob@example.com", "Bob"),
};
const votes = {
  total_results: 1,
  questions: [
    {
      id: 91,
      results: [
        {
          date: "2026-11-20",
          answers: [{ text: "Pizza", votes: 2, users: [user(501, "ann@example.com", "Ann"), user(502, "bob@example.com", "Bob")] }],
        },
      ],
    },
  ],
  instances: [{ id: 900, date: "2026-11-20", answer_count: 2 }],
};

let server: http.Server;
let url = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== "geekbot-key") return send(401, { error: "Unauthorized" });
    if (u.pathname === "/v1/me") return send(200, { user: { id: "UAAA1", email: "ann@example.com" }, team: { id: 77, name: "Fake" } });
    if (u.pathname === "/v1/teams/")
      return send(200, { id: 77, name: "Fake", users: [user("UAAA1", "ann@example.com", "Ann"), user("UBBB2", "bob@example.com", "Bob")] });
    if (u.pathname === "/v1/standups/") return send(200, [standup, otherStandup]);
    if (u.pathname === "/v1/reports/") {
      const before = Number(u.searchParams.get("before") ?? Number.POSITIVE_INFINITY);
      const after = Number(u.searchParams.get("after") ?? Number.NEGATIVE_INFINITY);
      const of = reports.filter((r) => String(r.standup_id) === u.searchParams.get("standup_id"));
      return send(200, of.filter((r) => r.timestamp < before && r.timestamp > after).slice(0, Number(u.searchParams.get("limit"))));
    }
    if (u.pathname === "/v1/polls") return send(200, [poll]);
    if (u.pathname === "/v1/polls/9/votes") return send(200, votes);
    return send(404, { error: "Not found" }); // no v2 on this source
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function emptyTeam() {
  const team = await db.team.create({ data: { chat_id: `T${randomBytes(4).toString("hex").toUpperCase()}`, name: "Target" } });
  await createTestUser(team.id, { isAdmin: true });
  return team.id;
}

describe("Team → Import (dashboard job)", () => {
  it("admins queue one run at a time as an import_geekbot job; bad input is refused", async () => {
    const teamId = await emptyTeam();
    const admin = await createTestUser(teamId, { isAdmin: true });
    const member = await createTestUser(teamId);
    await expect(startDashboardImport(member.actor, { key: "k", dryRun: false })).rejects.toThrow(/Only team admins/);
    await expect(startDashboardImport(admin.actor, { key: " ", dryRun: false })).rejects.toThrow(/API key/);
    await expect(startDashboardImport(admin.actor, { key: "k", baseUrl: "ftp://x", dryRun: false })).rejects.toThrow(
      /Source URL: must use http/,
    );
    await startDashboardImport(admin.actor, { key: "secret-key", baseUrl: "https://93.184.216.34/", dryRun: true });
    expect(await getDashboardImport(admin.actor)).toMatchObject({ state: "queued", baseUrl: "https://93.184.216.34", dryRun: true });
    expect(JSON.stringify(await getDashboardImport(admin.actor))).not.toContain("secret-key");
    const jobs = await db.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM job_outbox WHERE task_identifier = 'import_geekbot' AND payload->>'teamId' = ${String(teamId)}`;
    expect(jobs[0].n).toBe(1);
    await expect(startDashboardImport(admin.actor, { key: "k", baseUrl: "https://93.184.216.34", dryRun: false })).rejects.toThrow(
      /already under way/,
    );
    // Not for a worker of another test file to run (it would call that address).
    await db.$executeRaw`DELETE FROM job_outbox WHERE task_identifier = 'import_geekbot' AND payload->>'teamId' = ${String(teamId)}`;
  });

  it("the job records progress, then the summary, or why it stopped", async () => {
    const teamId = await emptyTeam();
    const done = await runDashboardImport({ teamId, baseUrl: url, key: "geekbot-key", dryRun: false });
    expect(done.state).toBe("done");
    expect(done.summary?.join("\n")).toMatch(/reports: +3 imported/);
    const failed = await runDashboardImport({ teamId, baseUrl: url, key: "wrong", dryRun: false });
    expect(failed).toMatchObject({ state: "failed", error: expect.stringMatching(/refused the API key \(401.*Nothing was written/) });
  });
});

describe("Geekbot import: odd records", () => {
  it("imports a report for a deleted question, an unknown author and an anonymous report faithfully, and lists them", async () => {
    const teamId = await emptyTeam();
    const r = await importFromGeekbot({ baseUrl: `${url}/`, key: "geekbot-key", teamId });
    expect(r.reports.imported).toBe(3);
    const checkin = await db.checkin.findFirstOrThrow({
      where: { team_id: teamId, kind: "standup", name: "Daily" },
      include: { questions: { orderBy: { position: "asc" } }, owner: true, broadcast_channel: true, members: { include: { user: true } } },
    });
    expect(checkin).toMatchObject({ name: "Daily", timezone: "UTC", is_confidential: true, personalised: true, wait_time: null });
    expect(checkin.owner.email).toBe("ann@example.com");
    expect(checkin.owner.chat_id).toBe("UAAA1"); // the source's chat id is kept
    expect(checkin.broadcast_channel?.name).toBe("team");
    expect(checkin.questions.map((q) => [q.text, q.archived_at !== null])).toEqual([
      ["What did you do?", false],
      ["Old question, since deleted?", true],
    ]);
    const rows = await db.report.findMany({
      where: { team_id: teamId },
      orderBy: { submitted_at: "asc" },
      include: { user: true, answers: { include: { question: true } }, occurrence: true },
    });
    expect(rows.map((x) => [x.user.email, x.is_anonymous, x.answers.map((a) => `${a.question.text}=${a.text}`).sort()])).toEqual([
      ["ann@example.com", false, ["Old question, since deleted?=Yes", "What did you do?=Shipped"]],
      [expect.stringMatching(/@unknown\.import\.invalid$/), true, ["What did you do?=Secret"]],
      ["ugone@unknown.import.invalid", false, ["What did you do?=Left the company"]],
    ]);
    expect(rows[0].submitted_at?.getTime()).toBe(reports[2].timestamp * 1000);
    expect(rows.every((x) => x.occurrence?.trigger === "import")).toBe(true);
    const lines = formatSummary(r, { dryRun: false }).join("\n");
    expect(lines).toMatch(/question 6: answered in a report but no longer in its standup/);
    expect(lines).toMatch(/user UGONE: author of report 3 is not among the source team's users/);
    expect(lines).toMatch(/standup 42 Mars\/Olympus: unknown timezone: UTC used/);
    expect(lines).toMatch(/standup 43: no reports came: the source may list reports only of standups the key's user belongs to/);
    // Poll users come with numeric ids: matched by e-mail; the creator owns the poll.
    const pollRow = await db.checkin.findFirstOrThrow({ where: { team_id: teamId, kind: "poll" }, include: { owner: true } });
    expect(pollRow.owner.email).toBe("bob@example.com");
    const pollVotes = await db.vote.findMany({ where: { team_id: teamId }, include: { user: true } });
    expect(pollVotes.map((v) => `${v.choice}|${v.user?.email}`).sort()).toEqual(["Pizza|ann@example.com", "Pizza|bob@example.com"]);
  });

  it("--since imports only the history from that date on", async () => {
    const teamId = await emptyTeam();
    const r = await importFromGeekbot({ baseUrl: url, key: "geekbot-key", teamId, since: new Date((now - 10 * DAY) * 1000) });
    expect(r.reports.imported).toBe(2);
    expect(r.polls.instances).toBe(votes.instances[0].date >= new Date((now - 10 * DAY) * 1000).toISOString().slice(0, 10) ? 1 : 0);
    // Without --since later, the older history still comes (the pass limited by --since left no floor).
    const all = await importFromGeekbot({ baseUrl: url, key: "geekbot-key", teamId });
    expect(all.reports.imported).toBe(1);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterSeconds("3")).toBe(3);
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds(new Date(Date.now() + 5000).toUTCString(), Date.now())).toBeGreaterThan(3);
  });

  it("the CLI rejects a missing key and a bad date with a clear message (exit 1)", async () => {
    const run = (args: string[]) => {
      const child = promisify(execFile)("npx", ["tsx", "scripts/import.ts", ...args], { cwd: process.cwd() });
      child.child.stdin?.end(); // an empty standard input
      return child.then(
        () => ({ code: 0, stderr: "" }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      );
    };
    expect(await run(["geekbot", "--team", "1"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/Missing --key/) });
    // `--key -` reads standard input (empty here).
    expect(await run(["geekbot", "--key", "-", "--team", "1"])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/standard input was empty/),
    });
    expect(await run(["geekbot", "--key", "k", "--team", "1", "--since", "May"])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--since must be a date/),
    });
  }, 60_000);
});
