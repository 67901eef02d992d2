/**
 * Check-ins as code (issue 43), end to end through real HTTP: `npm run config`'s client
 * (lib/config/cli.ts) against the service's v2 routes served on 127.0.0.1 (tests/fakes/api-server.ts,
 * the test database). The seeded demo team is exported, applied to an empty second team (same
 * people and channels), after which `plan` shows no change and both teams export the same
 * document; then field-level plans, a reworded question keeping its id, --prune, invalid documents
 * (file + line + path), a failed apply that changes nothing and converges when run again, applying
 * twice, the JSON Schema at /v2/config.schema.json and the admin-only rule.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { runConfigCli } from "@/lib/config/cli";
import type { TeamConfig } from "@/lib/config/schema";
import { db } from "@/lib/db";
import { addHoliday } from "@/lib/domain/holidays";
import { createWebhook } from "@/lib/domain/webhooks";
import { seedDemoData } from "@/lib/seed/index";
import { type ApiServer, startApiServer } from "@/tests/fakes/api-server";
import { createTestUser, type TestUser } from "@/tests/fixtures";

// Webhook urls of the documents use the loopback's discard port (read at call time).
process.env.WEBHOOKS_ALLOW_PRIVATE = "true";

let server: ApiServer;
let sourceKey: string;
let targetAdmin: TestUser;
let targetTeamId: number;
let dir: string;

beforeAll(async () => {
  const seeded = await seedDemoData({ db, namespace: `c${randomBytes(3).toString("hex")}`, credentialsFile: null });
  sourceKey = seeded.credentials.api_keys.admin.key;
  const sourceTeamId = seeded.credentials.api_keys.admin.team_id;
  const admin = await db.user.findFirstOrThrow({ where: { team_id: sourceTeamId, email: seeded.credentials.api_keys.admin.email } });
  const actor = { teamId: sourceTeamId, userId: admin.id, userChatId: admin.chat_id, isAdmin: true };
  await addHoliday(actor, { date: "2026-12-25", name: "Christmas" });
  await createWebhook(actor, { url: "http://127.0.0.1:9/hooks", events: ["report.submitted"], description: "CI" });

  // The second team: the same people (by e-mail) and channels (by name, same members), nothing else.
  const team = await db.team.create({ data: { chat_id: `T${randomBytes(4).toString("hex").toUpperCase()}`, name: "Copy" } });
  targetTeamId = team.id;
  const users = await db.user.findMany({ where: { team_id: sourceTeamId }, orderBy: { id: "asc" } });
  const userIds = new Map<number, number>();
  for (const u of users) {
    const copy = await db.user.create({
      data: {
        team_id: team.id,
        chat_id: u.chat_id,
        username: u.username,
        realname: u.realname,
        firstname: u.firstname,
        email: u.email,
        timezone: u.timezone,
        deactivated_at: u.deactivated_at,
      },
    });
    userIds.set(u.id, copy.id);
  }
  const channels = await db.channel.findMany({ where: { team_id: sourceTeamId }, include: { members: true } });
  for (const c of channels) {
    const copy = await db.channel.create({ data: { team_id: team.id, chat_id: c.chat_id, name: c.name } });
    await db.channelMember.createMany({
      data: c.members.map((m) => ({ team_id: team.id, channel_id: copy.id, user_id: userIds.get(m.user_id) as number })),
    });
  }
  targetAdmin = await createTestUser(team.id, { isAdmin: true, name: "Platform" });
  server = await startApiServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "config-as-code-"));
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm run config -- ...args` against the test server; returns exit code and output. */
async function cli(key: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runConfigCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) }, { url: server.url, key });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const file = (name: string) => path.join(dir, name);
const readYaml = (name: string) => parse(fs.readFileSync(file(name), "utf8")) as TeamConfig;
const writeYaml = (name: string, doc: unknown) => fs.writeFileSync(file(name), stringify(doc));
const withoutTeam = ({ team: _team, ...rest }: TeamConfig) => rest;

