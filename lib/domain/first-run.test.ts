/**
 * First run and the people commands, against the real test database: the setup refuses once any
 * team exists; `npm run team -- create` and `npm run user -- add` run as real processes and print
 * working one-time links.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { peekToken } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { listAudit } from "@/lib/domain/audit";
import { createTeamWithAdmin, needsSetup, setupFirstTeam } from "@/lib/domain/first-run";
import { createTestTeam } from "@/tests/fixtures";

const run = promisify(execFile);

/** Runs `tsx scripts/<name>.ts args` against the test database; resolves with exit code and output. */
async function command(name: string, args: string[], extraEnv: Record<string, string> = {}) {
  const root = path.resolve(import.meta.dirname, "../..");
  try {
    const r = await run(process.execPath, ["--import", "tsx", path.join(root, "scripts", `${name}.ts`), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL, PORT: "3999", SMTP_URL: "", PUBLIC_URL: "", ...extraEnv },
      timeout: 60_000,
    });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
  }
}

describe("first run", () => {
  it("the setup page's action refuses once a team exists", async () => {
    await createTestTeam({ members: 0 });
    expect(await needsSetup()).toBe(false);
    await expect(
      setupFirstTeam({ teamName: "Late", admin: { email: "late@example.com", name: "Late", password: "long enough" } }),
    ).rejects.toThrow(/already set up/);
    expect(await db.team.count({ where: { name: "Late" } })).toBe(0);
  });

  it("npm run team -- create prints a one-time sign-in link; npm run user -- add an invitation link", async () => {
    const tag = Date.now().toString(36);
    const created = await command("team", [
      "create",
      "--name",
      `Acme ${tag}`,
      "--admin-email",
      `ada.${tag}@acme.test`,
      "--admin-name",
      "Ada Lovelace",
    ]);
    expect(created.err).toBe("");
    expect(created.code).toBe(0);
    const signIn = /http:\/\/localhost:3999\/sign-in\/link\/([A-Za-z0-9_-]{43})/.exec(created.out);
    expect(signIn).not.toBeNull();
    const team = await db.team.findFirstOrThrow({ where: { name: `Acme ${tag}` }, include: { users: true, channels: true } });
    expect(team.users).toMatchObject([{ email: `ada.${tag}@acme.test`, role: "admin", is_admin: true, password_hash: null }]);
    expect(team.channels.map((c) => c.name)).toEqual(["general"]);
    expect(await peekToken(db, "sign_in", signIn?.[1] as string)).not.toBeNull();

    const added = await command("user", [
      "add",
      "--team",
      String(team.id),
      "--email",
      `bob.${tag}@acme.test`,
      "--name",
      "Bob",
      "--role",
      "manager",
      "--timezone",
      "Asia/Kolkata",
    ]);
    expect(added.code).toBe(0);
    const invite = /http:\/\/localhost:3999\/invite\/([A-Za-z0-9_-]{43})/.exec(added.out);
    expect(await peekToken(db, "invitation", invite?.[1] as string)).toMatchObject({ user: { email: `bob.${tag}@acme.test` } });
    expect(await db.user.findFirstOrThrow({ where: { email: `bob.${tag}@acme.test` } })).toMatchObject({
      role: "manager",
      timezone: "Asia/Kolkata",
    });

    // With PUBLIC_URL the printed link is absolute on it (issue 40 item 4).
    const public_ = await command("user", ["add", "--team", String(team.id), "--email", `cy.${tag}@acme.test`, "--name", "Cy"], {
      PUBLIC_URL: "https://checkin.example.test/",
    });
    expect(public_.code).toBe(0);
    expect(public_.out).toMatch(/https:\/\/checkin\.example\.test\/invite\/[A-Za-z0-9_-]{43}/);

    const dup = await command("user", ["add", "--team", String(team.id), "--email", `BOB.${tag}@acme.test`, "--name", "Bob"]);
    expect(dup.code).toBe(1);
    expect(dup.err).toMatch(/already a member/);
    const bad = await command("user", ["add", "--email", "x@y.z", "--name", "X"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/--team/);
    expect(bad.err).toMatch(/Usage:/);

    const admin = team.users[0];
    const audit = await listAudit({ teamId: team.id, userId: admin.id, userChatId: admin.chat_id, isAdmin: true });
    expect(audit.items.map((i) => [i.action, i.actor])).toEqual([
      ["user.add", null],
      ["user.add", null],
      ["team.setup", null],
    ]);
  }, 120_000);

  it("npm run team -- create after the setup refuses the same team name or admin e-mail (any case) unless --force", async () => {
    const tag = Date.now().toString(36);
    const first = await createTeamWithAdmin({
      teamName: `Acme ${tag}`,
      admin: { email: `ada.${tag}@acme.test`, name: "Ada", password: "long enough password" },
    });
    const args = (name: string, email: string) => ["create", "--name", name, "--admin-email", email, "--admin-name", "Ada"];

    const sameName = await command("team", args(`  ACME ${tag} `, `other.${tag}@acme.test`));
    expect(sameName.code).toBe(1);
    expect(sameName.err.trim()).toBe(
      `Error: Team ${first.teamId} "Acme ${tag}" already exists: use it (npm run user -- add --team ${first.teamId} …), or add --force to create another team anyway`,
    );
    const sameAdmin = await command("team", args(`Other ${tag}`, ` ADA.${tag}@Acme.Test`));
    expect(sameAdmin.code).toBe(1);
    expect(sameAdmin.err.trim()).toBe(
      `Error: ada.${tag}@acme.test already belongs to team ${first.teamId} "Acme ${tag}": use it (npm run user -- add --team ${first.teamId} …), or add --force to create another team anyway`,
    );
    // An e-mail shaped like a pattern is compared exactly: `_` does not match the `.` of ada.<tag>.
    expect((await command("team", args(`Third ${tag}`, `ada_${tag}@acme.test`))).code).toBe(0);
    expect(await db.team.count({ where: { name: { in: [`Other ${tag}`, `  ACME ${tag} `, `ACME ${tag}`] } } })).toBe(0);

    // api-key's example URL is on PUBLIC_URL too (it printed http://localhost:<PORT> whatever PUBLIC_URL said).
    const key = await command("api-key", ["--email", `ada.${tag}@acme.test`], { PUBLIC_URL: "https://checkin.example.test" });
    expect(key.code).toBe(0);
    expect(key.out).toMatch(/curl -H "Authorization: \S+" https:\/\/checkin\.example\.test\/v1\/me/);

    const forced = await command("team", [...args(`Acme ${tag}`, `ada.${tag}@acme.test`), "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.out).toMatch(/Team \d+ created/);
    expect(await db.team.count({ where: { name: `Acme ${tag}` } })).toBe(2);
  }, 120_000);
});
