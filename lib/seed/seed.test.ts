/**
 * Demo data: the pure plan (determinism and invariants at several "now"s) and a real seed into the
 * shared test database under a unique namespace (no TRUNCATE: other test files share the database).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/auth/api-keys";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { weekdayOf } from "@/lib/seed/dates";
import { type DemoCredentials, SeedRefusedError, type SeedResult, seedDemoData } from "@/lib/seed/index";
import { type DemoPlan, planDemoData } from "@/lib/seed/plan";

const MIN_RATE = 0.7;
const MAX_RATE = 0.92;

function absentOn(plan: DemoPlan, userKey: string, date: string): boolean {
  return plan.teams.some((t) => t.absences.some((a) => a.userKey === userKey && a.start <= date && date <= a.end));
}

describe("planDemoData (pure)", () => {
  const now = new Date("2026-11-23T08:45:00Z"); // Monday 09:45 in Berlin: today's daily standup is running

  it("is deterministic: the same now gives the same people and history", () => {
    const a = planDemoData({ now });
    const b = planDemoData({ now });
    expect(b.teams.map((t) => t.users.map((u) => [u.realname, u.email, u.chat_id]))).toEqual(
      a.teams.map((t) => t.users.map((u) => [u.realname, u.email, u.chat_id])),
    );
    expect(JSON.stringify(b.history)).toBe(JSON.stringify(a.history));
    expect(a.teams[0]?.users[0]?.realname).toMatch(/^\S+ \S+/);
  });

  it("has the promised shape: 25 + 6 users, admins, channels, five standups + draft, two polls", () => {
    const [acme, globex] = planDemoData({ now }).teams;
    expect(acme?.users).toHaveLength(25);
    expect(globex?.users).toHaveLength(6);
    expect(acme?.users[0]?.email).toBe("admin@acme.example");
    expect(acme?.users.filter((u) => u.is_admin)).toHaveLength(1);
    expect(acme?.users.filter((u) => u.is_billing_admin)).toHaveLength(1);
    expect(new Set(acme?.users.map((u) => u.timezone)).size).toBeGreaterThanOrEqual(6);
    for (const u of acme?.users ?? []) {
      expect(u.chat_id).toMatch(/^U[A-Z0-9]{8}$/);
      expect(u.email).toMatch(/^[a-z0-9.]+@acme\.example$/);
      expect(u.avatar_url).toMatch(/^https:\/\//);
    }
    expect(acme?.channels.map((c) => c.name)).toEqual(["general", "engineering", "design", "product", "standups", "random"]);
    const standups = acme?.checkins.filter((c) => c.kind === "standup") ?? [];
    expect(standups.filter((c) => c.state !== "draft")).toHaveLength(5);
    expect(standups.filter((c) => c.state === "draft")).toHaveLength(1);
    expect(standups.filter((c) => c.is_anonymous)).toHaveLength(1);
    expect(standups.filter((c) => c.is_confidential)).toHaveLength(1);
    expect(standups.filter((c) => c.state === "paused")).toHaveLength(1);
    expect(
      standups.some(
        (c) => c.questions.some((q) => q.answer_type === "multiple_choice") && c.questions.some((q) => q.answer_type === "text"),
      ),
    ).toBe(true);
    const polls = acme?.checkins.filter((c) => c.kind === "poll") ?? [];
    expect(polls.map((p) => p.questions[0]?.answer_type).sort()).toEqual(["multiple_choice", "open_ended"]);
    expect(polls.every((p) => p.recurrence?.type === "weekly")).toBe(true);
    expect(globex?.checkins).toHaveLength(1);
  });

  it("a namespace keeps the names but makes chat ids, emails and message ids unique", () => {
    const a = planDemoData({ now });
    const b = planDemoData({ now, namespace: "ns1" });
    expect(b.teams.map((t) => t.users.map((u) => u.realname))).toEqual(a.teams.map((t) => t.users.map((u) => u.realname)));
    const idsA = new Set(
      a.teams.flatMap((t) => [
        t.chat_id,
        ...t.users.map((u) => u.chat_id),
        ...t.users.map((u) => u.email),
        ...t.channels.map((c) => c.chat_id),
      ]),
    );
    for (const t of b.teams)
      for (const id of [t.chat_id, ...t.users.map((u) => u.chat_id), ...t.users.map((u) => u.email), ...t.channels.map((c) => c.chat_id)])
        expect(idsA.has(id)).toBe(false);
    const tsA = new Set(a.history.reports.flatMap((r) => (r.message ? [r.message.ts] : [])));
    expect(b.history.reports.some((r) => r.message && tsA.has(r.message.ts))).toBe(false);
    expect(() => planDemoData({ now, namespace: "Bad-NS" })).toThrow();
  });

  const nows = [
    "2026-11-23T08:45:00Z", // Monday morning in Europe
    "2026-11-21T05:03:00Z", // Saturday
    "2026-03-30T07:40:00Z", // Monday after the EU spring DST change
    "2026-07-03T22:30:00Z", // Friday night in Europe, afternoon in California
  ];
  it.each(nows)("keeps its invariants at now = %s", (iso) => {
    const at = new Date(iso);
    const plan = planDemoData({ now: at });
    const h = plan.history;
    const checkins = new Map(plan.teams.flatMap((t) => t.checkins.map((c) => [c.key, c] as const)));
    const t = at.getTime();
    for (const o of h.occurrences) {
      const c = checkins.get(o.checkinKey);
      expect(c?.days).toContain(weekdayOf(o.date));
      expect(o.scheduled_at.getTime()).toBeLessThanOrEqual(t);
      expect(c?.state).not.toBe("draft");
    }
    const firstDates = h.occurrences.map((o) => o.date).sort();
    expect(new Date(`${firstDates[0]}T00:00:00Z`).getTime()).toBeGreaterThan(t - 91 * 86_400_000);
    for (const r of h.reports) {
      for (const d of [r.started_at, r.submitted_at, r.discarded_at, r.created_at]) if (d) expect(d.getTime()).toBeLessThanOrEqual(t);
      expect(absentOn(plan, r.userKey, r.date)).toBe(false);
      if (r.status === "submitted") {
        expect(r.submitted_at).not.toBeNull();
        const delay =
          (r.submitted_at as Date).getTime() -
          (h.occurrences.find((o) => o.checkinKey === r.checkinKey && o.date === r.date)?.scheduled_at.getTime() ?? 0);
        expect(delay).toBeGreaterThan(0);
        expect(delay).toBeLessThanOrEqual(151 * 60_000);
        expect(r.message?.text).toBeTruthy();
      }
      if (checkins.get(r.checkinKey)?.is_anonymous) expect(r.is_anonymous).toBe(true);
    }
    for (const v of h.votes) {
      expect(v.created_at.getTime()).toBeLessThanOrEqual(t);
      expect(absentOn(plan, v.userKey, v.date)).toBe(false);
    }
    expect(h.reports.some((r) => r.status === "pending")).toBe(true);
    expect(h.reports.some((r) => r.status === "discarded")).toBe(true);
    for (const team of plan.teams) {
      const keys = new Set(team.checkins.filter((c) => c.kind === "standup").map((c) => c.key));
      const expected = h.occurrences
        .filter((o) => keys.has(o.checkinKey))
        .reduce((n, o) => n + o.members.filter((m) => !absentOn(plan, m.userKey, o.date)).length, 0);
      const submitted = h.reports.filter((r) => keys.has(r.checkinKey) && r.status === "submitted").length;
      expect(submitted / expected).toBeGreaterThanOrEqual(MIN_RATE);
      expect(submitted / expected).toBeLessThanOrEqual(MAX_RATE);
    }
    // Fridays are quieter than Tuesdays on the daily standup.
    const daily = [...checkins.values()].find((c) => c.name === "Daily Engineering Standup");
    const rateOn = (day: string) => {
      const occ = h.occurrences.filter((o) => o.checkinKey === daily?.key && weekdayOf(o.date) === day);
      const exp = occ.reduce((n, o) => n + o.members.filter((m) => m.asked_at).length, 0);
      const sub = h.reports.filter((r) => r.checkinKey === daily?.key && r.status === "submitted" && weekdayOf(r.date) === day).length;
      return sub / exp;
    };
    expect(rateOn("Fri")).toBeLessThan(rateOn("Tue"));
  });
});

describe("seedDemoData (database)", () => {
  const namespace = `t${randomBytes(4).toString("hex").slice(0, 7)}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "seed-test-"));
  const credentialsFile = path.join(tmp, "demo-credentials.json");
  const now = new Date();
  let result: SeedResult;
  let acmeId: number;
  let globexId: number;
  const lines: string[] = [];

  beforeAll(async () => {
    result = await seedDemoData({ db, now, namespace, credentialsFile, log: (l) => lines.push(l) });
    const teams = await db.team.findMany({
      where: { chat_id: { in: [`T0ACME${namespace.toUpperCase()}`, `T0GLOBEX${namespace.toUpperCase()}`] } },
      orderBy: { id: "asc" },
    });
    expect(teams).toHaveLength(2);
    acmeId = teams.find((t) => t.chat_id.startsWith("T0ACME"))?.id as number;
    globexId = teams.find((t) => t.chat_id.startsWith("T0GLOBEX"))?.id as number;
  });

  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("creates two teams with their people, channels, standups and polls, and logs progress", async () => {
    expect(result.teams.map((t) => t.id).sort()).toEqual([acmeId, globexId].sort());
    expect(await db.user.count({ where: { team_id: acmeId } })).toBe(25);
    expect(await db.user.count({ where: { team_id: globexId } })).toBe(6);
    expect(await db.channel.count({ where: { team_id: acmeId } })).toBe(6);
    const checkins = await db.checkin.findMany({
      where: { team_id: acmeId },
      select: { kind: true, state: true, is_anonymous: true, is_confidential: true, next_run_at: true },
    });
    expect(checkins.filter((c) => c.kind === "standup")).toHaveLength(6);
    expect(checkins.filter((c) => c.kind === "poll")).toHaveLength(2);
    expect(checkins.filter((c) => c.state === "draft")).toHaveLength(1);
    expect(checkins.filter((c) => c.state === "paused")).toHaveLength(1);
    for (const c of checkins) {
      if (c.state === "active") expect(c.next_run_at?.getTime()).toBeGreaterThan(now.getTime());
      else expect(c.next_run_at).toBeNull();
    }
    expect(await db.checkin.count({ where: { team_id: globexId } })).toBe(1);
    expect(await db.occurrence.count({ where: { team_id: { in: [acmeId, globexId] } } })).toBe(result.counts.occurrences);
    const byStatus = await db.report.groupBy({ by: ["status"], where: { team_id: { in: [acmeId, globexId] } }, _count: { _all: true } });
    const counts = Object.fromEntries(byStatus.map((s) => [s.status, s._count._all]));
    expect(counts).toEqual(result.counts.reports);
    expect(result.counts.reports.submitted).toBeGreaterThan(1000);
    expect(result.counts.reports.pending).toBeGreaterThan(0);
    expect(result.counts.reports.discarded).toBeGreaterThan(0);
    expect(await db.absence.count({ where: { team_id: acmeId } })).toBeGreaterThanOrEqual(8);
    expect(lines.some((l) => l.startsWith("Seeded in"))).toBe(true);
  });

  it("wait_time agrees with how each demo standup is asked: a number for scheduled ones, null for the manual-only one (issue 12)", async () => {
    const standups = await db.checkin.findMany({
      where: { team_id: { in: [acmeId, globexId] }, kind: "standup", state: { not: "draft" } },
      select: { name: true, wait_time: true, next_run_at: true, state: true },
    });
    const manual = standups.filter((s) => s.wait_time === null).map((s) => s.name);
    expect(manual).toEqual(["Design Critique Prep"]);
    for (const s of standups.filter((x) => x.wait_time !== null)) {
      expect(Number.isInteger(s.wait_time), s.name).toBe(true);
      if (s.state === "active") expect(s.next_run_at, s.name).not.toBeNull();
    }
  });

  it("participation per team is between 70 % and 92 % of the members not on vacation", async () => {
    for (const teamId of [acmeId, globexId]) {
      const [row] = await db.$queryRaw<{ expected: number; submitted: number }[]>`
        SELECT
          (SELECT count(*)::int FROM occurrence_members om
             JOIN occurrences o ON o.id = om.occurrence_id
             JOIN checkins c ON c.id = o.checkin_id AND c.kind = 'standup'
            WHERE om.team_id = ${teamId}
              AND NOT EXISTS (SELECT 1 FROM absences a WHERE a.user_id = om.user_id AND o.date BETWEEN a.start_date AND a.end_date)) AS expected,
          (SELECT count(*)::int FROM reports r WHERE r.team_id = ${teamId} AND r.status = 'submitted') AS submitted`;
      const rate = (row?.submitted ?? 0) / (row?.expected ?? 1);
      expect(rate).toBeGreaterThanOrEqual(MIN_RATE);
      expect(rate).toBeLessThanOrEqual(MAX_RATE);
    }
  });

  it("nobody on vacation reports or votes, nothing is in the future, and the last 7 days have data", async () => {
    const teams = [acmeId, globexId];
    const [bad] = await db.$queryRaw<{ reports: number; votes: number; future: number; recent: number }[]>`
      SELECT
        (SELECT count(*)::int FROM reports r JOIN occurrences o ON o.id = r.occurrence_id
           JOIN absences a ON a.user_id = r.user_id AND o.date BETWEEN a.start_date AND a.end_date
          WHERE r.team_id = ANY(${teams}) AND r.status <> 'discarded') AS reports,
        (SELECT count(*)::int FROM votes v JOIN occurrences o ON o.id = v.occurrence_id
           JOIN absences a ON a.user_id = v.user_id AND o.date BETWEEN a.start_date AND a.end_date
          WHERE v.team_id = ANY(${teams})) AS votes,
        (SELECT count(*)::int FROM reports r WHERE r.team_id = ANY(${teams}) AND (r.submitted_at > ${now} OR r.started_at > ${now})) AS future,
        (SELECT count(*)::int FROM reports r WHERE r.team_id = ${acmeId} AND r.status = 'submitted' AND r.submitted_at > ${new Date(now.getTime() - 7 * 86_400_000)}) AS recent`;
    expect(bad).toMatchObject({ reports: 0, votes: 0, future: 0 });
    expect(bad?.recent).toBeGreaterThan(20);
  });

  it("anonymous standups have anonymous reports; every submitted report has one delivered channel message", async () => {
    const anon = await db.checkin.findFirstOrThrow({ where: { team_id: acmeId, is_anonymous: true } });
    expect(await db.report.count({ where: { checkin_id: anon.id, is_anonymous: false } })).toBe(0);
    expect(await db.report.count({ where: { checkin_id: anon.id, status: "submitted" } })).toBeGreaterThan(50);
    const submitted = await db.report.count({ where: { team_id: acmeId, status: "submitted" } });
    const messages = await db.chatMessage.count({
      where: { team_id: acmeId, kind: "report", delivery_state: "delivered", report_id: { not: null } },
    });
    expect(messages).toBe(submitted);
    const answers = await db.answer.count({ where: { team_id: acmeId } });
    expect(answers).toBeGreaterThan(submitted * 2);
  });

  it("seeds poll votes and categorization state", async () => {
    const polls = await db.checkin.findMany({ where: { team_id: acmeId, kind: "poll" }, include: { questions: true } });
    const lunch = polls.find((p) => p.questions[0]?.answer_type === "multiple_choice");
    const open = polls.find((p) => p.questions[0]?.answer_type === "open_ended");
    expect(lunch?.recurrence).toEqual({ type: "weekly", repeat: 1, every: "week", day: "Fri", month: null });
    const lunchVotes = await db.vote.findMany({ where: { question_id: lunch?.questions[0]?.id } });
    expect(lunchVotes.length).toBeGreaterThan(50);
    for (const v of lunchVotes) expect(lunch?.questions[0]?.choices).toContain(v.choice);
    const cats = await db.categorization.findMany({
      where: { question_id: open?.questions[0]?.id },
      include: { occurrence: true },
      orderBy: { occurrence: { date: "asc" } },
    });
    expect(cats.length).toBeGreaterThan(5);
    expect(cats.at(-1)?.status).toBe("pending");
    expect(cats.slice(0, -1).every((c) => c.status === "completed" && Array.isArray(c.categories))).toBe(true);
    const openVotes = await db.vote.findMany({ where: { question_id: open?.questions[0]?.id }, take: 5 });
    expect(openVotes.every((v) => v.text && v.choice === null)).toBe(true);
  });

  it("writes the credentials file with working keys and the demo password", async () => {
    const creds = JSON.parse(fs.readFileSync(credentialsFile, "utf8")) as DemoCredentials;
    expect(result.credentialsFile).toBe(credentialsFile);
    expect(creds.dashboard.password).toBe("demo-password");
    const admin = await authenticateApiKey(db, creds.api_keys.admin.key);
    const member = await authenticateApiKey(db, creds.api_keys.member.key);
    const other = await authenticateApiKey(db, creds.api_keys.other_team_member.key);
    expect(admin).toMatchObject({ teamId: acmeId, isAdmin: true, userChatId: creds.api_keys.admin.user_id });
    expect(member).toMatchObject({ teamId: acmeId, isAdmin: false });
    expect(other).toMatchObject({ teamId: globexId, isAdmin: false });
    const user = await db.user.findFirstOrThrow({ where: { team_id: acmeId, email: creds.dashboard.email } });
    expect(await verifyPassword(user.password_hash, "demo-password")).toBe(true);
  });

  it("refuses to seed over existing teams unless reset, and reset replaces them", async () => {
    await expect(seedDemoData({ db, now, namespace, credentialsFile: null })).rejects.toBeInstanceOf(SeedRefusedError);
    const again = await seedDemoData({ db, now, namespace, credentialsFile: null, reset: true });
    expect(again.counts).toEqual(result.counts);
    expect(await db.team.count({ where: { id: { in: [acmeId, globexId] } } })).toBe(0);
    expect(await db.user.count({ where: { team_id: { in: again.teams.map((t) => t.id) } } })).toBe(31);
  }, 60_000);
});
