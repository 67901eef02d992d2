/**
 * Import from Geekbot (issue 43), end to end and offline: a second instance of this service
 * (seeded demo data, served over real HTTP on 127.0.0.1 by tests/fakes/api-server.ts) is the
 * source; an empty team of the test database is the target. Compares standups, questions,
 * members, report history, participation and poll votes between the two, then checks that a
 * second run changes nothing, that a dry run writes nothing, that a wrong key stops before any
 * write, and that 429 + Retry-After is honoured and a failing source (5xx) stops resumably.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as participationRoute from "@/app/v2/standups/[standupId]/participation/route";
import { createApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db";
import { SourceAuthError, SourceUnavailableError } from "@/lib/import/geekbot/client";
import { formatSummary } from "@/lib/import/geekbot/context";
import { importFromGeekbot } from "@/lib/import/geekbot/run";
import { seedDemoData } from "@/lib/seed/index";
import { type ApiServer, startApiServer } from "@/tests/fakes/api-server";
import { createTestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";

let server: ApiServer;
let sourceKey: string;
let sourceTeamId: number;
let visibleCheckinIds: number[];

beforeAll(async () => {
  const namespace = `g${randomBytes(3).toString("hex")}`;
  const seeded = await seedDemoData({ db, namespace, credentialsFile: null });
  sourceKey = seeded.credentials.api_keys.admin.key;
  sourceTeamId = seeded.credentials.api_keys.admin.team_id;
  server = await startApiServer();
  // What the source's admin can see (the importer's view): GET /v1/standups/?admin=true and /v1/polls.
  const get = async (p: string) => (await fetch(`${server.url}${p}`, { headers: { authorization: sourceKey } })).json();
  visibleCheckinIds = [...(await get("/v1/standups/?admin=true")), ...(await get("/v1/polls"))].map((c: { id: number }) => c.id);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

async function emptyTeam(): Promise<{ id: number; adminEmail: string }> {
  const team = await db.team.create({ data: { chat_id: `T${randomBytes(4).toString("hex").toUpperCase()}`, name: "Target" } });
  const admin = await createTestUser(team.id, { isAdmin: true, name: "Target" });
  return { id: team.id, adminEmail: admin.email };
}

const quiet = { attempts: 3, backoffMs: 10 };

/**
 * A team's standups and polls with everything the import must reproduce, comparable across teams.
 * `apiVisible`: only the report history the source's API shows (v1 and v2 list reports of active
 * standups only: a paused standup's history stays behind, and the import says so).
 */
async function snapshot(teamId: number, checkinIds?: number[], apiVisible = false) {
  const checkins = await db.checkin.findMany({
    where: { team_id: teamId, ...(checkinIds ? { id: { in: checkinIds } } : {}) },
    orderBy: { name: "asc" },
    include: {
      owner: { select: { email: true } },
      broadcast_channel: { select: { name: true } },
      questions: { orderBy: { position: "asc" }, where: { archived_at: null } },
      members: { select: { user: { select: { email: true } } } },
      reports: {
        where: { status: "submitted" },
        include: {
          user: { select: { email: true } },
          answers: { include: { question: { select: { text: true } } } },
          occurrence: { select: { date: true } },
        },
      },
      occurrences: { include: { votes: { include: { user: { select: { email: true } }, question: { select: { text: true } } } } } },
    },
  });
  for (const c of checkins) if (apiVisible && c.state !== "active") c.reports = [];
  return checkins.map((c) => {
    const anon = (r: { is_anonymous: boolean; user: { email: string } }) => (r.is_anonymous ? "anonymous" : r.user.email);
    const responded = new Map<string, Set<string>>();
    for (const r of c.reports) {
      const d = r.occurrence?.date.toISOString().slice(0, 10) ?? "none";
      responded.set(d, (responded.get(d) ?? new Set()).add(r.is_anonymous ? `a${r.id}` : r.user.email));
    }
    return {
      kind: c.kind,
      name: c.name,
      state: c.state,
      time: c.time,
      timezone: c.timezone,
      days: c.days,
      wait_time: c.kind === "standup" ? c.wait_time : "not in the source API (polls)",
      personalised: c.personalised,
      is_anonymous: c.is_anonymous,
      is_confidential: c.is_confidential,
      owner: c.owner.email,
      channel: c.broadcast_channel?.name ?? null,
      questions: c.questions.map((q) => [q.text, q.answer_type, q.choices]),
      members: c.members.map((m) => m.user.email).sort(),
      reports: c.reports
        .map(
          (r) =>
            `${Math.floor((r.submitted_at as Date).getTime() / 1000)}|${anon(r)}|${r.answers
              .map((a) => `${a.question.text}=${a.text}`)
              .sort()
              .join("|")}`,
        )
        .sort(),
      participation: Object.fromEntries([...responded].map(([d, s]) => [d, s.size]).sort()),
      votes: c.occurrences
        .filter((o) => o.votes.length)
        .map((o) => ({
          date: o.date.toISOString().slice(0, 10),
          votes: o.votes.map((v) => `${v.question.text}|${v.choice ?? v.text}|${c.is_anonymous ? "anonymous" : v.user?.email}`).sort(),
        }))
        .sort((a, b) => a.date.localeCompare(b.date)),
    };
  });
}