describe("npm run config: export → apply on an empty team → plan", () => {
  it("reproduces the demo team's configuration in a second team; plan then shows no changes", async () => {
    const exported = await cli(sourceKey, "export", "-o", file("team.yaml"));
    expect(exported.code, exported.err).toBe(0);
    const doc = readYaml("team.yaml");
    expect(doc.standups.length).toBeGreaterThan(0);
    expect(doc.polls.length).toBeGreaterThan(0);
    expect(doc.holidays).toEqual([{ date: "2026-12-25", name: "Christmas" }]);
    expect(doc.webhooks).toEqual([{ url: "http://127.0.0.1:9/hooks", events: ["report.submitted"], description: "CI", enabled: true }]);
    expect(JSON.stringify(doc)).not.toContain("whsec_");
    expect(doc.standups.some((s) => s.members.length > 0 || s.sync_channel)).toBe(true);

    const plan = await cli(targetAdmin.key, "plan", "-f", file("team.yaml"), "--exit-code");
    expect(plan.code, plan.err).toBe(2);
    expect(plan.out).toContain(`+ standup ${JSON.stringify(doc.standups[0].name)} (create)`);

    const applied = await cli(targetAdmin.key, "apply", "-f", file("team.yaml"));
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toMatch(/Signing secret of the new webhook http:\/\/127\.0\.0\.1:9\/hooks \(shown once\): whsec_/);

    const again = await cli(targetAdmin.key, "plan", "-f", file("team.yaml"), "--exit-code");
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain("No changes");

    expect((await cli(targetAdmin.key, "export", "-o", file("copy.yaml"))).code).toBe(0);
    expect(withoutTeam(readYaml("copy.yaml"))).toEqual(withoutTeam(doc));
  });

  it("applying the same file twice changes nothing the second time", async () => {
    const before = await db.checkin.findMany({
      where: { team_id: targetTeamId },
      select: { id: true, updated_at: true },
      orderBy: { id: "asc" },
    });
    const second = await cli(targetAdmin.key, "apply", "-f", file("team.yaml"));
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain("No changes");
    const after = await db.checkin.findMany({
      where: { team_id: targetTeamId },
      select: { id: true, updated_at: true },
      orderBy: { id: "asc" },
    });
    expect(after).toEqual(before);
  });
});

