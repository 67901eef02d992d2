/**
 * "My data" (issue 45, GET /exports/my-data): the archive of a seeded member holds every row about
 * them — profile, memberships, participation, reports with answers, votes, absences, API keys'
 * metadata, audit entries — and nothing about anyone else (another member's identifiers, answers,
 * votes); the CSV holds their answers; only an admin exports someone else, audited; bad input is 400.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as myData } from "@/app/exports/my-data/route";
import { db } from "@/lib/db";
import { listAudit, recordAudit } from "@/lib/domain/audit";
import { createTestCheckin, createTestOccurrence, createTestReport, createTestTeam, type TestTeam, type TestUser } from "@/tests/fixtures";
import { call } from "@/tests/http";
import { createTestVote } from "@/tests/poll-fixtures";

let T: TestTeam;
let admin: TestUser;
let me: TestUser;
let other: TestUser;
const ids = { reports: [] as number[], votes: [] as number[], absences: [] as number[], keys: [] as number[] };

const get = (key: string, qs = "") => call(myData, { path: `/exports/my-data${qs ? `?${qs}` : ""}`, key });

beforeAll(async () => {
  T = await createTestTeam({ members: 2 });
  [admin, me, other] = T.users;
  const standup = await createTestCheckin(T, { name: "Daily", owner: admin, members: [admin, me, other], questions: [{ text: "News?" }] });
  const run = await createTestOccurrence(standup, "2026-03-02", [admin, me, other]);
  ids.reports.push((await createTestReport(standup, me, { occurrence_id: run.id, answers: ["my answer one"] })).id);
  ids.reports.push((await createTestReport(standup, me, { answers: ["my answer two"] })).id);
  await createTestReport(standup, other, { occurrence_id: run.id, answers: ["their answer"] });
  const poll = await createTestCheckin(T, { kind: "poll", owner: admin, questions: [{ text: "Ideas?", answer_type: "open_ended" }] });
  const broadcast = await createTestOccurrence(poll, "2026-03-03", [admin, me, other]);
  await createTestVote(poll, broadcast.id, me, 0, { text: "my idea" });
  await createTestVote(poll, broadcast.id, other, 0, { text: "their idea" });
  ids.votes = (await db.vote.findMany({ where: { user_id: me.id }, select: { id: true } })).map((v) => v.id);
  ids.absences.push(
    (
      await db.absence.create({
        data: { team_id: T.id, user_id: me.id, start_date: new Date("2026-04-01"), end_date: new Date("2026-04-02"), note: "my trip" },
      })
    ).id,
  );
  await db.absence.create({
    data: { team_id: T.id, user_id: other.id, start_date: new Date("2026-04-01"), end_date: new Date("2026-04-02"), note: "their trip" },
  });
  ids.keys = (await db.apiKey.findMany({ where: { user_id: me.id }, select: { id: true } })).map((k) => k.id);
  await recordAudit(db, {
    teamId: T.id,
    actorId: admin.id,
    action: "user.role_change",
    target: `user:${me.id}`,
    details: { to: "member" },
  });
  await recordAudit(db, {
    teamId: T.id,
    actorId: admin.id,
    action: "user.role_change",
    target: `user:${other.id}`,
    details: { email: other.email },
  });
});

describe("GET /exports/my-data (issue 45)", () => {
  it("holds every row about the member and nothing about anyone else", async () => {
    const res = await get(me.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="my-data-user-\d+-\d{4}-\d{2}-\d{2}\.json"/);
    const data = res.body;
    expect(data.profile).toMatchObject({ id: me.id, email: me.email, realname: me.realname, chat_id: me.chat_id });
    expect(data.profile).not.toHaveProperty("password_hash");
    expect(data.memberships.checkins.map((c: { name: string }) => c.name)).toContain("Daily");
    expect(data.memberships.channels.length).toBeGreaterThan(0);
    expect(data.participation).toHaveLength(2);
    expect(data.reports.map((r: { id: number }) => r.id)).toEqual(ids.reports);
    expect(data.reports.flatMap((r: { answers: Array<{ answer: string }> }) => r.answers.map((a) => a.answer))).toEqual([
      "my answer one",
      "my answer two",
    ]);
    expect(data.votes.map((v: { id: number }) => v.id)).toEqual(ids.votes);
    expect(data.absences.map((a: { id: number }) => a.id)).toEqual(ids.absences);
    expect(data.api_keys.map((k: { id: number }) => k.id)).toEqual(ids.keys);
    expect(JSON.stringify(data.api_keys)).not.toMatch(/"hash"/);
    expect(data.audit_entries.map((e: { target: string }) => e.target)).toEqual([`user:${me.id}`]);
    for (const foreign of [
      other.email,
      other.realname,
      other.chat_id,
      other.username,
      "their answer",
      "their idea",
      "their trip",
      admin.email,
    ]) {
      expect(res.text).not.toContain(foreign);
    }
  });

  it("gives the reports as CSV, one row per answer", async () => {
    const res = await get(me.key, "format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = res.text.trim().split("\r\n");
    expect(lines[0]).toBe("report_id,standup,status,submitted_at,question,answer");
    expect(lines).toHaveLength(3);
    expect(res.text).not.toContain("their answer");
  });

  it("lets an admin export someone (audited), never a member; rejects bad input", async () => {
    const forOther = await get(admin.key, `user_id=${me.id}`);
    expect(forOther.body.profile.id).toBe(me.id);
    expect((await listAudit(admin.actor, { action: "user.export" })).items[0]).toMatchObject({
      target: `user:${me.id}`,
      actor: { id: admin.id },
    });
    expect((await get(other.key, `user_id=${me.id}`)).status).toBe(404); // refused without telling whether the person exists
    expect((await get(me.key, "user_id=abc")).status).toBe(400);
    expect((await get(me.key, "format=xml")).status).toBe(400);
    expect((await get(admin.key, "user_id=999999999")).status).toBe(404);
  });
});