async function counts(teamId: number) {
  const where = { team_id: teamId };
  return {
    users: await db.user.count({ where }),
    channels: await db.channel.count({ where }),
    checkins: await db.checkin.count({ where }),
    questions: await db.question.count({ where }),
    occurrences: await db.occurrence.count({ where }),
    occurrenceMembers: await db.occurrenceMember.count({ where }),
    reports: await db.report.count({ where }),
    answers: await db.answer.count({ where }),
    votes: await db.vote.count({ where }),
    chatMessages: await db.chatMessage.count({ where }),
    webhookDeliveries: await db.webhookDelivery.count({ where }),
    importMap: await db.importMap.count({ where }),
  };
}

describe("npm run import -- geekbot (lib/import/geekbot)", () => {
  let target: { id: number; adminEmail: string };
  let first: Awaited<ReturnType<typeof importFromGeekbot>>;

  it("reproduces the source's standups, questions, members, report history, participation and poll votes in an empty team, sending nothing", async () => {
    target = await emptyTeam();
    const lines: string[] = [];
    first = await importFromGeekbot({ baseUrl: server.url, key: sourceKey, teamId: target.id, log: (l) => lines.push(l), ...quiet });
    const source = await snapshot(sourceTeamId, visibleCheckinIds, true);
    const imported = await snapshot(target.id);
    expect(imported.map((c) => c.name)).toEqual(source.map((c) => c.name));
    for (const [i, s] of source.entries()) expect(imported[i], s.name).toEqual(s);
    expect(first.reports.imported).toBe(source.reduce((n, c) => n + c.reports.length, 0));
    expect(first.reports.imported).toBeGreaterThan(1000);
    expect(first.polls.votes).toBeGreaterThan(100);
    // People matched or created by e-mail, keeping the source's chat ids.
    const sourceUsers = await db.user.findMany({ where: { team_id: sourceTeamId }, select: { email: true, chat_id: true } });
    const targetUsers = new Map(
      (await db.user.findMany({ where: { team_id: target.id }, select: { email: true, chat_id: true, password_hash: true } })).map((u) => [
        u.email,
        u,
      ]),
    );
    for (const u of sourceUsers) {
      const t = targetUsers.get(u.email);
      if (!t) continue; // not in any standup or poll the admin sees
      expect(t.chat_id).toBe(u.chat_id);
      expect(t.password_hash).toBeNull();
    }
    // Nothing sent: no chat message, no webhook delivery for historical rows.
    const c = await counts(target.id);
    expect(c.chatMessages).toBe(0);
    expect(c.webhookDeliveries).toBe(0);
    const summary = formatSummary(first, { dryRun: false }).join("\n");
    expect(summary).toMatch(/reports: +\d+ imported/);
    expect(summary).toMatch(/reports of standup \d+: paused at the source/);
    expect(lines.some((l) => /reports imported \(\d+\/s\)/.test(l))).toBe(true);
    console.log(`${summary}\n  ${first.reports.imported} reports in ${first.ms} ms`);
  }, 180_000);

  it("participation shows in the target's API as in the source's: the same responders per date", async () => {
    // The source's admin, imported by e-mail, reads both sides' GET /v2/standups/{id}/participation.
    const adminEmail = (await db.user.findFirstOrThrow({ where: { team_id: sourceTeamId, is_admin: true }, orderBy: { id: "asc" } })).email;
    const importedAdmin = await db.user.findFirstOrThrow({ where: { team_id: target.id, email: adminEmail } });
    const { key: targetKey } = await createApiKey(db, { teamId: target.id, userId: importedAdmin.id, name: "test" });
    const responded = async (key: string, standupId: number) => {
      const out: Record<string, number> = {};
      const res = await call(participationRoute.GET, {
        path: `/v2/standups/${standupId}/participation?since=2020-01-01&limit=100`,
        key,
        params: { standupId: String(standupId) },
      });
      expect(res.status).toBe(200);
      for (const e of res.body.data as { date: string; responded: number }[]) if (e.responded > 0) out[e.date] = e.responded;
      return out;
    };
    const sourceStandups = await db.checkin.findMany({ where: { id: { in: visibleCheckinIds }, kind: "standup", state: "active" } });
    let compared = 0;
    for (const s of sourceStandups) {
      const local = await db.checkin.findFirstOrThrow({ where: { team_id: target.id, name: s.name } });
      const mine = await responded(targetKey, local.id);
      expect(mine, s.name).toEqual(await responded(sourceKey, s.id));
      compared += Object.keys(mine).length;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it("a second run imports nothing and changes nothing", async () => {
    const before = await counts(target.id);
    const snap = await snapshot(target.id);
    const again = await importFromGeekbot({ baseUrl: server.url, key: sourceKey, teamId: target.id, ...quiet });
    expect(again.reports.imported).toBe(0);
    // The checkpoints ask only for reports after the last import (and those of its last second again:
    // the source's anonymous reports all carry their run's 00:00, issue 45, so that second can hold a run's worth).
    expect(again.reports.existing).toBeLessThan(30);
    expect(again.standups).toEqual({ created: 0, existing: first.standups.created });
    expect(again.people.created).toBe(0);
    expect(again.questions.created).toBe(0);
    expect(again.polls.votes).toBe(0);
    expect(await counts(target.id)).toEqual(before);
    expect(await snapshot(target.id)).toEqual(snap);
  }, 180_000);

  it("--dry-run reports what it would create and writes nothing", async () => {
    const fresh = await emptyTeam();
    const before = await counts(fresh.id);
    const dry = await importFromGeekbot({ baseUrl: server.url, key: sourceKey, teamId: fresh.id, dryRun: true, ...quiet });
    expect(dry.dryRun).toBe(true);
    expect(dry.reports.imported).toBe(first.reports.imported);
    expect(dry.standups.created).toBe(first.standups.created);
    expect(dry.people.created).toBe(first.people.created);
    expect(await counts(fresh.id)).toEqual(before);
  }, 180_000);

  it("a wrong key (401) stops with a clear message before writing anything", async () => {
    const fresh = await emptyTeam();
    const before = await counts(fresh.id);
    await expect(importFromGeekbot({ baseUrl: server.url, key: "api_wrong", teamId: fresh.id, ...quiet })).rejects.toThrow(SourceAuthError);
    await expect(importFromGeekbot({ baseUrl: server.url, key: "api_wrong", teamId: fresh.id, ...quiet })).rejects.toThrow(
      /refused the API key \(401/,
    );
    expect(await counts(fresh.id)).toEqual(before);
  });

  it("honours 429 + Retry-After, stops resumably when the source keeps answering 5xx, and the next run completes the history", async () => {
    const fresh = await emptyTeam();
    // 429 on the first /v1/teams/ with Retry-After: 1, then every /v1/reports/ after the 5th fails with 503.
    server.hits.clear();
    server.fault = (path, hit) => {
      if (path === "/v1/teams/" && hit === 1) return { status: 429, headers: { "retry-after": "1" } };
      if (path === "/v1/reports/" && hit > 5) return { status: 503 };
      return null;
    };
    const started = Date.now();
    let error: unknown = null;
    try {
      await importFromGeekbot({ baseUrl: server.url, key: sourceKey, teamId: fresh.id, ...quiet });
    } catch (e) {
      error = e;
    } finally {
      server.fault = null;
    }
    expect(error).toBeInstanceOf(SourceUnavailableError);
    expect((error as Error).message).toMatch(/failed 3 times on GET \/v1\/reports\/.*run again to resume/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(server.hits.get("/v1/teams/")).toBe(2);
    const partial = await db.report.count({ where: { team_id: fresh.id } });
    // Five pages of 100, each committed with its checkpoint (pages overlap by their oldest second).
    expect(partial).toBeGreaterThan(450);
    expect(partial).toBeLessThanOrEqual(500);
    const resumed = await importFromGeekbot({ baseUrl: server.url, key: sourceKey, teamId: fresh.id, ...quiet });
    expect(resumed.reports.imported).toBe(first.reports.imported - partial);
    expect(await snapshot(fresh.id)).toEqual(await snapshot(target.id));
  }, 180_000);
});