describe("npm run config: changes, keys and --prune", () => {
  it("plans field-level changes; a reworded question with the same key keeps its id", async () => {
    const doc = readYaml("team.yaml");
    const standup = doc.standups[0];
    const question = await db.question.findFirstOrThrow({
      where: {
        checkin: { team_id: targetTeamId, name: standup.name, state: { in: ["active", "paused"] } },
        archived_at: null,
        position: 0,
      },
    });
    const changed = structuredClone(doc);
    changed.standups[0].time = "06:45";
    changed.standups[0].questions[0].text = "What did you finish yesterday?";
    changed.standups[0].questions.push({ key: "mood", text: "How do you feel?", answer_type: "multiple_choice", choices: ["good", "meh"] });
    changed.holidays.push({ date: "2027-01-01", name: "New year" });
    writeYaml("changed.yaml", changed);

    const plan = await cli(targetAdmin.key, "plan", "-f", file("changed.yaml"));
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).toContain(`~ standup ${JSON.stringify(standup.name)}`);
    expect(plan.out).toContain(`~ time: ${JSON.stringify(standup.time)} → "06:45:00"`);
    expect(plan.out).toContain(
      `~ questions[key=${standup.questions[0].key}].text: ${JSON.stringify(standup.questions[0].text)} → "What did you finish yesterday?"`,
    );
    expect(plan.out).toContain("+ questions[key=mood]");
    expect(plan.out).toContain('+ holiday "2027-01-01" (create)');
    expect(plan.out).toContain("Plan: 1 to create, 1 to change, 0 to delete.");

    expect((await cli(targetAdmin.key, "apply", "-f", file("changed.yaml"))).code).toBe(0);
    const kept = await db.question.findUniqueOrThrow({ where: { id: question.id } });
    expect(kept).toMatchObject({ text: "What did you finish yesterday?", archived_at: null, key: standup.questions[0].key });
    const mood = await db.question.findFirstOrThrow({ where: { checkin_id: question.checkin_id, key: "mood", archived_at: null } });
    expect(mood).toMatchObject({ answer_type: "multiple_choice", choices: ["good", "meh"], position: standup.questions.length });
    expect((await cli(targetAdmin.key, "plan", "-f", file("changed.yaml"))).out).toContain("No changes");
  });

  it("carries question types: a rating scale and an optional question apply, export, and plan field changes", async () => {
    const doc = readYaml("changed.yaml"); // the state the previous test left
    const typed = structuredClone(doc);
    typed.standups[0].questions.push(
      { key: "energy", text: "Energy today?", answer_type: "rating", scale: { min: 1, max: 3, labels: ["Low", "OK", "High"] } },
      { key: "extra", text: "Anything else?", optional: true },
    );
    writeYaml("typed.yaml", typed);
    const applied = await cli(targetAdmin.key, "apply", "-f", file("typed.yaml"));
    expect(applied.code, applied.err).toBe(0);
    const checkin = { team_id: targetTeamId, name: typed.standups[0].name, state: { in: ["active" as const, "paused" as const] } };
    const energy = await db.question.findFirstOrThrow({ where: { checkin, key: "energy", archived_at: null } });
    expect(energy).toMatchObject({
      answer_type: "rating",
      scale_min: 1,
      scale_max: 3,
      scale_labels: ["Low", "OK", "High"],
      optional: false,
    });
    expect(await db.question.findFirstOrThrow({ where: { checkin, key: "extra", archived_at: null } })).toMatchObject({
      answer_type: "text",
      optional: true,
    });
    expect((await cli(targetAdmin.key, "plan", "-f", file("typed.yaml"))).out).toContain("No changes");
    expect((await cli(targetAdmin.key, "export", "-o", file("typed-export.yaml"))).code).toBe(0);
    const exported = readYaml("typed-export.yaml").standups.find((s) => s.name === typed.standups[0].name);
    expect(exported?.questions.find((q) => q.key === "energy")).toMatchObject({ scale: { min: 1, max: 3, labels: ["Low", "OK", "High"] } });
    expect(exported?.questions.find((q) => q.key === "extra")).toMatchObject({ optional: true });

    // Leaving `optional` out is a change back to required; a bad scale names its path.
    const changed = structuredClone(typed);
    const extra = changed.standups[0].questions.find((q) => q.key === "extra");
    if (extra) delete extra.optional;
    writeYaml("typed-changed.yaml", changed);
    expect((await cli(targetAdmin.key, "plan", "-f", file("typed-changed.yaml"))).out).toContain(
      "~ questions[key=extra].optional: true → false",
    );
    const bad = structuredClone(typed);
    const rating = bad.standups[0].questions.find((q) => q.key === "energy");
    if (rating) rating.scale = { min: 1, max: 3, labels: ["Low", "High"] };
    writeYaml("typed-bad.yaml", bad);
    const refused = await cli(targetAdmin.key, "apply", "-f", file("typed-bad.yaml"));
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/typed-bad\.yaml:\d+: standups\[0\]\.questions\[\d+\]\.scale\.labels: give one non-empty label/);
    // Back to the state the next test starts from.
    expect((await cli(targetAdmin.key, "apply", "-f", file("changed.yaml"))).code).toBe(0);
  });

  it("keeps what the file no longer names unless --prune, which deletes it", async () => {
    const doc = readYaml("changed.yaml");
    const dropped = doc.standups.pop();
    const droppedHook = doc.webhooks.pop();
    const droppedPoll = doc.polls.pop();
    const droppedHoliday = doc.holidays.pop();
    writeYaml("smaller.yaml", doc);

    const plan = await cli(targetAdmin.key, "plan", "-f", file("smaller.yaml"));
    expect(plan.out).toContain("No changes");
    expect(plan.out).toContain(`standup ${JSON.stringify(dropped?.name)}`);
    expect(plan.out).toContain("--prune deletes them");

    const pruned = await cli(targetAdmin.key, "plan", "-f", file("smaller.yaml"), "--prune");
    expect(pruned.out).toContain(`- standup ${JSON.stringify(dropped?.name)} (delete)`);
    expect(pruned.out).toContain(`- webhook ${JSON.stringify(droppedHook?.url)} (delete)`);
    expect(pruned.out).toContain(`- poll ${JSON.stringify(droppedPoll?.name)} (delete)`);
    expect(pruned.out).toContain(`- holiday ${JSON.stringify(droppedHoliday?.date)} (delete)`);
    expect(pruned.out).toContain("Plan: 0 to create, 0 to change, 4 to delete.");

    expect((await cli(targetAdmin.key, "apply", "-f", file("smaller.yaml"), "--prune")).code).toBe(0);
    const gone = await db.checkin.findFirstOrThrow({ where: { team_id: targetTeamId, name: dropped?.name }, orderBy: { id: "desc" } });
    expect(gone.state).toBe("archived");
    expect(await db.webhookEndpoint.count({ where: { team_id: targetTeamId } })).toBe(0);
    const poll = await db.checkin.findFirstOrThrow({
      where: { team_id: targetTeamId, kind: "poll", name: droppedPoll?.name },
      orderBy: { id: "desc" },
    });
    expect(poll.state).toBe("archived");
    expect(await db.teamHoliday.count({ where: { team_id: targetTeamId, date: new Date(`${droppedHoliday?.date}T00:00:00Z`) } })).toBe(0);
    expect((await cli(targetAdmin.key, "plan", "-f", file("smaller.yaml"), "--prune")).out).toContain("No changes");
  });
});

describe("npm run config: bad documents and failures", () => {
  it("names the file, the line and the path of each problem the schema finds", async () => {
    const doc = readYaml("smaller.yaml");
    doc.standups[0].questions[0].choices = ["yes", ""];
    (doc.standups[0] as { days: string[] }).days = ["Mon", "Funday"];
    writeYaml("bad.yaml", doc);
    const r = await cli(targetAdmin.key, "plan", "-f", file("bad.yaml"));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`${file("bad.yaml")}:\\d+: standups\\[0\\]\\.questions\\[0\\]\\.choices\\[1\\]: must not be empty`));
    expect(r.err).toMatch(/bad\.yaml:\d+: standups\[0\]\.days\[1\]: must be a three-letter day name/);
  });

  it("names the path of what only the server can judge (people, channels, timezones, answer types)", async () => {
    const doc = readYaml("smaller.yaml");
    const i = doc.standups.length - 1;
    doc.standups[i].sync_channel = null;
    doc.standups[i].members = ["nobody@nowhere.example"];
    doc.standups[i].timezone = "Mars/Olympus";
    doc.polls[0].broadcast_channel = "no-such-channel";
    doc.polls[0].questions[0].answer_type = "telepathy";
    writeYaml("unknown.yaml", doc);
    const r = await cli(targetAdmin.key, "apply", "-f", file("unknown.yaml"));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(`unknown\\.yaml:\\d+: standups\\[${i}\\]\\.members\\[0\\]: no active person with e-mail "nobody@nowhere.example"`),
    );
    expect(r.err).toMatch(new RegExp(`standups\\[${i}\\]\\.timezone: "Mars/Olympus" is not an IANA timezone`));
    expect(r.err).toMatch(/polls\[0\]\.broadcast_channel: no channel named "no-such-channel"/);
    expect(r.err).toMatch(/polls\[0\]\.questions\[0\]\.answer_type: unknown answer type "telepathy"/);
    const syntax = file("syntax.yaml");
    fs.writeFileSync(syntax, "standups:\n  - name: [unclosed\n");
    expect((await cli(targetAdmin.key, "plan", "-f", syntax)).err).toMatch(/syntax\.yaml:\d+:\d+: /);
  });

  it("an apply that fails part way changes nothing, and converges when run again", async () => {
    const doc = readYaml("smaller.yaml");
    doc.standups.push({ ...structuredClone(doc.standups[0]), name: "Added before the failure" });
    doc.webhooks.push({ url: "http://10.1.2.3/private", events: ["report.submitted"], description: "", enabled: true });
    writeYaml("failing.yaml", doc);
    process.env.WEBHOOKS_ALLOW_PRIVATE = "false";
    try {
      const r = await cli(targetAdmin.key, "apply", "-f", file("failing.yaml"));
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/failing\.yaml:\d+: webhooks\[0\]: url: /);
    } finally {
      process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    }
    expect(await db.checkin.count({ where: { team_id: targetTeamId, name: "Added before the failure" } })).toBe(0);
    expect((await cli(targetAdmin.key, "apply", "-f", file("failing.yaml"))).code).toBe(0);
    expect((await cli(targetAdmin.key, "plan", "-f", file("failing.yaml"))).out).toContain("No changes");
  });

  it("refuses a key that is not a team admin's", async () => {
    const member = await createTestUser(targetTeamId);
    const r = await cli(member.key, "export");
    expect(r.code).toBe(1);
    expect(r.err).toContain("not found (404): the key must be a team admin's");
  });
});

describe("GET /v2/config.schema.json", () => {
  it("serves the JSON Schema of the document without a key, and exported documents validate against it", async () => {
    const response = await fetch(`${server.url}/v2/config.schema.json`);
    expect(response.status).toBe(200);
    const schema = await response.json();
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(schema);
    expect(validate(readYaml("team.yaml")), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ standups: [{ name: "x", time: "9", timezone: "UTC", days: ["Mon"], questions: [] }] })).toBe(false);
  });
});
